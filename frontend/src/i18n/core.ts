// Our own translation core, in place of i18next (+ react-i18next), which cost
// ~50 KB of the start bundle for features we never used. It does exactly what
// the app's strings and calls need: nested keys (`a.b.c`), `{{name}}`
// interpolation (unescaped: React escapes), plurals through `_one`/`_other`
// suffixes picked by Intl.PluralRules for `count`, and `defaultValue`.
// A missing key comes back as the key itself, as it did with i18next.

export type Strings = Record<string, unknown>
export type TOptions = { count?: number; defaultValue?: string; [name: string]: unknown }
export type TFunction = (key: string, options?: TOptions) => string

export interface I18n {
  /** The language shown (e.g. "en", "zh"). */
  readonly language: string
  /** Translates in the current language. */
  t: TFunction
  /** A `t` for one language; the same function until the language or the strings change. */
  getFixedT(lng: string): TFunction
  changeLanguage(lng: string): Promise<TFunction>
  addResourceBundle(lng: string, strings: Strings): void
  hasResourceBundle(lng: string): boolean
  getResourceBundle(lng: string): Strings | undefined
  /** Called after every language switch or added bundle; returns the unsubscribe. */
  subscribe(listener: () => void): () => void
  /** Bumped by each language switch or added bundle (a snapshot for useSyncExternalStore). */
  version(): number
}

function lookup(strings: Strings | undefined, key: string): unknown {
  let node: unknown = strings
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Strings)[part]
  }
  return node
}

// A placeholder whose name is not among the options stays as written (as i18next
// left it); one given as null/undefined becomes empty.
function interpolate(text: string, options: TOptions | undefined): string {
  if (!options) return text
  return text.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(options, name) ? String(options[name] ?? '') : whole,
  )
}

const pluralRules = new Map<string, Intl.PluralRules>()
function pluralCategory(lng: string, count: number): string {
  let rules = pluralRules.get(lng)
  if (!rules) pluralRules.set(lng, (rules = new Intl.PluralRules(lng)))
  return rules.select(count)
}

export function createI18n(initial: string): I18n {
  const bundles = new Map<string, Strings>()
  const listeners = new Set<() => void>()
  let fixed = new Map<string, TFunction>()
  let language = initial
  let version = 0

  const changed = () => {
    version++
    fixed = new Map() // new `t`s, so memoized components see the change
    for (const l of [...listeners]) l()
  }

  const translate = (lng: string, key: string, options?: TOptions): string => {
    const strings = bundles.get(lng)
    let found: unknown
    if (typeof options?.count === 'number') found = lookup(strings, `${key}_${pluralCategory(lng, options.count)}`)
    if (typeof found !== 'string') found = lookup(strings, key)
    if (typeof found !== 'string') found = options?.defaultValue ?? key
    return interpolate(found as string, options)
  }

  const getFixedT = (lng: string): TFunction => {
    let t = fixed.get(lng)
    if (!t) fixed.set(lng, (t = (key, options) => translate(lng, key, options)))
    return t
  }

  return {
    get language() {
      return language
    },
    t: (key, options) => translate(language, key, options),
    getFixedT,
    changeLanguage(lng) {
      if (lng !== language) {
        language = lng
        changed()
      }
      return Promise.resolve(getFixedT(lng))
    },
    addResourceBundle(lng, strings) {
      bundles.set(lng, strings)
      changed()
    },
    hasResourceBundle: (lng) => bundles.has(lng),
    getResourceBundle: (lng) => bundles.get(lng),
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    version: () => version,
  }
}
