import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MASKED, type McpServerInfo, type McpServers } from '../api'
import { resetStore, useStore } from '../store'
import { resetMcp } from '../store/mcp'
import { McpServersPanel } from './McpServers'

const server = (over: Partial<McpServerInfo> & { name: string }): McpServerInfo => ({
  state: 'ready',
  tools: 0,
  problems: [],
  restartsOnUse: false,
  since: '2026-11-24T10:00:00Z',
  fromEnv: false,
  config: { name: over.name, enabled: true, transport: 'stdio', command: 'npx', args: [], env: {}, headers: {} },
  ...over,
})

const LIST: McpServers = {
  servers: [
    server({
      name: 'everything',
      tools: 2,
      serverName: 'example-servers/everything',
      serverVersion: '1.0.0',
      problems: ['left out "sampleLLM": bad schema'],
      config: {
        name: 'everything',
        enabled: true,
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything'],
        env: { TOKEN: MASKED, MODE: MASKED, OLD: MASKED },
      },
    }),
    server({
      name: 'sqlite',
      state: 'failed',
      reason: 'exited while starting: exit status 1',
      stderr: 'Traceback (most recent call last):\nsqlite3.OperationalError: unable to open database file',
      config: { name: 'sqlite', enabled: true, command: 'uvx', args: ['mcp-server-sqlite', '--db-path', '/home/me/My Data/app.db'] },
    }),
    server({ name: 'slow', state: 'starting' }),
    server({ name: 'off', state: 'stopped', reason: 'disabled', config: { name: 'off', enabled: false, command: 'off-server' } }),
    server({
      name: 'github',
      state: 'stopped',
      reason: 'the connection closed unexpectedly',
      restartsOnUse: true,
      fromEnv: true,
      tools: 1,
      config: { name: 'github', enabled: true, transport: 'http', url: `https://api.example.com/mcp?token=${MASKED}`, headers: { Authorization: MASKED } },
    }),
  ],
  envFile: '/home/me/.config/airlock/mcp.json',
  envError: '',
}

type Fn = ReturnType<typeof vi.fn>
let app: Record<string, Fn>
const err = (code: string, message: string) => JSON.stringify({ code, message })

