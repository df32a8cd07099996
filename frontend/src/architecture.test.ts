// The rule (see store/index.ts): components read state and act through the
// stores; only store/ calls the Go bindings. This fails when a file outside
// store/ and api/ imports one of them (types and pure helpers such as
// toApiError, copyText or normalizers stay importable).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = __dirname
const BINDINGS = ['api', 'historyApi', 'policyApi', 'undoApi', 'agentsApi', 'windowApi', 'contextApi', 'codeApi', 'finishApi', 'attachmentsApi', 'trashApi', 'filesOutApi', 'mcpOffersApi', 'events', 'policyEvents', 'onEvent']

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return files(p)
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [p] : []
  })
}

/** The value names a file imports from the api module (`import type` and `type X` names left out). */
export function apiBindingsImported(source: string): string[] {
  const out: string[] = []
  const re = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+'(?:\.\.?\/)+api(?:\/\w+)?'/g
  for (let m = re.exec(source); m; m = re.exec(source)) {
    if (m[1]) continue
    for (const part of m[2].split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0].trim()
      if (name && !name.startsWith('type ') && BINDINGS.includes(name)) out.push(name)
    }
  }
  return out
}

describe('architecture', () => {
  it('the check sees a binding import and ignores types', () => {
    expect(apiBindingsImported("import { api, toApiError, type Call } from '../api'")).toEqual(['api'])
    expect(apiBindingsImported("import {\n  historyApi as h,\n  type SearchHit,\n} from '../../api'")).toEqual(['historyApi'])
    expect(apiBindingsImported("import type { Call } from '../api'")).toEqual([])
    expect(apiBindingsImported("import { toApiError, type Call } from '../api'")).toEqual([])
  })

  it('only store/ imports the Go bindings', () => {
    const offenders: string[] = []
    for (const f of files(SRC)) {
      const rel = relative(SRC, f)
      if (rel.startsWith('store') || rel.startsWith('api')) continue
      const names = apiBindingsImported(readFileSync(f, 'utf8'))
      if (names.length) offenders.push(`${rel}: ${names.join(', ')}`)
    }
    expect(offenders).toEqual([])
  })

  it('no module imports itself through others (static, type and lazy imports alike; src and preview)', () => {
    expect(importCycles([...files(SRC), ...files(join(SRC, '../preview'))])).toEqual([])
  })
})

/** Local modules a file imports: `import … from './x'`, `export … from './x'` and `import('./x')`. */
function localImports(file: string): string[] {
  const src = readFileSync(file, 'utf8')
  const out: string[] = []
  const re = /(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const base = resolve(dirname(file), m[1])
    const hit = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => /\.tsx?$/.test(p) && exists(p))
    if (hit) out.push(hit)
  }
  return out
}

const exists = (p: string) => {
  try {
    return statSync(p).isFile()
  } catch {
    return false
  }
}

/** Each import circle once, as the chain of files (relative to src/). */
export function importCycles(all: string[]): string[] {
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const cycles: string[] = []
  const visit = (f: string) => {
    state.set(f, 'open')
    stack.push(f)
    for (const g of localImports(f)) {
      if (state.get(g) === 'open') cycles.push([...stack.slice(stack.indexOf(g)), g].map((x) => relative(SRC, x)).join(' → '))
      else if (!state.has(g)) visit(g)
    }
    stack.pop()
    state.set(f, 'done')
  }
  for (const f of all) if (!state.has(f)) visit(f)
  return cycles
}

