import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { McpAuth, McpServerInfo } from '../api'
import { resetStore } from '../store'
import { resetMcp, useMcp } from '../store/mcp'
import { configFromDraft, draftFromConfig } from '../lib/mcp'
import { McpSignInRow } from './McpSignIn'

const server = (auth: McpAuth, authError = ''): McpServerInfo => ({
  name: 'linear', state: auth === 'signed_in' ? 'ready' : 'failed', tools: 0, problems: [], restartsOnUse: false, since: '',
  config: { name: 'linear', enabled: true, transport: 'http', url: 'https://mcp.linear.app/mcp' }, fromEnv: false, auth, authError,
})

let calls: string[]

describe('MCP sign-in on a server row', () => {
  beforeEach(() => {
    resetStore()
    resetMcp()
    calls = []
    const list = (name: string) => async (server: string) => {
      calls.push(`${name} ${server}`)
      return { servers: [], envFile: '', envError: '' }
    }
    window.go = { main: { App: { SignInMCPServer: list('in'), CancelMCPSignIn: list('cancel'), SignOutMCPServer: list('out') } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
  })
  afterEach(() => {
    window.go = undefined
  })

  it('signed out: Sign in; signing in: Cancel; signed in: Sign out', async () => {
    const { rerender } = render(<McpSignInRow s={server('signed_out')} />)
    expect(screen.getByTestId('mcp-signin-state')).toHaveTextContent('This server needs you to sign in.')
    await userEvent.click(screen.getByTestId('mcp-sign-in'))
    rerender(<McpSignInRow s={server('signing_in')} />)
    expect(screen.queryByTestId('mcp-sign-in')).toBeNull()
    await userEvent.click(screen.getByTestId('mcp-sign-in-cancel'))
    rerender(<McpSignInRow s={server('signed_in')} />)
    expect(screen.getByTestId('mcp-signin-state')).toHaveTextContent('Signed in.')
    await userEvent.click(screen.getByTestId('mcp-sign-out'))
    expect(calls).toEqual(['in linear', 'cancel linear', 'out linear'])
    expect(useMcp.getState().loaded).toBe(true)
  })

  it('expired offers Sign in again and Sign out; refused says why; a server that never asked shows nothing', () => {
    const { rerender, container } = render(<McpSignInRow s={server('expired')} />)
    expect(screen.getByTestId('mcp-sign-in')).toHaveTextContent('Sign in again')
    expect(screen.getByTestId('mcp-sign-out')).toBeInTheDocument()
    rerender(<McpSignInRow s={server('refused', 'the authorization server refused: access_denied')} />)
    expect(screen.getByTestId('mcp-signin-state')).toHaveTextContent('The sign-in failed: the authorization server refused: access_denied')
    rerender(<McpSignInRow s={server('')} />)
    expect(container).toBeEmptyDOMElement()
  })

  it('the form sends a pre-registered client only for http, and its secret only when typed', () => {
    const d = { ...draftFromConfig({ name: 'x', enabled: true, transport: 'http', url: 'https://a.example/mcp' }), oauthClientId: ' my-client ', oauthClientSecret: 's3cret' }
    const r = configFromDraft(d, null)
    expect('config' in r && r.config).toMatchObject({ oauthClientId: 'my-client', oauthClientSecret: 's3cret' })
    const sse = configFromDraft({ ...d, transport: 'sse' }, null)
    expect('config' in sse && sse.config.oauthClientId).toBeUndefined()
  })
})