function install(list: McpServers = LIST, over: Record<string, Fn> = {}) {
  app = {
    ListMCPServers: vi.fn(async () => structuredClone(list)),
    SaveMCPServer: vi.fn(async () => structuredClone(list)),
    SetMCPServerEnabled: vi.fn(async () => structuredClone(list)),
    DeleteMCPServer: vi.fn(async () => ({ ...structuredClone(list), servers: list.servers.slice(1) })),
    RestartMCPServer: vi.fn(async () => structuredClone(list)),
    ImportMCPServers: vi.fn(async () => ({ added: [], skipped: [] })),
    ImportMCPFile: vi.fn(async () => ({ added: [], skipped: [] })),
    ...over,
  }
  window.go = { main: { App: app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

const row = (name: string) => screen.getAllByTestId('mcp-server').find((r) => r.dataset.name === name)!

async function showList() {
  render(<McpServersPanel />)
  await screen.findAllByTestId('mcp-server')
}

describe('Settings ▸ Tools: the MCP servers', () => {
  beforeEach(() => {
    resetStore()
    resetMcp()
    install()
  })
  afterEach(() => {
    delete window.go
  })

  it('lists every server with its state, reason, warnings and tags', async () => {
    await showList()
    expect(screen.getAllByTestId('mcp-server').map((r) => `${r.dataset.name}:${r.dataset.state}`)).toEqual([
      'everything:ready',
      'sqlite:failed',
      'slow:starting',
      'off:stopped',
      'github:stopped',
    ])
    const ready = row('everything')
    expect(within(ready).getByTestId('mcp-status')).toHaveTextContent('Ready · 2 tools')
    expect(ready).toHaveTextContent('npx -y @modelcontextprotocol/server-everything')
    expect(within(ready).getByTestId('mcp-reports')).toHaveTextContent('example-servers/everything 1.0.0')
    expect(within(ready).getByTestId('mcp-problems')).toHaveTextContent('1 warning')
    expect(within(ready).getByTestId('mcp-problems')).toHaveTextContent('left out "sampleLLM": bad schema')
    expect(within(ready).queryByTestId('mcp-reason')).toBeNull()

    // an argument with a space is shown quoted
    expect(row('sqlite')).toHaveTextContent('uvx mcp-server-sqlite --db-path "/home/me/My Data/app.db"')
    expect(within(row('sqlite')).getByTestId('mcp-status')).toHaveTextContent('Failed')
    expect(within(row('sqlite')).getByTestId('mcp-reason')).toHaveTextContent('exited while starting: exit status 1')

    const starting = within(row('slow')).getByTestId('mcp-status')
    expect(starting).toHaveTextContent('Starting…')
    expect(starting.querySelector('.spinner')).not.toBeNull()

    expect(within(row('off')).getByTestId('mcp-status')).toHaveTextContent('Disabled')
    expect(within(row('off')).getByTestId('mcp-enable')).toHaveAttribute('aria-checked', 'false')
    expect(within(row('off')).getByTestId('mcp-restart')).toBeDisabled()

    // from the AIRLOCK_MCP_CONFIG file: Restart only
    const env = row('github')
    expect(within(env).getByTestId('mcp-from-env')).toHaveTextContent('from AIRLOCK_MCP_CONFIG')
    expect(within(env).queryByTestId('mcp-enable')).toBeNull()
    expect(within(env).queryByTestId('mcp-edit')).toBeNull()
    expect(within(env).queryByTestId('mcp-remove')).toBeNull()
    expect(within(env).getByTestId('mcp-restart')).toBeEnabled()
    expect(within(env).getByTestId('mcp-restarts-on-use')).toHaveTextContent('Stopped unexpectedly; restarts on next use.')
    expect(within(env).getByTestId('mcp-status')).toHaveTextContent('Stopped')
    expect(screen.getByTestId('mcp-env-file')).toHaveTextContent('/home/me/.config/airlock/mcp.json')
    expect(screen.queryByTestId('mcp-env-error')).toBeNull()
  })

  it('a failed server’s output opens on demand, scrollable and monospace', async () => {
    const user = userEvent.setup()
    await showList()
    const failed = row('sqlite')
    expect(within(failed).queryByTestId('mcp-stderr')).toBeNull()
    const toggle = within(failed).getByTestId('mcp-stderr-toggle')
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const out = within(failed).getByTestId('mcp-stderr')
    expect(out.tagName).toBe('PRE')
    expect(out).toHaveTextContent('sqlite3.OperationalError: unable to open database file')
    expect(toggle).toHaveAttribute('aria-controls', out.id)
    // only servers that kept an output have the toggle
    expect(within(row('everything')).queryByTestId('mcp-stderr-toggle')).toBeNull()
  })

  it('shows why the AIRLOCK_MCP_CONFIG file could not be used', async () => {
    install({ ...LIST, envError: 'line 7: "args" must be a list' })
    await showList()
    expect(screen.getByTestId('mcp-env-error')).toHaveTextContent('The AIRLOCK_MCP_CONFIG file could not be used: line 7: "args" must be a list')
    expect(screen.getByTestId('mcp-env-error')).toHaveAttribute('role', 'alert')
  })

  it('the switch, Restart and Remove (after confirming) call the backend', async () => {
    const user = userEvent.setup()
    await showList()
    await user.click(within(row('everything')).getByTestId('mcp-enable'))
    expect(app.SetMCPServerEnabled).toHaveBeenCalledWith('everything', false)
    await user.click(within(row('off')).getByTestId('mcp-enable'))
    expect(app.SetMCPServerEnabled).toHaveBeenLastCalledWith('off', true)

    await user.click(within(row('github')).getByTestId('mcp-restart'))
    expect(app.RestartMCPServer).toHaveBeenCalledWith('github')

    await user.click(within(row('sqlite')).getByTestId('mcp-remove'))
    expect(app.DeleteMCPServer).not.toHaveBeenCalled()
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('“sqlite” will be removed')
    await user.click(within(dialog).getByTestId('mcp-remove-confirm'))
    expect(app.DeleteMCPServer).toHaveBeenCalledWith('sqlite')
    // the reply is the new list
    await waitFor(() => expect(screen.getAllByTestId('mcp-server')).toHaveLength(4))
  })

  it('a restart that fails reloads the list (the row says why) without a toast; another error is toasted', async () => {
    const user = userEvent.setup()
    const failedNow = { ...LIST, servers: LIST.servers.map((s) => (s.name === 'everything' ? { ...s, state: 'failed' as const, reason: 'handshake timed out' } : s)) }
    install(LIST, { RestartMCPServer: vi.fn().mockRejectedValueOnce(err('mcp_failed', 'handshake timed out')).mockRejectedValueOnce(err('busy', 'try later')) })
    await showList()
    app.ListMCPServers.mockResolvedValue(structuredClone(failedNow))
    const restart = within(row('everything')).getByTestId('mcp-restart')
    await user.click(restart)
    await waitFor(() => expect(row('everything')).toHaveAttribute('data-state', 'failed'))
    expect(within(row('everything')).getByTestId('mcp-reason')).toHaveTextContent('handshake timed out')
    expect(useStore.getState().toasts).toHaveLength(0)

    await user.click(within(row('everything')).getByTestId('mcp-restart'))
    await waitFor(() => expect(useStore.getState().toasts).toHaveLength(1))
    expect(useStore.getState().toasts[0]).toMatchObject({ title: 'errors.mcpRestart', message: 'try later', code: 'busy' })
  })

  it('empty: explains MCP, shows an example, says calls still need approval; the example opens in Import', async () => {
    const user = userEvent.setup()
    install({ servers: [], envFile: '', envError: '' })
    render(<McpServersPanel />)
    const empty = await screen.findByTestId('mcp-empty')
    expect(empty).toHaveTextContent('No MCP servers yet')
    expect(empty).toHaveTextContent('Every MCP call still waits on a card for your approval.')
    expect(JSON.parse(within(empty).getByTestId('mcp-example').textContent!)).toEqual({
      mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } },
    })
    await user.click(within(empty).getByTestId('mcp-use-example'))
    const box = (await screen.findByTestId('mcp-import-text')) as HTMLTextAreaElement
    expect(JSON.parse(box.value).mcpServers.everything.command).toBe('npx')
  })
})

describe('Settings ▸ Tools: import', () => {
  beforeEach(() => {
    resetStore()
    resetMcp()
  })
  afterEach(() => {
    delete window.go
  })

  it('pasted JSON: shows the servers added and the ones skipped, with why', async () => {
    const user = userEvent.setup()
    install(LIST, { ImportMCPServers: vi.fn(async () => ({ added: ['fetch', 'git'], skipped: ['everything: the name is taken'] })) })
    await showList()
    await user.click(screen.getByTestId('mcp-import-open'))
    const dialog = screen.getByTestId('mcp-import-dialog')
    expect(within(dialog).getByTestId('mcp-import')).toBeDisabled()
    await user.click(within(dialog).getByTestId('mcp-import-text'))
    await user.paste('{"mcpServers":{"fetch":{"command":"uvx","args":["mcp-server-fetch"]}}}')
    await user.click(within(dialog).getByTestId('mcp-import'))
    expect(app.ImportMCPServers).toHaveBeenCalledWith('{"mcpServers":{"fetch":{"command":"uvx","args":["mcp-server-fetch"]}}}')
    expect(await within(dialog).findByTestId('mcp-import-added')).toHaveTextContent('Added 2 servers: fetch, git')
    expect(within(dialog).getByTestId('mcp-import-skipped')).toHaveTextContent('everything: the name is taken')
    // the list is read again
    await waitFor(() => expect(app.ListMCPServers).toHaveBeenCalledTimes(2))
  })

  it('a parse error says what is wrong; nothing added says so', async () => {
    const user = userEvent.setup()
    install(LIST, {
      ImportMCPServers: vi
        .fn()
        .mockRejectedValueOnce(err('invalid_mcp_config', 'there is no "mcpServers" object'))
        .mockResolvedValueOnce({ added: null, skipped: ['everything: the name is taken'] }),
    })
    await showList()
    await user.click(screen.getByTestId('mcp-import-open'))
    await user.click(screen.getByTestId('mcp-import-text'))
    await user.paste('{"servers": []}')
    await user.click(screen.getByTestId('mcp-import'))
    const error = await screen.findByTestId('mcp-import-error')
    expect(error).toHaveTextContent('Nothing was imported · there is no "mcpServers" object')
    expect(error).toHaveTextContent('invalid_mcp_config')
    expect(screen.getByTestId('mcp-import-text')).toHaveAttribute('aria-invalid', 'true')
    await user.click(screen.getByTestId('mcp-import'))
    expect(await screen.findByTestId('mcp-import-added')).toHaveTextContent('No server was added.')
    expect(screen.queryByTestId('mcp-import-error')).toBeNull()
  })

  it('Choose file…: a cancelled dialog says nothing; a chosen file shows its result', async () => {
    const user = userEvent.setup()
    install(LIST, {
      ImportMCPFile: vi.fn().mockResolvedValueOnce({ added: [], skipped: [] }).mockResolvedValueOnce({ added: ['notes'], skipped: [] }),
    })
    await showList()
    await user.click(screen.getByTestId('mcp-import-open'))
    await user.click(screen.getByTestId('mcp-import-file'))
    expect(app.ImportMCPFile).toHaveBeenCalledTimes(1)
    expect(screen.queryByTestId('mcp-import-added')).toBeNull()
    await user.click(screen.getByTestId('mcp-import-file'))
    expect(await screen.findByTestId('mcp-import-added')).toHaveTextContent('Added 1 server: notes')
  })
})
