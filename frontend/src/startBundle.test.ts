// Issue 15: JS before first paint ≤ 300 KB. The start bundle is whatever
// main.tsx reaches through static imports, so the parts not needed for the
// first paint must be reached only through import() (lazyWithPreload). This
// fails when a file imports one of them statically (`import type` is free).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = __dirname
const LAZY = [
  'i18n/en',
  'i18n/zh',
  'components/Settings',
  'components/ToolLab',
  'components/policy/ActivityView',
  'components/AboutDialog',
  'components/MessageList',
  'components/FilesPanel',
  'components/MarkdownRenderer',
  'components/ToolCalls',
  'components/FormingCards',
  'components/ChatOptionsPopover',
  'components/SearchResults',
  'components/ChatMenuList',
]

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return files(p)
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [p] : []
  })
}

/** The modules a source imports statically (values, not `import type`), as written. */
export function staticImports(source: string): string[] {
  const out: string[] = []
  const re = /^import\s+(type\s+)?(?:[^'"]*?\s+from\s+)?'([^']+)'/gm
  for (let m = re.exec(source); m; m = re.exec(source)) if (!m[1]) out.push(m[2])
  return out
}

describe('start bundle', () => {
  it('the check sees value imports and ignores types and import()', () => {
    const src = "import { A } from './a'\nimport type { B } from './b'\nimport './c.css'\nconst D = lazy(() => import('./d'))\nimport {\n  E,\n} from './e'"
    expect(staticImports(src)).toEqual(['./a', './c.css', './e'])
  })

  it('parts not needed before the first paint are imported only with import()', () => {
    const offenders: string[] = []
    for (const f of files(SRC)) {
      for (const spec of staticImports(readFileSync(f, 'utf8'))) {
        if (!spec.startsWith('.')) continue
        const target = relative(SRC, resolve(dirname(f), spec)).replace(/\.(tsx?)$/, '')
        if (LAZY.includes(target)) offenders.push(`${relative(SRC, f)} → ${target}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('no i18next: src/i18n/core.ts does what we used of it', () => {
    const offenders = files(SRC).filter((f) => staticImports(readFileSync(f, 'utf8')).some((s) => /^(react-)?i18next$/.test(s)))
    expect(offenders).toEqual([])
  })
})
