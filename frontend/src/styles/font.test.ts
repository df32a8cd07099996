import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const read = (p: string) => readFileSync(resolve(__dirname, p), 'utf8')

describe('the UI font', () => {
  it('is bundled: main.tsx imports the Fontsource package the stylesheet names first', () => {
    expect(read('../main.tsx')).toMatch(/import '@fontsource-variable\/inter\/wght\.css'/)
    const faces = read('../../node_modules/@fontsource-variable/inter/wght.css')
    expect(faces).toMatch(/font-family: 'Inter Variable'/)
    // The latin subset holds the curly quotes (U+2018–201F sit in U+2000–206F).
    expect(faces).toMatch(/unicode-range:[^;]*U\+2000-206F/)
  })

  it('names the Latin font before any CJK font, which stays as the fallback for Chinese', () => {
    const sans = /--font-sans:([^;]+);/.exec(read('tokens.css'))![1]
    const fonts = sans.split(',').map((f) => f.trim().replace(/^'|'$/g, ''))
    expect(fonts[0]).toBe('Inter Variable')
    const cjk = fonts.findIndex((f) => /PingFang|YaHei|CJK|Han Sans|WenQuanYi/.test(f))
    expect(cjk).toBeGreaterThan(0)
  })

  it('on Linux names only fonts Linux can have, so WebKitGTK does not ask fontconfig for each Mac and Windows font', () => {
    const linux = /:root\[data-platform='linux'\]\s*\{([^}]+)\}/.exec(read('tokens.css'))![1]
    const lists = [...linux.matchAll(/--font-(?:sans|mono):([^;]+);/g)].map((m) => m[1])
    expect(lists).toHaveLength(2)
    for (const list of lists) {
      expect(list).not.toMatch(/apple|Blink|Segoe|SF Mono|Menlo|Consolas|PingFang|Hiragino|YaHei|Helvetica|Arial|Cascadia/i)
      expect(list).toMatch(/\b(sans-serif|monospace)\b/) // then the desktop's own choice
    }
    expect(lists[0].trim()).toMatch(/^'Inter Variable'/)
    expect(read('../main.tsx')).toMatch(/dataset\.platform = 'linux'/)
  })
})
