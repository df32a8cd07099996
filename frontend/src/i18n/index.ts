import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { Language } from '../api'

// Each language's strings are their own chunk, fetched on demand: the start
// bundle carries none (App keeps the splash up until the chosen one is in).
type Strings = Record<string, unknown>
const loaders: Record<'en' | 'zh', () => Promise<Strings>> = {
  en: () => import('./en').then((m) => m.en),
  zh: () => import('./zh').then((m) => m.zh),
}
const loading = new Map<string, Promise<void>>()

/** "auto" follows the system: any zh* locale → Simplified Chinese, else English. */
export function resolveLanguage(lang: Language | string | undefined): 'en' | 'zh' {
  if (lang === 'en' || lang === 'zh') return lang
  const nav = typeof navigator !== 'undefined' ? navigator.languages?.[0] || navigator.language || '' : ''
  return nav.toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

/** Fetches one language's strings into i18next (once; a failed fetch may be retried). */
export function loadLanguage(code: 'en' | 'zh'): Promise<void> {
  let p = loading.get(code)
  if (!p) {
    p = loaders[code]().then(
      (strings) => void i18n.addResourceBundle(code, 'translation', strings, true, true),
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
  return i18n.language === code && i18n.hasResourceBundle(code, 'translation')
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

void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: resolveLanguage('auto'),
  // zh has every en key (i18n.test.ts), so no fallback language needs fetching.
  fallbackLng: false,
  interpolation: { escapeValue: false }, // React escapes already
  returnNull: false,
  initAsync: false,
  // Re-render on a loaded bundle too: App leaves its splash when the strings arrive.
  react: { useSuspense: false, bindI18nStore: 'added' },
})

export default i18n
