import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MASKED, type McpServerConfig, type McpServers } from '../api'
import { resetStore } from '../store'
import { resetMcp } from '../store/mcp'
import { McpServersPanel } from './McpServers'

const info = (config: McpServerConfig) => ({
  name: config.name,
  state: 'ready' as const,
  tools: 1,
  problems: [],
  restartsOnUse: false,
  since: '2026-11-24T10:00:00Z',
  fromEnv: false,
  config,
})

const LIST: McpServers = {
  servers: [
    info({
      name: 'db',
      enabled: true,
      transport: 'stdio',
      command: 'uvx',
      args: ['mcp-server-sqlite', '--db-path', '/home/me/My Data/app.db'],
      env: { TOKEN: MASKED, MODE: MASKED, OLD: MASKED },
      dir: '/srv',
      initTimeout: 30e9,
      listTimeout: 4e9,
    }),
    info({ name: 'remote', enabled: false, transport: 'sse', url: `https://user:${MASKED}@mcp.example.com/sse`, headers: { Authorization: MASKED, 'X-Team': MASKED } }),
  ],
  envFile: '',
  envError: '',
}

type Fn = ReturnType<typeof vi.fn>
let app: Record<string, Fn>

beforeEach(() => {
  resetStore()
  resetMcp()
  app = {
    ListMCPServers: vi.fn(async () => structuredClone(LIST)),
    SaveMCPServer: vi.fn(async () => structuredClone(LIST)),
  }
  window.go = { main: { App: app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
})
afterEach(() => {
  delete window.go
})

const row = (name: string) => screen.getAllByTestId('mcp-server').find((r) => r.dataset.name === name)!
const saved = (): [string, McpServerConfig] => app.SaveMCPServer.mock.calls.at(-1) as [string, McpServerConfig]

async function openForm(name: string | null) {
  const user = userEvent.setup()
  render(<McpServersPanel />)
  await screen.findAllByTestId('mcp-server')
  await user.click(name ? within(row(name)).getByTestId('mcp-edit') : screen.getByTestId('mcp-add'))
  return { user, form: screen.getByTestId('mcp-form') }
}

describe('the MCP server form', () => {
  it('adds a stdio server: arguments one per line with their spaces, env rows, timeout in nanoseconds', async () => {
    const { user, form } = await openForm(null)
    expect(screen.getByTestId('mcp-name')).toHaveFocus()
    await user.type(screen.getByTestId('mcp-name'), 'notes')
    await user.type(screen.getByTestId('mcp-command'), 'node')
    await user.type(screen.getByTestId('mcp-args'), '/opt/My Tools/server.js{Enter}--root{Enter}/home/me/My Notes')
    await user.click(screen.getByTestId('mcp-env-add'))
    expect(screen.getAllByTestId('mcp-env-key')[0]).toHaveFocus()
    await user.keyboard('LOG_LEVEL')
    await user.type(screen.getAllByTestId('mcp-env-value')[0], 'debug info')
    await user.click(screen.getByTestId('mcp-advanced'))
    await user.type(screen.getByTestId('mcp-init-timeout'), '45')
    await user.click(within(form).getByTestId('mcp-save'))
    await waitFor(() => expect(app.SaveMCPServer).toHaveBeenCalledTimes(1))
    expect(saved()).toEqual([
      '',
      {
        name: 'notes',
        enabled: true,
        transport: 'stdio',
        command: 'node',
        args: ['/opt/My Tools/server.js', '--root', '/home/me/My Notes'],
        env: { LOG_LEVEL: 'debug info' },
        initTimeout: 45e9,
      },
    ])
    // back to the list, which says so
    expect(await screen.findByTestId('mcp-saved')).toHaveTextContent('Server saved.')
    expect(screen.queryByTestId('mcp-form')).toBeNull()
  })

  it('edits: hidden values go back as ••• unless changed, a removed row is left out, unchanged fields are kept', async () => {
    const { user } = await openForm('db')
    expect(screen.getByTestId('mcp-name')).toHaveValue('db')
    expect(screen.getByTestId('mcp-args')).toHaveValue('mcp-server-sqlite\n--db-path\n/home/me/My Data/app.db')
    const rows = screen.getAllByTestId('mcp-env-row')
    expect(rows.map((r) => r.dataset.masked)).toEqual(['true', 'true', 'true'])
    const values = screen.getAllByTestId('mcp-env-value')
    // hidden: the field is empty, ••• is only its placeholder
    expect(values[0]).toHaveValue('')
    expect(values[0]).toHaveAttribute('placeholder', expect.stringContaining(MASKED))
    await user.type(values[1], 'fast')
    await user.click(within(rows[2]).getByTestId('mcp-env-remove'))
    await user.click(screen.getByTestId('mcp-save'))
    await waitFor(() => expect(app.SaveMCPServer).toHaveBeenCalledTimes(1))
    expect(saved()).toEqual([
      'db',
      {
        name: 'db',
        enabled: true,
        transport: 'stdio',
        command: 'uvx',
        args: ['mcp-server-sqlite', '--db-path', '/home/me/My Data/app.db'],
        env: { TOKEN: MASKED, MODE: 'fast' },
        dir: '/srv',
        initTimeout: 30e9,
        listTimeout: 4e9,
      },
    ])
  })

  it('renames: the previous name is sent; an SSE server keeps its hidden URL parts and headers', async () => {
    const { user } = await openForm('remote')
    expect(screen.getByTestId('mcp-url')).toHaveValue(`https://user:${MASKED}@mcp.example.com/sse`)
    expect(screen.getAllByTestId('mcp-transport').find((r) => (r as HTMLInputElement).checked)).toHaveAttribute('value', 'sse')
    expect(screen.getByText('Parts shown as ••• are saved secrets: leave them as they are to keep them.')).toBeInTheDocument()
    await user.clear(screen.getByTestId('mcp-name'))
    await user.type(screen.getByTestId('mcp-name'), 'team')
    await user.type(screen.getAllByTestId('mcp-header-value')[1], 'blue')
    await user.click(screen.getByTestId('mcp-save'))
    await waitFor(() => expect(app.SaveMCPServer).toHaveBeenCalledTimes(1))
    expect(saved()).toEqual([
      'remote',
      {
        name: 'team',
        enabled: false,
        transport: 'sse',
        url: `https://user:${MASKED}@mcp.example.com/sse`,
        headers: { Authorization: MASKED, 'X-Team': 'blue' },
      },
    ])
  })

  it('switching to a URL sends only the URL side (no command, args or env)', async () => {
    const { user } = await openForm('db')
    await user.click(screen.getAllByTestId('mcp-transport').find((r) => (r as HTMLInputElement).value === 'http')!)
    expect(screen.queryByTestId('mcp-command')).toBeNull()
    await user.type(screen.getByTestId('mcp-url'), 'http://localhost:3001/mcp')
    await user.click(screen.getByTestId('mcp-save'))
    await waitFor(() => expect(app.SaveMCPServer).toHaveBeenCalledTimes(1))
    const [, cfg] = saved()
    expect(cfg).toEqual({ name: 'db', enabled: true, transport: 'http', url: 'http://localhost:3001/mcp', headers: {}, initTimeout: 30e9, listTimeout: 4e9 })
  })

  it('a hidden value renamed must be typed again (caught before saving)', async () => {
    const { user } = await openForm('db')
    const key = screen.getAllByTestId('mcp-env-key')[0]
    await user.clear(key)
    await user.type(key, 'API_TOKEN')
    // the row no longer keeps a saved value
    expect(screen.getAllByTestId('mcp-env-row')[0]).not.toHaveAttribute('data-masked')
    await user.click(screen.getByTestId('mcp-save'))
    expect(screen.getByTestId('mcp-form-error')).toHaveTextContent('Type the value of “API_TOKEN” again')
    expect(app.SaveMCPServer).not.toHaveBeenCalled()
  })

  it('local checks: a command is needed; nothing is sent', async () => {
    const { user } = await openForm(null)
    await user.type(screen.getByTestId('mcp-name'), 'x')
    await user.click(screen.getByTestId('mcp-save'))
    expect(screen.getByTestId('mcp-form-error')).toHaveTextContent('Enter the command to start.')
    await waitFor(() => expect(screen.getByTestId('mcp-command')).toHaveFocus())
    expect(screen.getByTestId('mcp-command')).toHaveAttribute('aria-invalid', 'true')
    expect(app.SaveMCPServer).not.toHaveBeenCalled()
  })

  it('the backend’s rejection shows beside the form, and marks the field it names', async () => {
    app.SaveMCPServer.mockRejectedValueOnce(JSON.stringify({ code: 'invalid_mcp_server', message: 'command: "nodez" was not found on PATH' }))
    app.SaveMCPServer.mockRejectedValueOnce(JSON.stringify({ code: 'duplicate_server', message: 'there is already a server called remote' }))
    const { user } = await openForm(null)
    await user.type(screen.getByTestId('mcp-name'), 'remote')
    await user.type(screen.getByTestId('mcp-command'), 'nodez')
    await user.click(screen.getByTestId('mcp-save'))
    const error = await screen.findByTestId('mcp-form-error')
    expect(error).toHaveTextContent('command: "nodez" was not found on PATH')
    expect(error).toHaveTextContent('invalid_mcp_server')
    expect(screen.getByTestId('mcp-command')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByTestId('mcp-command')).toHaveAttribute('aria-describedby', expect.stringContaining(error.id))
    expect(screen.getByTestId('mcp-name')).not.toHaveAttribute('aria-invalid')
    // still on the form
    expect(screen.getByTestId('mcp-form')).toBeInTheDocument()
    await user.click(screen.getByTestId('mcp-save'))
    await waitFor(() => expect(screen.getByTestId('mcp-form-error')).toHaveTextContent('there is already a server called remote'))
    expect(screen.getByTestId('mcp-name')).toHaveAttribute('aria-invalid', 'true')
  })

  it('Cancel goes back without saving', async () => {
    const { user } = await openForm('db')
    await user.type(screen.getByTestId('mcp-command'), 'zzz')
    await user.click(screen.getByTestId('mcp-cancel'))
    expect(screen.queryByTestId('mcp-form')).toBeNull()
    expect(screen.getAllByTestId('mcp-server')).toHaveLength(2)
    expect(app.SaveMCPServer).not.toHaveBeenCalled()
  })
})
