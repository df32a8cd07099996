// A form from a tool's JSON Schema (the Tool lab's "Run a tool"): one field per
// top-level property, and the arguments object back from what was typed.

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** multi: an array of choices (MCP's multi-select), held as the JSON of the chosen values. */
export type FieldKind = 'string' | 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi' | 'json'

export type FormField = {
  name: string
  kind: FieldKind
  required: boolean
  description: string
  enumValues?: string[]
  /** Titles of enumValues (a oneOf of {const, title}), shown instead of the values. */
  enumLabels?: string[]
  minimum?: number
  maximum?: number
  default?: unknown
}

/** What a field holds while editing: text for inputs (numbers and JSON too), a boolean for checkboxes. */
export type FormValues = Record<string, string | boolean>

/** Multi-line string parameters get a textarea. */
const MULTILINE = new Set(['content', 'old_text', 'new_text', 'text', 'body'])

function kindOf(name: string, prop: Record<string, unknown>): FieldKind {
  let t = prop.type
  if (Array.isArray(t)) {
    const nonNull = t.filter((x) => x !== 'null')
    t = nonNull.length === 1 ? nonNull[0] : undefined
  }
  if (Array.isArray(prop.enum) && prop.enum.every((x) => typeof x === 'string')) return 'enum'
  if (titledOptions(prop)) return 'enum'
  if (t === 'array' && choicesOf(prop)) return 'multi'
  switch (t) {
    case 'string':
      return MULTILINE.has(name) ? 'text' : 'string'
    case 'number':
      return 'number'
    case 'integer':
      return 'integer'
    case 'boolean':
      return 'boolean'
    default:
      return 'json' // arrays, objects, unions: typed as JSON
  }
}

/** A oneOf of {const: string, title?} (MCP's titled single choice), or null. */
function titledOptions(prop: Record<string, unknown>): { values: string[]; labels: string[] } | null {
  const opts = prop.oneOf
  if (!Array.isArray(opts) || opts.length === 0 || !opts.every((o) => isObject(o) && typeof o.const === 'string')) return null
  const list = opts as { const: string; title?: unknown }[]
  return { values: list.map((o) => o.const), labels: list.map((o) => (typeof o.title === 'string' ? o.title : o.const)) }
}

/** The choices of an array of strings from a list: items.enum, or items.anyOf/oneOf of {const, title}. */
function choicesOf(prop: Record<string, unknown>): { values: string[]; labels?: string[] } | null {
  const items = isObject(prop.items) ? prop.items : null
  if (!items) return null
  if (Array.isArray(items.enum) && items.enum.length > 0 && items.enum.every((x) => typeof x === 'string')) return { values: items.enum as string[] }
  return titledOptions({ oneOf: items.anyOf ?? items.oneOf })
}

/** The chosen values of a multi field ([] when none or unreadable). */
export function chosen(text: string | boolean | undefined): string[] {
  if (typeof text !== 'string' || !text) return []
  try {
    const v: unknown = JSON.parse(text)
    return Array.isArray(v) ? v.map(String) : []
  } catch {
    return []
  }
}

/** The fields of a tool's parameters schema, required ones first (in schema order otherwise). */
export function schemaFields(schema: unknown): FormField[] {
  if (!isObject(schema) || !isObject(schema.properties)) return []
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
  const fields = Object.entries(schema.properties).map(([name, p]): FormField => {
    const prop = isObject(p) ? p : {}
    const kind = kindOf(name, prop)
    if (kind === 'multi') {
      const c = choicesOf(prop)!
      return { name, kind, required: required.has(name), description: typeof prop.description === 'string' ? prop.description : '',
        enumValues: c.values, enumLabels: c.labels, default: prop.default,
        minimum: typeof prop.minItems === 'number' ? prop.minItems : undefined, maximum: typeof prop.maxItems === 'number' ? prop.maxItems : undefined }
    }
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof prop.description === 'string' ? prop.description : '',
      enumValues: Array.isArray(prop.enum) ? prop.enum.map(String) : titledOptions(prop)?.values,
      enumLabels: titledOptions(prop)?.labels ?? (Array.isArray(prop.enumNames) && prop.enumNames.length === (prop.enum as unknown[] | undefined)?.length ? prop.enumNames.map(String) : undefined),
      minimum: typeof prop.minimum === 'number' ? prop.minimum : undefined,
      maximum: typeof prop.maximum === 'number' ? prop.maximum : undefined,
      default: prop.default,
    }
  })
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)]
}

/** Empty values for a form (booleans start at their default, else off). */
export function emptyValues(fields: FormField[]): FormValues {
  const v: FormValues = {}
  for (const f of fields) v[f.name] = f.kind === 'boolean' ? f.default === true : ''
  return v
}

/** Fills a form from an arguments object (switching from raw JSON back to the form). */
export function valuesFromArgs(fields: FormField[], args: Record<string, unknown>): FormValues {
  const v = emptyValues(fields)
  for (const f of fields) {
    if (!(f.name in args)) continue
    const x = args[f.name]
    if (f.kind === 'boolean') v[f.name] = x === true
    else if (f.kind === 'json') v[f.name] = x === undefined ? '' : JSON.stringify(x)
    else if (f.kind === 'multi') v[f.name] = Array.isArray(x) ? JSON.stringify(x.map(String)) : ''
    else v[f.name] = x == null ? '' : String(x)
  }
  return v
}

/** Why a field's value cannot be sent (an i18n key under lab.run.errors). */
export type FieldError = 'required' | 'number' | 'integer' | 'json' | 'min' | 'max'

/**
 * The arguments object from a form's values: empty optional fields are left
 * out (the tool's default applies), numbers and JSON are parsed. Booleans are
 * sent when required or when they differ from the default.
 */
export function argsFromValues(
  fields: FormField[],
  values: FormValues,
): { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, FieldError> } {
  const args: Record<string, unknown> = {}
  const errors: Record<string, FieldError> = {}
  for (const f of fields) {
    const raw = values[f.name]
    if (f.kind === 'boolean') {
      const on = raw === true
      if (f.required || on !== (f.default === true)) args[f.name] = on
      continue
    }
    if (f.kind === 'multi') {
      const list = chosen(raw)
      if (!list.length && f.required) errors[f.name] = 'required'
      else if (list.length && f.minimum !== undefined && list.length < f.minimum) errors[f.name] = 'min'
      else if (f.maximum !== undefined && list.length > f.maximum) errors[f.name] = 'max'
      else if (list.length) args[f.name] = list
      continue
    }
    const text = typeof raw === 'string' ? raw : ''
    // Strings keep their spaces (file content); only "nothing at all" counts as empty.
    const empty = f.kind === 'string' || f.kind === 'text' ? text === '' : text.trim() === ''
    if (empty) {
      // A required multi-line text may be empty (an empty file, deleting text); other required fields may not.
      if (f.required && f.kind === 'text') args[f.name] = ''
      else if (f.required) errors[f.name] = 'required'
      continue
    }
    switch (f.kind) {
      case 'number':
      case 'integer': {
        const n = Number(text.trim())
        if (!Number.isFinite(n)) errors[f.name] = 'number'
        else if (f.kind === 'integer' && !Number.isInteger(n)) errors[f.name] = 'integer'
        else if (f.minimum !== undefined && n < f.minimum) errors[f.name] = 'min'
        else if (f.maximum !== undefined && n > f.maximum) errors[f.name] = 'max'
        else args[f.name] = n
        break
      }
      case 'json':
        try {
          args[f.name] = JSON.parse(text)
        } catch {
          errors[f.name] = 'json'
        }
        break
      default:
        args[f.name] = text
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, args }
}
