// Fake MCP servers for the preview and component tests (never in the
// production bundle). Mirrors the Go contract: configs with secrets kept
// here and redacted on the way out ("•••"), states that change over time
// with an "mcp:changed" event, tools named mcp__<server>__<tool>.
import { MASKED } from '../src/api'
import type { Chat, McpImport, McpServerConfig, McpServerInfo, McpServers, McpState, RunOutput, ToolSpec } from '../src/api'
import { apiErr, clone } from './fake-common'

export type FakeMcpSetup = 'default' | 'none' | 'env'

type Server = {
  cfg: McpServerConfig
  state: McpState
  reason?: string
  stderr?: string
  problems: string[]
  restartsOnUse: boolean
  serverName?: string
  serverVersion?: string
  since: string
  fromEnv: boolean
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/

/** A 24×24 PNG: a teal square with a light cross. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAfklEQVR42mN49us7EPG3VpGNICYwQCiyzYJrZ0DmkG0KkM2AKUSGKQiDSDULUzEDfmkiTUE3iBizcClgIF4pfikG4q3F71gGIr1A0MsMxAQqMZHAQGQEEYxKuhhEHa9RJ7CpE/3USZDUySLUybTUKUaoU7BRp6ilWuFPreoIAH67UnaFkUPaAAAAAElFTkSuQmCC'

const SQLITE_STDERR = `Installed 12 packages in 31ms
Traceback (most recent call last):
  File "/home/mara/.cache/uv/archive-v0/mcp_server_sqlite/server.py", line 391, in main
    db = SqliteDatabase(db_path)
  File "/home/mara/.cache/uv/archive-v0/mcp_server_sqlite/server.py", line 118, in __init__
    self._init_database()
  File "/home/mara/.cache/uv/archive-v0/mcp_server_sqlite/server.py", line 124, in _init_database
    with closing(sqlite3.connect(self.db_path)) as conn:
sqlite3.OperationalError: unable to open database file
`

/** The tools a fake server offers once ready (by what it runs). */
function toolsOf(s: Server): ToolSpec[] {
  const name = s.cfg.name
  const line = [s.cfg.command ?? '', ...(s.cfg.args ?? []), s.cfg.url ?? ''].join(' ')
  const spec = (tool: string, description: string, parameters: unknown): ToolSpec => ({
    name: `mcp__${name}__${tool}`,
    kind: 'mcp',
    server: name,
    description,
    parameters,
  })
  if (line.includes('server-everything'))
    return [
      spec('echo', 'Echoes back the input.', {
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
      }),
      spec('tiny_image', 'Returns a tiny picture.', { type: 'object', properties: {} }),
    ]
  if (line.includes('github')) return [spec('search_issues', 'Search issues and pull requests.', { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] })]
  return [spec('ping', 'Answers pong.', { type: 'object', properties: {} })]
}

