import { describe, expect, it, vi, afterEach } from 'vitest'
import { ApiError, api, events, openExternal, toApiError } from './index'

afterEach(() => {
  delete window.go
  delete window.runtime
})

describe('api wrapper', () => {
  it('turns a JSON rejection into an ApiError with code and message', async () => {
    window.go = { main: { App: { Send: vi.fn().mockRejectedValue('{"code":"busy","message":"Already answering."}') } } }
    const err = await api.send('c1', 'hi').catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('busy')
    expect(err.message).toBe('Already answering.')
  })

  it('falls back to the raw string when the rejection is not JSON', () => {
    const e = toApiError('dial tcp: connection refused')
    expect(e.code).toBe('unknown')
    expect(e.message).toBe('dial tcp: connection refused')
  })

  it('reports a missing backend as an ApiError', async () => {
    const err = await api.listChats().catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('unavailable')
  })

  it('normalises Go nil slices and missing fields', async () => {
    window.go = {
      main: {
        App: {
          ListChats: vi.fn().mockResolvedValue(null),
          ListMessages: vi.fn().mockResolvedValue([{ id: 'm', chatId: 'c', role: 'assistant', status: 'complete' }]),
        },
      },
    }
    expect(await api.listChats()).toEqual([])
    const [m] = await api.listMessages('c')
    expect(m.content).toBe('')
    expect(m.reasoning).toBe('')
    expect(m.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 })
  })

  it('only opens http(s)/mailto URLs externally', () => {
    const open = vi.fn()
    window.runtime = { BrowserOpenURL: open }
    expect(openExternal('javascript:alert(1)')).toBe(false)
    expect(openExternal('file:///etc/passwd')).toBe(false)
    expect(openExternal('https://example.com')).toBe(true)
    expect(open).toHaveBeenCalledTimes(1)
  })

  it('MCP: normalises the server list (Go nil slices and maps) and passes the bindings their arguments', async () => {
    const ListMCPServers = vi.fn().mockResolvedValue({
      servers: [
        { name: 'fs', state: 'ready', tools: 3, problems: null, since: '2026-11-24T10:00:00Z', config: { name: 'fs', enabled: true, command: 'npx', args: null, env: null }, fromEnv: false },
        { name: 'odd', state: 'weird', config: null },
      ],
      envFile: null,
    })
    const SaveMCPServer = vi.fn().mockResolvedValue({ servers: null })
    const SetChatServers = vi.fn().mockResolvedValue({ id: 'c1', title: 't', paradigm: 'json', mcpServers: ['fs'] })
    window.go = { main: { App: { ListMCPServers, SaveMCPServer, SetChatServers } } }
    const list = await api.listMcpServers()
    expect(list.envFile).toBe('')
    expect(list.envError).toBe('')
    expect(list.servers[0]).toMatchObject({ problems: [], restartsOnUse: false, config: { args: [], env: {}, headers: {} } })
    // an unknown state reads as stopped; a missing config as a disabled one of that name
    expect(list.servers[1]).toMatchObject({ state: 'stopped', tools: 0, problems: [], config: { name: 'odd', enabled: false } })
    expect(await api.saveMcpServer('old', { name: 'new', enabled: true })).toEqual({ servers: [], envFile: '', envError: '' })
    expect(SaveMCPServer).toHaveBeenCalledWith('old', { name: 'new', enabled: true })
    expect((await api.setChatServers('c1', false, ['fs'])).mcpServers).toEqual(['fs'])
    expect(SetChatServers).toHaveBeenLastCalledWith('c1', false, ['fs'])
    await api.setChatServers('c1', true, ['fs'])
    expect(SetChatServers).toHaveBeenLastCalledWith('c1', true, [])
  })

  it('a chat without mcpServers offers every enabled server (null); images on calls are normalised', async () => {
    window.go = {
      main: {
        App: {
          ListChats: vi.fn().mockResolvedValue([{ id: 'a' }, { id: 'b', mcpServers: [] }]),
          ListCalls: vi.fn().mockResolvedValue([{ id: 'k', images: [{ mime: 'image/png', data: 'AAAA' }, { mime: 3 }] }, { id: 'j', images: null }]),
        },
      },
    }
    const [a, b] = await api.listChats()
    expect(a.mcpServers).toBeNull()
    expect(b.mcpServers).toEqual([])
    const [k, j] = await api.listCalls('a')
    expect(k.images).toEqual([{ mime: 'image/png', data: 'AAAA' }])
    expect(j.images).toBeUndefined()
  })

  it('RunTool: text, pictures, structured content and a reported failure (a plain string from an older backend still reads)', async () => {
    const RunTool = vi
      .fn()
      .mockResolvedValueOnce({ text: 'ok', images: null, structured: { a: 1 }, isError: true })
      .mockResolvedValueOnce('just text')
      .mockResolvedValueOnce(null)
    window.go = { main: { App: { RunTool } } }
    expect(await api.runTool('c', 't', {})).toEqual({ text: 'ok', images: [], structured: { a: 1 }, isError: true })
    expect(await api.runTool('c', 't', {})).toEqual({ text: 'just text', images: [], isError: false })
    expect(await api.runTool('c', 't', {})).toEqual({ text: '', images: [], isError: false })
  })

  it('MCP import errors keep their code; mcp:changed reaches its listener', async () => {
    window.go = { main: { App: { ImportMCPServers: vi.fn().mockRejectedValue('{"code":"invalid_mcp_config","message":"no mcpServers"}') } } }
    const err = await api.importMcpServers('{}').catch((e) => e)
    expect(err).toMatchObject({ code: 'invalid_mcp_config', message: 'no mcpServers' })
    const handlers: Record<string, (d: unknown) => void> = {}
    window.runtime = { EventsOn: (name, cb) => ((handlers[name] = cb), () => delete handlers[name]) }
    const cb = vi.fn()
    const off = events.onMcpChanged(cb)
    handlers['mcp:changed'](null)
    expect(cb).toHaveBeenCalledTimes(1)
    off()
    expect(handlers['mcp:changed']).toBeUndefined()
  })

  it('tool modes: an old chat without one reads as text, settings default to auto; ModelMode and SetModelMode pass their arguments', async () => {
    const ListChats = vi.fn().mockResolvedValue([{ id: 'a', title: 'old' }, { id: 'b', title: 'new', toolMode: 'native' }])
    const GetSettings = vi.fn().mockResolvedValue({ activeProviderId: 'demo', maxTurns: 3 })
    const ModelMode = vi.fn().mockResolvedValue({ providerId: 'p', model: 'gemma3', learned: 'text', reason: 'HTTP 400', learnedAt: 5 })
    const SetModelMode = vi.fn().mockResolvedValue({ providerId: 'p', model: 'gemma3', learned: '', override: 'native', effective: 'native' })
    window.go = { main: { App: { ListChats, GetSettings, ModelMode, SetModelMode } } }
    expect((await api.listChats()).map((c) => c.toolMode)).toEqual(['text', 'native'])
    expect((await api.getSettings()).toolMode).toBe('auto')
    // a missing effective is worked out the way the backend does: override, learned, else native
    expect(await api.modelMode()).toEqual({ providerId: 'p', model: 'gemma3', learned: 'text', reason: 'HTTP 400', learnedAt: 5, override: '', effective: 'text' })
    expect(await api.setModelMode('native', false)).toMatchObject({ override: 'native', effective: 'native', reason: '', learnedAt: 0 })
    expect(SetModelMode).toHaveBeenCalledWith('', '', '', 'native', false)
    await api.modelMode({ chatId: 'c9', providerId: '', model: '' })
    expect(ModelMode).toHaveBeenLastCalledWith('c9', '', '')
  })

  it('calls:forming reaches its listener normalised (a Go nil list is no calls)', () => {
    const handlers: Record<string, (d: unknown) => void> = {}
    window.runtime = { EventsOn: (name, cb) => ((handlers[name] = cb), () => delete handlers[name]) }
    const cb = vi.fn()
    events.onCallsForming(cb)
    handlers['calls:forming']({ chatId: 'c', messageId: 'm', calls: [{ name: '', arguments: '{"ex', format: 'native' }] })
    handlers['calls:forming']({ chatId: 'c', messageId: 'm', calls: null })
    expect(cb.mock.calls[0][0]).toEqual({ chatId: 'c', messageId: 'm', calls: [{ name: '', arguments: '{"ex', format: 'native', complete: false }] })
    expect(cb.mock.calls[1][0].calls).toEqual([])
  })
})
