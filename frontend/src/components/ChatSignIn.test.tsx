import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { McpServerInfo } from '../api'
import { resetStore, useStore } from '../store'
import { resetMcp, useMcp } from '../store/mcp'
import { ChatSignIn } from './ChatSignIn'

const server = (name: string, auth: McpServerInfo['auth'], enabled = true) =>
  ({ name, state: 'failed', tools: 0, problems: [], restartsOnUse: false, since: '', fromEnv: false, auth, config: { name, enabled } }) as McpServerInfo

describe('the chat’s sign-in notice', () => {
  let signIn: ReturnType<typeof vi.fn>
  beforeEach(() => {
    resetStore()
    resetMcp()
    signIn = vi.fn(async () => ({ servers: [], envFile: '', envError: '' }))
    window.go = { main: { App: { SignInMCPServer: signIn } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
    useMcp.setState({ servers: [server('linear', 'signed_out'), server('github', 'signed_in'), server('off', 'expired', false), server('notion', 'expired')], loaded: true })
  })
  afterEach(() => {
    delete window.go
  })

  it('names each of the chat’s servers that needs a sign-in, with its Sign in button', async () => {
    render(<ChatSignIn />)
    const rows = screen.getAllByTestId('chat-signin-row')
    expect(rows.map((r) => r.dataset.name)).toEqual(['linear', 'notion'])
    expect(rows[0]).toHaveTextContent('The MCP server linear needs you to sign in')
    expect(within(rows[1]).getByTestId('mcp-sign-in')).toHaveTextContent('Sign in again')
    await userEvent.click(within(rows[0]).getByTestId('mcp-sign-in'))
    expect(signIn).toHaveBeenCalledWith('linear')
  })

  it('leaves out servers the chat does not use', () => {
    useStore.setState({ newChatServers: ['notion'] })
    render(<ChatSignIn />)
    expect(screen.getAllByTestId('chat-signin-row').map((r) => r.dataset.name)).toEqual(['notion'])
  })

  it('shows nothing when no server needs it', () => {
    useMcp.setState({ servers: [server('github', 'signed_in')] })
    render(<ChatSignIn />)
    expect(screen.queryByTestId('chat-signin')).toBeNull()
  })
})
