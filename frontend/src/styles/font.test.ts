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
})
