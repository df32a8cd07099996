import { describe, expect, it } from 'vitest'
import { MASKED, type McpServerConfig, type ToolSpec } from '../api'
import { configFromDraft, configSummary, draftFromConfig, fieldOfError, imageSrc, mcpServerOf, splitArgs, transportOf } from './mcp'

const TOOLS: ToolSpec[] = [
  { name: 'calculate', description: '', kind: 'builtin' },
  { name: 'mcp__fs__read', description: '', kind: 'mcp', server: 'fs' },
  // a server whose name has underscores: the list knows better than the name
  { name: 'mcp__my__db__query', description: '', kind: 'mcp', server: 'my__db' },
]

describe('mcpServerOf', () => {
  it('takes the server from the tools list, else from the mcp__<server>__ prefix', () => {
    expect(mcpServerOf('calculate', TOOLS)).toBeNull()
    expect(mcpServerOf('mcp__fs__read', TOOLS)).toBe('fs')
    expect(mcpServerOf('mcp__my__db__query', TOOLS)).toBe('my__db')
    // gone from the list (server removed or stopped): the name still says it is MCP
    expect(mcpServerOf('mcp__github__search', TOOLS)).toBe('github')
    expect(mcpServerOf('mcp__github__search', [])).toBe('github')
    expect(mcpServerOf('read_file', [])).toBeNull()
    expect(mcpServerOf('mcp__', [])).toBeNull()
    expect(mcpServerOf('mcp__x__', [])).toBeNull()
  })
})

