// MCP helpers with no React in them: which server a tool belongs to, which
// pictures may be shown, and the server form's draft ↔ config conversion.
import { MASKED, type McpServerConfig, type McpTransport, type ToolImage, type ToolSpec } from '../api'

export const MCP_PREFIX = 'mcp__'

/** The MCP server a tool belongs to: from the tools list (kind 'mcp'), else from its mcp__<server>__<tool> name. */
export function mcpServerOf(name: string, tools: ToolSpec[]): string | null {
  const tool = tools.find((t) => t.name === name)
  if (tool) return tool.kind === 'mcp' ? tool.server || serverFromName(name) || '' : null
  return serverFromName(name)
}

function serverFromName(name: string): string | null {
  if (!name.startsWith(MCP_PREFIX)) return null
  const rest = name.slice(MCP_PREFIX.length)
  const cut = rest.indexOf('__')
  return cut > 0 && cut < rest.length - 2 ? rest.slice(0, cut) : null
}

/** Raster formats only: an SVG can carry script, so it is never put in an <img>. */
export const SHOWN_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** A data: URL for a picture that may be shown, or null. */
export function imageSrc(img: ToolImage): string | null {
  const mime = img.mime.trim().toLowerCase()
  if (!SHOWN_IMAGE_TYPES.includes(mime)) return null
  const data = img.data.replace(/\s+/g, '')
  if (!data || !BASE64.test(data)) return null
  return `data:${mime};base64,${data}`
}

/** How a server is reached: an empty transport means http when only a url is set, else stdio. */
export function transportOf(cfg: McpServerConfig): McpTransport {
  if (cfg.transport) return cfg.transport
  return cfg.url && !cfg.command ? 'http' : 'stdio'
}

