import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { McpServerInfo, McpServers } from '../api'
import { resetStore } from '../store'
import { resetMcp } from '../store/mcp'
import { McpServersPanel } from './McpServers'

const server = (over: Partial<McpServerInfo>): McpServerInfo => ({
  name: 'docs',
  state: 'ready',
  tools: 1,
  problems: [],
  restartsOnUse: false,
  since: '2026-11-24T10:00:00Z',
  fromEnv: false,
  config: { name: 'docs', enabled: true, transport: 'stdio', command: 'docs-server', args: [], env: {}, headers: {} },
  ...over,
})

const list = (on: boolean): McpServers => ({
  servers: [server({ instructions: 'Search before answering.', instructionsCut: true, instructionsOn: on }), server({ name: 'plain', config: { name: 'plain', enabled: true, command: 'x' } })],
  envFile: '',
  envError: '',
})

describe('Settings ▸ MCP: a server’s instructions', () => {
  let set: ReturnType<typeof vi.fn>
  beforeEach(() => {
    resetStore()
    resetMcp()
    set = vi.fn(async (_name: string, on: boolean) => list(on))
    window.go = { main: { App: { ListMCPServers: vi.fn(async () => list(true)), SetMCPInstructions: set } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
  })
  afterEach(() => {
    delete window.go
  })

  it('shows them on demand, says they were cut, and switches them off', async () => {
    render(<McpServersPanel />)
    const rows = await screen.findAllByTestId('mcp-server')
    const docs = rows.find((r) => r.dataset.name === 'docs')!
    const plain = rows.find((r) => r.dataset.name === 'plain')!
    expect(within(plain).queryByTestId('mcp-instructions')).toBeNull()
    const sw = within(docs).getByTestId('mcp-instructions-switch')
    expect(sw).toHaveAttribute('aria-checked', 'true')
    expect(within(docs).queryByTestId('mcp-instructions-text')).toBeNull()
    await userEvent.click(within(docs).getByTestId('mcp-instructions-toggle'))
    expect(within(docs).getByTestId('mcp-instructions-text')).toHaveTextContent('Search before answering.')
    expect(docs).toHaveTextContent('Cut at 8 KB')
    await userEvent.click(sw)
    expect(set).toHaveBeenCalledWith('docs', false)
    expect(await within(docs).findByTestId('mcp-instructions-switch')).toHaveAttribute('aria-checked', 'false')
  })
})
