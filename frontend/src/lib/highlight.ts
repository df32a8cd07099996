// Code highlighting with languages loaded on demand: highlight.js's grammars
// are about 600 KB of JavaScript, so none is in the start-up bundle. A code
// block names its language; the first time one is seen its grammar is
// imported (one small chunk each), registered once in a shared lowlight, and
// every mounted Markdown re-renders once (see useHighlightVersion).
import { createLowlight } from 'lowlight'
import { useSyncExternalStore } from 'react'

type LanguageFn = Parameters<ReturnType<typeof createLowlight>['register']>[1]
type Loader = () => Promise<{ default: LanguageFn }>

// The languages lowlight calls "common" (what rehype-highlight loaded before).
const loaders: Record<string, Loader> = {
  arduino: () => import('highlight.js/lib/languages/arduino'),
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  python: () => import('highlight.js/lib/languages/python'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  wasm: () => import('highlight.js/lib/languages/wasm'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
}

// Names models write in fences, mapped to the grammar that has them (the
// grammars' own aliases are only known once loaded).
const aliases: Record<string, string> = {
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  py: 'python', python3: 'python', gyp: 'python',
  sh: 'bash', zsh: 'bash', ksh: 'bash', console: 'shell', shellsession: 'shell',
  rs: 'rust', golang: 'go', yml: 'yaml', toml: 'ini',
  html: 'xml', xhtml: 'xml', svg: 'xml', rss: 'xml', atom: 'xml', plist: 'xml', vue: 'xml',
  h: 'c', 'c++': 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp',
  cs: 'csharp', 'c#': 'csharp', kt: 'kotlin', kts: 'kotlin', rb: 'ruby', gemspec: 'ruby', podspec: 'ruby',
  pl: 'perl', pm: 'perl', md: 'markdown', mkdown: 'markdown', mkd: 'markdown', mk: 'makefile', mak: 'makefile', make: 'makefile',
  text: 'plaintext', txt: 'plaintext', plain: 'plaintext', objc: 'objectivec', 'obj-c': 'objectivec', mm: 'objectivec',
  vb: 'vbnet', patch: 'diff', gql: 'graphql', jsonc: 'json', json5: 'json', psql: 'sql', postgres: 'sql', mysql: 'sql',
  ino: 'arduino', pluto: 'lua',
}

/** The grammar a fence's language name needs, or null when we have none for it. */
export function grammarFor(lang: string): string | null {
  const name = lang.trim().toLowerCase()
  if (name in loaders) return name
  return aliases[name] ?? null
}

/** The shared highlighter; grammars are registered into it as they load. */
export const lowlight = createLowlight()

const loading = new Map<string, Promise<boolean>>()
let version = 0
const listeners = new Set<() => void>()

/**
 * Makes `lang` available: true at once if it is registered; otherwise starts
 * (once) loading its grammar and returns false. `load` is for tests.
 */
export function requestLanguage(lang: string, load: Record<string, Loader> = loaders): boolean {
  if (lowlight.registered(lang)) return true
  const grammar = grammarFor(lang)
  if (!grammar || loading.has(grammar)) return false
  loading.set(grammar, loadGrammar(grammar, load))
  return false
}

/** Resolves when `lang`'s grammar is registered (false: unknown, or it failed to load). */
export function whenLanguage(lang: string): Promise<boolean> {
  if (lowlight.registered(lang)) return Promise.resolve(true)
  requestLanguage(lang)
  const grammar = grammarFor(lang)
  return (grammar && loading.get(grammar)) || Promise.resolve(false)
}

async function loadGrammar(grammar: string, load: Record<string, Loader>): Promise<boolean> {
  try {
    const mod = await load[grammar]()
    lowlight.register(grammar, mod.default)
    // Our own alias names too, so a fence's name finds it next time synchronously.
    const own = Object.keys(aliases).filter((a) => aliases[a] === grammar && !lowlight.registered(a))
    if (own.length) lowlight.registerAlias(grammar, own)
    version++
    for (const l of listeners) l()
    return true
  } catch {
    // A chunk that failed to load (should not happen in the app): stay plain, allow a later retry.
    loading.delete(grammar)
    return false
  }
}

const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}

/** Changes whenever a grammar finished loading: a component using it re-renders then. */
export function useHighlightVersion(): number {
  return useSyncExternalStore(subscribe, () => version)
}

/** Longer code blocks are not highlighted. */
export const MAX_HIGHLIGHT_CHARS = 100_000

type El = { type: string; tagName?: string; value?: string; properties?: { className?: unknown }; children?: El[] }

function fenceLanguage(code: El): string | false | null {
  const cls = code.properties?.className
  const list = Array.isArray(cls) ? cls.map(String) : []
  if (list.includes('no-highlight') || list.includes('nohighlight')) return false
  const c = list.find((x) => x.startsWith('language-') || x.startsWith('lang-'))
  return c ? c.slice(c.indexOf('-') + 1) : null
}

const textOf = (n: El): string => (n.type === 'text' ? (n.value ?? '') : (n.children ?? []).map(textOf).join(''))

/**
 * rehype plugin: highlights `pre > code` blocks whose language is loaded (like
 * rehype-highlight with detect off) and asks for the others to be loaded.
 */
export function rehypeLazyHighlight() {
  return (tree: El) => {
    const walk = (node: El, parent: El | null) => {
      if (node.type === 'element' && node.tagName === 'code' && parent?.tagName === 'pre') {
        const lang = fenceLanguage(node)
        if (!lang || !requestLanguage(lang)) return
        const props = (node.properties ??= {})
        const cls = Array.isArray(props.className) ? props.className : (props.className = [])
        if (!cls.includes('hljs')) cls.unshift('hljs')
        const text = textOf(node)
        // Cap: a block this big stays plain (highlighting it would hold up the page).
        if (text.length > MAX_HIGHLIGHT_CHARS) return
        const out = lowlight.highlight(lang, text)
        if (out.children.length > 0) node.children = out.children as unknown as El[]
        return
      }
      for (const c of node.children ?? []) walk(c, node)
    }
    walk(tree, null)
  }
}