/** One line for the list: the command line (arguments with spaces quoted) or the URL. */
export function configSummary(cfg: McpServerConfig): string {
  if (transportOf(cfg) !== 'stdio') return cfg.url ?? ''
  const quote = (a: string) => (a === '' || /[\s"']/.test(a) ? JSON.stringify(a) : a)
  return [cfg.command ?? '', ...(cfg.args ?? []).map(quote)].filter((x, i) => i > 0 || x).join(' ')
}

/* ───────────── the form ───────────── */

/** A key/value row. `masked`: its saved value is hidden; left empty, the saved value is kept. */
export type KeyValueRow = { id: number; key: string; value: string; masked: boolean; origKey: string }

export type McpDraft = {
  name: string
  transport: McpTransport
  command: string
  /** One argument per line (spaces stay inside an argument). */
  argsText: string
  /** The arguments box was edited (if not, the saved arguments are sent back exactly). */
  argsTouched: boolean
  dir: string
  env: KeyValueRow[]
  url: string
  headers: KeyValueRow[]
  /** Seconds as typed ('' = the default). */
  initTimeout: string
  /** A pre-registered OAuth client (http only); the secret comes back MASKED when one is saved. */
  oauthClientId: string
  oauthClientSecret: string
}

let rowSeq = 0
export const newRow = (key = '', value = ''): KeyValueRow => {
  const masked = value === MASKED
  return { id: ++rowSeq, key, value: masked ? '' : value, masked, origKey: key }
}

const rows = (m: Record<string, string> | undefined) => Object.entries(m ?? {}).map(([k, v]) => newRow(k, v))
const NS = 1e9

export function draftFromConfig(cfg: McpServerConfig | null): McpDraft {
  return {
    name: cfg?.name ?? '',
    transport: cfg ? transportOf(cfg) : 'stdio',
    command: cfg?.command ?? '',
    argsText: (cfg?.args ?? []).join('\n'),
    argsTouched: false,
    dir: cfg?.dir ?? '',
    env: rows(cfg?.env),
    url: cfg?.url ?? '',
    headers: rows(cfg?.headers),
    initTimeout: cfg?.initTimeout ? String(Math.round((cfg.initTimeout / NS) * 1000) / 1000) : '',
    oauthClientId: cfg?.oauthClientId ?? '',
    oauthClientSecret: cfg?.oauthClientSecret ?? '',
  }
}

export type DraftField = 'name' | 'command' | 'args' | 'dir' | 'env' | 'url' | 'headers' | 'initTimeout'
/** A problem found before saving: `key` is an i18n key under mcp.form.errors. */
export type DraftError = { field: DraftField; key: string; vars?: Record<string, string> }

function mapOf(list: KeyValueRow[], field: 'env' | 'headers'): { map: Record<string, string> } | { error: DraftError } {
  const map: Record<string, string> = {}
  for (const r of list) {
    const key = r.key.trim()
    if (!key && !r.value) continue
    if (!key) return { error: { field, key: 'keyRequired' } }
    if (Object.prototype.hasOwnProperty.call(map, key)) return { error: { field, key: 'duplicateKey', vars: { key } } }
    if (r.masked && !r.value) {
      // A hidden value stays with the name it was saved under.
      if (key !== r.origKey) return { error: { field, key: 'maskedRenamed', vars: { key } } }
      map[key] = MASKED
    } else {
      map[key] = r.value
    }
  }
  return { map }
}

/** The config to save, or the first problem. Fields the form does not show are kept from `original`. */
export function configFromDraft(d: McpDraft, original: McpServerConfig | null): { config: McpServerConfig } | { error: DraftError } {
  const name = d.name.trim()
  if (!name) return { error: { field: 'name', key: 'nameRequired' } }
  const config: McpServerConfig = { name, enabled: original?.enabled ?? true, transport: d.transport }
  if (d.transport === 'stdio') {
    const command = d.command.trim()
    if (!command) return { error: { field: 'command', key: 'commandRequired' } }
    config.command = command
    config.args = !d.argsTouched && original ? [...(original.args ?? [])] : splitArgs(d.argsText)
    const env = mapOf(d.env, 'env')
    if ('error' in env) return env
    config.env = env.map
    if (d.dir.trim()) config.dir = d.dir.trim()
  } else {
    const url = d.url.trim()
    if (!url) return { error: { field: 'url', key: 'urlRequired' } }
    if (!/^https?:\/\/\S+$/i.test(url)) return { error: { field: 'url', key: 'urlScheme' } }
    config.url = url
    const headers = mapOf(d.headers, 'headers')
    if ('error' in headers) return headers
    config.headers = headers.map
    if (d.transport === 'http' && d.oauthClientId.trim()) {
      config.oauthClientId = d.oauthClientId.trim()
      if (d.oauthClientSecret) config.oauthClientSecret = d.oauthClientSecret
    }
  }
  const t = d.initTimeout.trim()
  if (t) {
    const secs = Number(t)
    if (!Number.isFinite(secs) || secs <= 0 || secs > 600) return { error: { field: 'initTimeout', key: 'timeout' } }
    config.initTimeout = Math.round(secs * NS)
  }
  if (original?.listTimeout) config.listTimeout = original.listTimeout
  return { config }
}

/** One argument per line; blank lines are dropped, nothing is split on spaces. */
export function splitArgs(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/\r$/, '').trim())
    .filter((l) => l !== '')
}

const FIELD_WORDS: [DraftField, RegExp][] = [
  ['name', /\bname\b/i],
  ['command', /\bcommand\b/i],
  ['args', /\bargs?\b|\barguments?\b/i],
  ['dir', /\bdir\b|\bdirectory\b|\bfolder\b/i],
  ['env', /\benv\b|\benvironment\b/i],
  ['url', /\burl\b/i],
  ['headers', /\bheaders?\b/i],
  ['initTimeout', /timeout/i],
]

/** The form field a backend error is about: the field named first in its message. */
export function fieldOfError(code: string, message: string): DraftField | null {
  if (code === 'duplicate_server') return 'name'
  let best: DraftField | null = null
  let at = Infinity
  for (const [field, re] of FIELD_WORDS) {
    const m = re.exec(message)
    if (m && m.index < at) {
      at = m.index
      best = field
    }
  }
  return best
}
