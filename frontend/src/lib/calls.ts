// Formatting helpers for tool-call cards and the Tool lab.

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** Pretty JSON for the cards (2-space indent); strings that are not objects are shown as they are. */
export function prettyJSON(v: unknown): string {
  if (v === undefined) return ''
  try {
    return JSON.stringify(v, null, 2) ?? ''
  } catch {
    return String(v)
  }
}

function short(v: unknown): string {
  if (typeof v === 'string') return v
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v)
  try {
    return JSON.stringify(v)
  } catch {
    return String(v)
  }
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim()

/** Clips to `max` characters with an ellipsis. */
export function clip(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s
}

/** Arguments that name what a call is about, in order of preference. */
const KEY_ARGS = ['path', 'file', 'url', 'command', 'query', 'pattern', 'expression', 'timezone']

/**
 * A one-line summary of a call's arguments: `source → destination` for
 * moves, else the argument naming what the call is about (path, pattern,
 * expression…), else the only string argument, else `k=v, …`. Empty when
 * there are no arguments.
 */
export function callSummary(name: string, args: unknown, max = 80): string {
  if (!isObject(args)) return args == null ? '' : clip(oneLine(short(args)), max)
  const str = (k: string) => (typeof args[k] === 'string' && (args[k] as string).trim() ? (args[k] as string) : '')
  if (name === 'calculate' && str('expression')) return clip(oneLine(str('expression')), max)
  if (str('source') && str('destination')) return clip(oneLine(`${str('source')} → ${str('destination')}`), max)
  for (const k of KEY_ARGS) if (str(k)) return clip(oneLine(str(k)), max)
  const entries = Object.entries(args)
  if (entries.length === 0) return ''
  const strings = entries.filter(([, v]) => typeof v === 'string' && v.trim() !== '')
  if (entries.length === 1 && strings.length === 1) return clip(oneLine(strings[0][1] as string), max)
  return clip(oneLine(entries.map(([k, v]) => `${k}=${short(v)}`).join(', ')), max)
}

/** "12 ms", "1.4 s", "2 min 5 s" */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) ms = 0
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const m = Math.floor(ms / 60_000)
  const s = Math.round((ms % 60_000) / 1000)
  return s ? `${m} min ${s} s` : `${m} min`
}

/** 14:02:11 (24-hour, the UI's locale for digits). */
export function clockTime(ts: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(ts)
}

/** Counts lines (a trailing newline does not add one). */
export function lineCount(s: string): number {
  if (!s) return 0
  return s.replace(/\n$/, '').split('\n').length
}

/** Parses the JSON an edit form holds: an object, or a sentence saying what is wrong. */
export function parseArgs(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const src = text.trim()
  if (src === '') return { ok: true, value: {} }
  let v: unknown
  try {
    v = JSON.parse(src)
  } catch (e) {
    return { ok: false, error: (e as Error).message }
  }
  if (!isObject(v)) return { ok: false, error: 'object' }
  return { ok: true, value: v }
}

/**
 * The Go scanner reports byte offsets into the UTF-8 text; JavaScript strings
 * index UTF-16 code units. Returns a function mapping one to the other.
 */
export function byteToIndex(text: string): (byte: number) => number {
  // Fast path: pure ASCII.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return (b) => Math.max(0, Math.min(b, text.length))
  const starts: number[] = [] // byte offset at each UTF-16 index
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    starts.push(bytes)
    const code = text.codePointAt(i)!
    if (code > 0xffff) {
      starts.push(bytes + 1) // the low surrogate is inside the code point: never a boundary
      bytes += 4
      i++
    } else bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3
  }
  starts.push(bytes)
  return (b) => {
    if (b <= 0) return 0
    if (b >= bytes) return text.length
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (starts[mid] < b) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

export type SchemaParam = { name: string; type: string; required: boolean; description: string; enumValues?: string[] }

function typeOf(s: unknown): string {
  if (!isObject(s)) return 'any'
  const t = s.type
  if (Array.isArray(t)) return t.join(' | ')
  if (t === 'array') return `array<${typeOf(s.items)}>`
  if (typeof t === 'string') return t
  if (Array.isArray(s.enum)) return 'enum'
  if (Array.isArray(s.anyOf)) return (s.anyOf as unknown[]).map(typeOf).join(' | ')
  if (Array.isArray(s.oneOf)) return (s.oneOf as unknown[]).map(typeOf).join(' | ')
  return 'any'
}

/** The top-level parameters of a JSON Schema object, for a readable table. */
export function schemaParams(schema: unknown): SchemaParam[] {
  if (!isObject(schema) || !isObject(schema.properties)) return []
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
  return Object.entries(schema.properties).map(([name, p]) => {
    const prop = isObject(p) ? p : {}
    const extras: string[] = []
    if (prop.default !== undefined) extras.push(`default ${short(prop.default)}`)
    if (typeof prop.minimum === 'number') extras.push(`≥ ${prop.minimum}`)
    if (typeof prop.maximum === 'number') extras.push(`≤ ${prop.maximum}`)
    const desc = typeof prop.description === 'string' ? prop.description : ''
    return {
      name,
      type: typeOf(prop),
      required: required.has(name),
      description: extras.length ? `${desc}${desc ? ' ' : ''}(${extras.join(', ')})` : desc,
      enumValues: Array.isArray(prop.enum) ? prop.enum.map(short) : undefined,
    }
  })
}