describe('imageSrc', () => {
  it('makes data URLs for raster pictures only', () => {
    expect(imageSrc({ mime: 'image/png', data: 'iVBORw0KGgo=' })).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(imageSrc({ mime: 'IMAGE/JPEG', data: '/9j/4AAQ' })).toBe('data:image/jpeg;base64,/9j/4AAQ')
    expect(imageSrc({ mime: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' })).toBeNull()
    expect(imageSrc({ mime: 'text/html', data: 'PGI+' })).toBeNull()
    // not base64: nothing is put in the URL
    expect(imageSrc({ mime: 'image/png', data: 'abc");alert(1)//' })).toBeNull()
    expect(imageSrc({ mime: 'image/png', data: '' })).toBeNull()
  })
})

describe('the server form draft', () => {
  const saved: McpServerConfig = {
    name: 'db',
    enabled: false,
    command: 'uvx',
    args: ['mcp-server-sqlite', '--db-path', '/home/me/My Data/app.db'],
    env: { TOKEN: MASKED, MODE: MASKED, OLD: MASKED },
    initTimeout: 45e9,
    listTimeout: 5e9,
  }

  it('reads a config: transport guessed, hidden values as masked rows, timeout in seconds', () => {
    const d = draftFromConfig(saved)
    expect(d.transport).toBe('stdio')
    expect(d.argsText).toBe('mcp-server-sqlite\n--db-path\n/home/me/My Data/app.db')
    expect(d.env.map((r) => [r.key, r.value, r.masked])).toEqual([
      ['TOKEN', '', true],
      ['MODE', '', true],
      ['OLD', '', true],
    ])
    expect(d.initTimeout).toBe('45')
    expect(transportOf({ name: 'x', enabled: true, url: 'https://x' })).toBe('http')
    expect(draftFromConfig(null)).toMatchObject({ name: '', transport: 'stdio', env: [], headers: [] })
  })

  it('writes it back: untouched secrets as •••, a typed one replaces, a removed row is gone, kept fields kept', () => {
    const d = draftFromConfig(saved)
    d.env = d.env.filter((r) => r.key !== 'OLD')
    d.env[1] = { ...d.env[1], value: 'fast' }
    const r = configFromDraft(d, saved)
    expect(r).toEqual({
      config: {
        name: 'db',
        enabled: false,
        transport: 'stdio',
        command: 'uvx',
        args: ['mcp-server-sqlite', '--db-path', '/home/me/My Data/app.db'],
        env: { TOKEN: MASKED, MODE: 'fast' },
        initTimeout: 45e9,
        listTimeout: 5e9,
      },
    })
  })

  it('arguments: one per line, spaces kept inside; untouched ones are sent back exactly', () => {
    expect(splitArgs('-y\n  @scope/server  \n\n--root=/home/me/My Projects\r\n')).toEqual(['-y', '@scope/server', '--root=/home/me/My Projects'])
    const odd: McpServerConfig = { name: 'odd', enabled: true, command: 'x', args: ['', 'a\nb'] }
    const d = draftFromConfig(odd)
    expect(configFromDraft(d, odd)).toMatchObject({ config: { args: ['', 'a\nb'] } })
    d.argsText = 'one two\nthree'
    d.argsTouched = true
    expect(configFromDraft(d, odd)).toMatchObject({ config: { args: ['one two', 'three'] } })
  })

  it('a hidden value stays with its name: renaming the row asks for the value again', () => {
    const d = draftFromConfig(saved)
    d.env[0] = { ...d.env[0], key: 'API_TOKEN' }
    expect(configFromDraft(d, saved)).toEqual({ error: { field: 'env', key: 'maskedRenamed', vars: { key: 'API_TOKEN' } } })
    d.env[0] = { ...d.env[0], value: 'typed' }
    expect(configFromDraft(d, saved)).toMatchObject({ config: { env: { API_TOKEN: 'typed', MODE: MASKED, OLD: MASKED } } })
  })

  it('finds problems before saving', () => {
    const d = draftFromConfig(null)
    expect(configFromDraft(d, null)).toEqual({ error: { field: 'name', key: 'nameRequired' } })
    d.name = 'x'
    expect(configFromDraft(d, null)).toEqual({ error: { field: 'command', key: 'commandRequired' } })
    d.transport = 'http'
    expect(configFromDraft(d, null)).toEqual({ error: { field: 'url', key: 'urlRequired' } })
    d.url = 'ftp://x'
    expect(configFromDraft(d, null)).toEqual({ error: { field: 'url', key: 'urlScheme' } })
    d.url = 'https://mcp.example.com/mcp?key=' + MASKED
    d.headers = [{ id: 1, key: 'A', value: '1', masked: false, origKey: '' }, { id: 2, key: 'A', value: '2', masked: false, origKey: '' }]
    expect(configFromDraft(d, null)).toEqual({ error: { field: 'headers', key: 'duplicateKey', vars: { key: 'A' } } })
    d.headers = [{ id: 1, key: '', value: 'v', masked: false, origKey: '' }, { id: 2, key: '', value: '', masked: false, origKey: '' }]
    expect(configFromDraft(d, null)).toEqual({ error: { field: 'headers', key: 'keyRequired' } })
    d.headers = []
    d.initTimeout = 'soon'
    expect(configFromDraft(d, null)).toEqual({ error: { field: 'initTimeout', key: 'timeout' } })
    d.initTimeout = '2.5'
    // a new server is enabled; the url's hidden parts go back as they are
    expect(configFromDraft(d, null)).toEqual({
      config: { name: 'x', enabled: true, transport: 'http', url: 'https://mcp.example.com/mcp?key=' + MASKED, headers: {}, initTimeout: 2.5e9 },
    })
  })

  it('an env var named like a result field is just a variable', () => {
    const d = draftFromConfig({ name: 'x', enabled: true, command: 'c', env: { error: '1', field: '2' } })
    d.env = d.env.map((r) => ({ ...r, value: r.key === 'error' ? 'a' : 'b' }))
    expect(configFromDraft(d, null)).toMatchObject({ config: { env: { error: 'a', field: 'b' } } })
  })
})

describe('configSummary and fieldOfError', () => {
  it('summarises a command line with quoted arguments, or the URL', () => {
    expect(configSummary({ name: 'a', enabled: true, command: 'npx', args: ['-y', '@x/server', 'My Docs'] })).toBe('npx -y @x/server "My Docs"')
    expect(configSummary({ name: 'a', enabled: true, transport: 'sse', url: 'https://x/sse' })).toBe('https://x/sse')
  })

  it('finds the field a backend message names first', () => {
    expect(fieldOfError('invalid_mcp_server', 'command: "npz" is not on PATH')).toBe('command')
    expect(fieldOfError('invalid_mcp_server', 'url must start with http:// or https://')).toBe('url')
    expect(fieldOfError('invalid_mcp_server', 'env: "A B" is not a valid name')).toBe('env')
    expect(fieldOfError('duplicate_server', 'there is already a server called fs')).toBe('name')
    expect(fieldOfError('unknown', 'something else went wrong')).toBeNull()
  })
})
