import { useSyncExternalStore } from 'react'
import type { Language } from '../api'
import { createI18n, type I18n, type Strings, type TFunction } from './core'

export type { TFunction } from './core'

// Each language's strings are their own chunk, fetched on demand: the start
// bundle carries none (App keeps the splash up until the chosen one is in).
const loaders: Record<'en' | 'zh', () => Promise<Strings>> = {
  en: () => import('./en').then((m) => m.en),
  zh: () => import('./zh').then((m) => m.zh),
}
const loading = new Map<string, Promise<void>>()

// No strings until a language's chunk is added; zh has every en key
// (i18n.test.ts), so no fallback language is needed.
const i18n = createI18n(resolveLanguage('auto'))

/** "auto" follows the system: any zh* locale → Simplified Chinese, else English. */
export function resolveLanguage(lang: Language | string | undefined): 'en' | 'zh' {
  if (lang === 'en' || lang === 'zh') return lang
  const nav = typeof navigator !== 'undefined' ? navigator.languages?.[0] || navigator.language || '' : ''
  return nav.toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

/** Fetches one language's strings (once; a failed fetch may be retried). */
export function loadLanguage(code: 'en' | 'zh'): Promise<void> {
  let p = loading.get(code)
  if (!p) {
    p = loaders[code]().then(
      (strings) => i18n.addResourceBundle(code, strings),
      (err) => {
        loading.delete(code)
        throw err
      },
    )
    loading.set(code, p)
  }
  return p
}

/** True once `code`'s strings are loaded and it is the language shown. */
export function isLanguageShown(code: 'en' | 'zh'): boolean {
  return i18n.language === code && i18n.hasResourceBundle(code)
}

/** Loads the language's strings, then switches to it (the old strings stay up meanwhile: no flash of keys). */
let wanted: string | undefined
export async function applyLanguage(lang: Language | string | undefined): Promise<'en' | 'zh'> {
  const code = resolveLanguage(lang)
  wanted = code
  await loadLanguage(code)
  if (wanted !== code) return code // a later choice won while this one loaded
  if (i18n.language !== code) await i18n.changeLanguage(code)
  if (typeof document !== 'undefined') document.documentElement.lang = code === 'zh' ? 'zh-CN' : 'en'
  return code
}

/**
 * The strings of the language shown. Re-renders on a language switch and on a
 * loaded bundle (App leaves its splash when the strings arrive); `t` is a new
 * function after each, the same one between them (safe in memo deps).
 */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  useSyncExternalStore(i18n.subscribe, i18n.version)
  return { t: i18n.getFixedT(i18n.language), i18n }
}

export default i18n
