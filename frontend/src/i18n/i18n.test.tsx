import { describe, expect, it } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import { en } from './en'
import { zh } from './zh'
import i18n, { applyLanguage, isLanguageShown, loadLanguage, resolveLanguage, useTranslation } from './index'

function keys(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object') return [prefix]
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
}

function interpolations(obj: unknown, prefix = '', out = new Map<string, string[]>()) {
  if (typeof obj === 'string') out.set(prefix, [...obj.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort())
  else if (obj && typeof obj === 'object')
    for (const [k, v] of Object.entries(obj)) interpolations(v, prefix ? `${prefix}.${k}` : k, out)
  return out
}

describe('i18n resources', () => {
  it('en and zh have exactly the same keys', () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort())
  })

  it('every string is non-empty in both languages', () => {
    for (const [lang, res] of [['en', en], ['zh', zh]] as const) {
      const values = interpolations(res)
      for (const k of values.keys()) {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], res)
        expect(typeof v === 'string' && v.trim().length > 0, `${lang}:${k}`).toBe(true)
      }
    }
  })

  it('zh uses the same {{placeholders}} as en', () => {
    const a = interpolations(en)
    const b = interpolations(zh)
    for (const [k, vars] of a) expect(b.get(k), k).toEqual(vars)
  })

  it('"auto" follows navigator.language (zh* → zh)', () => {
    const orig = Object.getOwnPropertyDescriptor(window.navigator, 'languages')
    const set = (langs: string[]) => Object.defineProperty(window.navigator, 'languages', { value: langs, configurable: true })
    set(['zh-TW'])
    expect(resolveLanguage('auto')).toBe('zh')
    set(['en-GB'])
    expect(resolveLanguage('auto')).toBe('en')
    expect(resolveLanguage('zh')).toBe('zh')
    if (orig) Object.defineProperty(window.navigator, 'languages', orig)
  })
})

describe('language loader', () => {
  it('loads a language once and switches only after its strings are in', async () => {
    await applyLanguage('en')
    await loadLanguage('zh')
    await loadLanguage('zh') // memoized: same bundle, no error
    expect(i18n.getResourceBundle('zh')?.sidebar).toEqual(zh.sidebar)
    const shown = applyLanguage('zh')
    expect(isLanguageShown('zh')).toBe(false) // still English until the switch completes
    expect(await shown).toBe('zh')
    expect(isLanguageShown('zh')).toBe(true)
    expect(document.documentElement.lang).toBe('zh-CN')
    expect(i18n.t('sidebar.newChat')).toBe(zh.sidebar.newChat)
    await applyLanguage('en')
    expect(i18n.t('sidebar.newChat')).toBe(en.sidebar.newChat)
  })

  it('a later choice wins over one still loading', async () => {
    const a = applyLanguage('zh')
    const b = applyLanguage('en')
    await Promise.all([a, b])
    expect(i18n.language).toBe('en')
    expect(document.documentElement.lang).toBe('en')
  })
})

describe('useTranslation', () => {
  it('re-renders on a language switch with a new t', async () => {
    await applyLanguage('en')
    const ts = new Set<unknown>()
    function Label() {
      const { t, i18n: inst } = useTranslation()
      ts.add(t)
      return <span data-testid="l" lang={inst.language}>{t('sidebar.newChat')}</span>
    }
    const { rerender } = render(<Label />)
    rerender(<Label />)
    expect(ts.size).toBe(1) // the same t between changes
    expect(screen.getByTestId('l')).toHaveTextContent(en.sidebar.newChat)
    await act(() => applyLanguage('zh'))
    expect(screen.getByTestId('l')).toHaveTextContent(zh.sidebar.newChat)
    expect(screen.getByTestId('l')).toHaveAttribute('lang', 'zh')
    expect(ts.size).toBe(2)
    await act(() => applyLanguage('en'))
  })
})
