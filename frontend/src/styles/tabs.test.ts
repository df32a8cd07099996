import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// The rules of one selector in the app's stylesheets (the global sheet and those beside components), as declarations by property.
function sheets(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? sheets(p) : n.endsWith('.css') ? [readFileSync(p, 'utf8')] : []
  })
}
const css = sheets(resolve(__dirname, '..')).join('\n')
function rulesFor(selector: string): Record<string, string>[] {
  const out: Record<string, string>[] = []
  for (const m of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selectors = m[1].replace(/\/\*[\s\S]*?\*\//g, '').split(',').map((s) => s.trim())
    if (!selectors.includes(selector)) continue
    const decls: Record<string, string> = {}
    for (const d of m[2].replace(/\/\*[\s\S]*?\*\//g, '').split(';')) {
      const i = d.indexOf(':')
      if (i > 0) decls[d.slice(0, i).trim()] = d.slice(i + 1).trim()
    }
    out.push(decls)
  }
  return out
}

const LAYOUT = ['flex', 'width', 'padding', 'font-weight', 'font-size', 'margin', 'border', 'min-height', 'overflow-y']

describe('tabs', () => {
  for (const tab of ['.lab__tab', '.files__tab']) {
    it(`${tab}: a selected tab looks selected`, () => {
      const rules = rulesFor(`${tab}[aria-selected='true']`)
      expect(rules.length).toBeGreaterThan(0)
      expect(rules.some((r) => r.background || r['box-shadow'])).toBe(true)
    })

    it(`${tab}: hover and selection change no size (neighbours do not move)`, () => {
      for (const sel of [`${tab}:hover`, `${tab}[aria-selected='true']`]) {
        for (const r of rulesFor(sel)) for (const p of LAYOUT) expect(r[p], `${sel} sets ${p}`).toBeUndefined()
      }
    })
  }
})

describe('chat header', () => {
  it('keeps the title readable when the header is narrow (Files open): the model chip gives way, cut short before it goes', () => {
    const shrink = (r: Record<string, string>) => Number((r.flex ?? '0 1 auto').split(/\s+/)[1])
    const title = rulesFor('.chat__title')[0]
    const chip = rulesFor('.chat__model')[0]
    expect(shrink(chip)).toBeGreaterThanOrEqual(100 * shrink(title))
    // Cut short (ellipsis) down to a few letters, never squeezed to nothing (issue 30, item 5).
    expect(chip['min-width']).toMatch(/^\d+(\.\d+)?em$/)
    expect(css).toMatch(/@container \(max-width: \d+px\) \{\s*\.chat__model \{\s*display: none;/)
  })
})