/** Secrets out: env and header values, and a URL's password and query values. */
function redact(cfg: McpServerConfig): McpServerConfig {
  const out = clone(cfg)
  const mask = (m?: Record<string, string>) => (m ? Object.fromEntries(Object.keys(m).map((k) => [k, MASKED])) : m)
  out.env = mask(cfg.env)
  out.headers = mask(cfg.headers)
  if (cfg.url) out.url = redactUrl(cfg.url)
  return out
}
const redactUrl = (u: string) => u.replace(/(:\/\/[^:/@]+:)[^@/]+@/, `$1${MASKED}@`).replace(/([?&][^=&#]+=)[^&#]*/g, `$1${MASKED}`)

/** Secrets back in: "•••" keeps the saved value, another value replaces it, a missing key is removed. */
function restore(next: Record<string, string> | undefined, saved: Record<string, string> | undefined, field: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(next ?? {})) {
    if (v !== MASKED) out[k] = v
    else if (saved && k in saved) out[k] = saved[k]
    else throw apiErr('invalid_mcp_server', `${field}: "${k}" has no saved value; type it`)
  }
  return out
}

export function createFakeMcp(opts: { emit: (name: string, data: unknown) => void; chats: Chat[]; setup?: FakeMcpSetup; startMs?: number }) {
  const startMs = opts.startMs ?? 700
  const now = () => new Date().toISOString()
  const servers: Server[] = []
  let envFile = ''
  let envError = ''
  const timers = new Map<string, number>()

  if (opts.setup !== 'none') {
    servers.push(
      {
        cfg: {
          name: 'everything',
          enabled: true,
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-everything'],
          env: { EVERYTHING_TOKEN: 'tok-123' },
        },
        state: 'ready',
        problems: ['left out "sampleLLM": its input schema is not an object'],
        restartsOnUse: false,
        serverName: 'example-servers/everything',
        serverVersion: '1.0.0',
        since: now(),
        fromEnv: false,
      },
      {
        cfg: {
          name: 'sqlite',
          enabled: true,
          transport: 'stdio',
          command: 'uvx',
          args: ['mcp-server-sqlite', '--db-path', '/home/mara/My Data/app.db'],
        },
        state: 'failed',
        reason: 'exited while starting: exit status 1',
        stderr: SQLITE_STDERR,
        problems: [],
        restartsOnUse: false,
        since: now(),
        fromEnv: false,
      },
    )
  }
  if (opts.setup === 'env') {
    envFile = '/home/mara/.config/airlock/mcp.json'
    servers.push({
      cfg: {
        name: 'github',
        enabled: true,
        transport: 'http',
        url: 'https://api.githubcopilot.com/mcp/?token=ghp_secret',
        headers: { Authorization: 'Bearer ghp_secret' },
      },
      state: 'stopped',
      reason: 'the connection closed unexpectedly',
      problems: [],
      restartsOnUse: true,
      since: now(),
      fromEnv: true,
    })
  }

  const find = (name: string) => servers.find((s) => s.cfg.name === name)
  const must = (name: string) => {
    const s = find(name)
    if (!s) throw apiErr('not_found', `There is no MCP server named "${name}".`)
    return s
  }
  const fails = (s: Server) => [s.cfg.command ?? '', ...(s.cfg.args ?? []), s.cfg.url ?? ''].join(' ').match(/sqlite|fail/)
  const changed = () => opts.emit('mcp:changed', null)
  const setState = (s: Server, state: McpState, reason?: string) => {
    s.state = state
    s.reason = reason
    s.since = now()
    if (state !== 'failed') s.stderr = undefined
    if (state === 'ready') s.restartsOnUse = false
  }

  /** Starts a server: "starting" now, ready or failed a moment later (each with mcp:changed). */
  const start = (s: Server): Promise<void> => {
    const prev = timers.get(s.cfg.name)
    if (prev) window.clearTimeout(prev)
    setState(s, 'starting')
    changed()
    return new Promise((resolve) => {
      const timer = window.setTimeout(() => {
        timers.delete(s.cfg.name)
        if (fails(s)) {
          setState(s, 'failed', 'exited while starting: exit status 1')
          s.stderr = SQLITE_STDERR
        } else {
          setState(s, 'ready')
          s.serverName = s.serverName ?? `fake/${s.cfg.name}`
          s.serverVersion = s.serverVersion ?? '0.1.0'
        }
        changed()
        resolve()
      }, startMs)
      timers.set(s.cfg.name, timer)
    })
  }
  const stop = (s: Server, reason: string) => {
    const prev = timers.get(s.cfg.name)
    if (prev) window.clearTimeout(prev)
    timers.delete(s.cfg.name)
    setState(s, 'stopped', reason)
    changed()
  }

  const info = (s: Server): McpServerInfo => ({
    name: s.cfg.name,
    state: s.state,
    tools: s.state === 'ready' || s.restartsOnUse ? toolsOf(s).length : 0,
    reason: s.reason,
    stderr: s.stderr,
    problems: [...s.problems],
    restartsOnUse: s.restartsOnUse,
    serverName: s.serverName,
    serverVersion: s.serverVersion,
    since: s.since,
    config: redact(s.cfg),
    fromEnv: s.fromEnv,
  })
  const list = (): McpServers => clone({ servers: servers.map(info), envFile, envError })

  /** The tools offered: ready (or restart-on-use) enabled servers, optionally only a chat's choice. */
  const tools = (only?: string[] | null): ToolSpec[] =>
    servers
      .filter((s) => s.cfg.enabled && (s.state === 'ready' || s.restartsOnUse) && (!only || only.includes(s.cfg.name)))
      .flatMap(toolsOf)

  const check = (cfg: McpServerConfig) => {
    if (!NAME.test(cfg.name ?? '')) throw apiErr('invalid_mcp_server', `name: use letters, digits, - and _ only (got "${cfg.name ?? ''}")`)
    const transport = cfg.transport || (cfg.url && !cfg.command ? 'http' : 'stdio')
    if (transport === 'stdio' && !cfg.command?.trim()) throw apiErr('invalid_mcp_server', 'command: a stdio server needs a command')
    if (transport !== 'stdio' && !/^https?:\/\//.test(cfg.url ?? '')) throw apiErr('invalid_mcp_server', 'url: must start with http:// or https://')
    if ((cfg.initTimeout ?? 0) < 0) throw apiErr('invalid_mcp_server', 'initTimeout: must not be negative')
    return transport
  }

  const bindings = {
    ListMCPServers: async () => list(),
    SaveMCPServer: async (previous: string, cfg: McpServerConfig) => {
      const old = previous ? must(previous) : null
      if (old?.fromEnv) throw apiErr('read_only', `"${previous}" comes from AIRLOCK_MCP_CONFIG; change it there.`)
      const transport = check(cfg)
      const clash = find(cfg.name)
      if (clash && clash !== old) throw apiErr('duplicate_server', `There is already an MCP server named "${cfg.name}".`)
      let url = cfg.url
      if (url?.includes(MASKED)) {
        if (old?.cfg.url && redactUrl(old.cfg.url) === url) url = old.cfg.url
        else throw apiErr('invalid_mcp_server', 'url: type the hidden parts (•••) again')
      }
      const next: McpServerConfig = {
        ...clone(cfg),
        transport,
        env: restore(cfg.env, old?.cfg.env, 'env'),
        headers: restore(cfg.headers, old?.cfg.headers, 'headers'),
        url,
      }
      if (old) {
        if (old.cfg.name !== next.name)
          for (const c of opts.chats) if (c.mcpServers) c.mcpServers = c.mcpServers.map((n) => (n === old.cfg.name ? next.name : n))
        old.cfg = next
        if (next.enabled) void start(old)
        else stop(old, 'disabled')
      } else {
        const s: Server = { cfg: next, state: 'stopped', problems: [], restartsOnUse: false, since: now(), fromEnv: false }
        servers.push(s)
        if (next.enabled) void start(s)
      }
      return list()
    },
    SetMCPServerEnabled: async (name: string, enabled: boolean) => {
      const s = must(name)
      if (s.fromEnv) throw apiErr('read_only', `"${name}" comes from AIRLOCK_MCP_CONFIG; change it there.`)
      s.cfg.enabled = enabled
      if (enabled) void start(s)
      else stop(s, 'disabled')
      return list()
    },
    DeleteMCPServer: async (name: string) => {
      const s = must(name)
      if (s.fromEnv) throw apiErr('read_only', `"${name}" comes from AIRLOCK_MCP_CONFIG; change it there.`)
      stop(s, 'removed')
      servers.splice(servers.indexOf(s), 1)
      changed()
      return list()
    },
    RestartMCPServer: async (name: string) => {
      const s = must(name)
      await start(s)
      if (s.state === 'failed') throw apiErr('mcp_failed', s.reason ?? 'it failed')
      return list()
    },
    ImportMCPServers: async (text: string): Promise<McpImport> => {
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch (e) {
        throw apiErr('invalid_mcp_config', `not valid JSON: ${(e as Error).message}`)
      }
      const root = (parsed as { mcpServers?: unknown; servers?: unknown } | null) ?? {}
      const entries = root.mcpServers ?? root.servers
      if (!entries || typeof entries !== 'object' || Array.isArray(entries)) throw apiErr('invalid_mcp_config', 'there is no "mcpServers" object')
      const out: McpImport = { added: [], skipped: [] }
      for (const [name, raw] of Object.entries(entries as Record<string, Record<string, unknown>>)) {
        if (find(name)) {
          out.skipped.push(`${name}: a server with this name already exists`)
          continue
        }
        const cfg: McpServerConfig = {
          name,
          enabled: raw?.disabled !== true,
          transport: raw?.type === 'sse' ? 'sse' : raw?.type === 'http' || raw?.type === 'streamable-http' ? 'http' : undefined,
          command: typeof raw?.command === 'string' ? raw.command : undefined,
          args: Array.isArray(raw?.args) ? raw.args.map(String) : [],
          env: (raw?.env as Record<string, string>) ?? {},
          url: typeof raw?.url === 'string' ? raw.url : undefined,
          headers: (raw?.headers as Record<string, string>) ?? {},
        }
        try {
          cfg.transport = check(cfg)
        } catch (e) {
          out.skipped.push(`${name}: ${JSON.parse(e as string).message}`)
          continue
        }
        const s: Server = { cfg, state: 'stopped', problems: [], restartsOnUse: false, since: now(), fromEnv: false }
        servers.push(s)
        out.added.push(name)
        if (cfg.enabled) void start(s)
      }
      return out
    },
    /** The preview has no file dialog: as if it was cancelled. */
    ImportMCPFile: async (): Promise<McpImport> => ({ added: [], skipped: [] }),
    SetChatServers: async (chatId: string, all: boolean, names: string[]) => {
      const c = opts.chats.find((x) => x.id === chatId)
      if (!c) throw apiErr('not_found', 'Chat not found.')
      c.mcpServers = all ? null : [...(names ?? [])]
      return clone(c)
    },
  }

  /** Runs an MCP tool (the tool loop and the Tool lab). Throws the error text when it cannot run. */
  const run = (name: string, args: Record<string, unknown>): RunOutput => {
    const s = servers.find((x) => name.startsWith(`mcp__${x.cfg.name}__`))
    const tool = s && toolsOf(s).find((t) => t.name === name)
    if (!s || !tool) throw new Error(`there is no MCP tool named "${name}"`)
    if (!s.cfg.enabled) throw new Error(`the MCP server "${s.cfg.name}" is disabled`)
    if (s.state !== 'ready') {
      if (!s.restartsOnUse) throw new Error(`the MCP server "${s.cfg.name}" is not running (${s.reason ?? s.state})`)
      setState(s, 'ready')
      changed()
    }
    const short = name.slice(`mcp__${s.cfg.name}__`.length)
    if (short === 'echo') {
      const message = String(args.message ?? '')
      if (/^error\b/i.test(message)) return { text: `Echo refused: "${message}"`, images: [], isError: true }
      return { text: `Echo: ${message}`, images: [], isError: false }
    }
    if (short === 'tiny_image')
      return { text: 'Here is a tiny picture. (It was shown to the user.)', images: [{ mime: 'image/png', data: TINY_PNG }], isError: false, structured: { width: 24, height: 24 } }
    if (short === 'search_issues') return { text: `No issues match "${String(args.q ?? '')}".`, images: [], isError: false }
    return { text: 'pong', images: [], isError: false }
  }

  return {
    bindings,
    tools,
    /** A chat's MCP tools (null = every enabled server). */
    toolsFor: (chat: Chat | undefined) => tools(chat?.mcpServers ?? null),
    isMcp: (name: string) => name.startsWith('mcp__'),
    run,
    /** For tests: the servers as kept (with their secrets). */
    servers,
    setEnvError: (message: string) => {
      envError = message
      changed()
    },
  }
}
