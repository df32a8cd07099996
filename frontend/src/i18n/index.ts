import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { Language } from '../api'
import { en } from './en'
import { zh } from './zh'

export const resources = { en: { translation: en }, zh: { translation: zh } } as const

/** "auto" follows the system: any zh* locale → Simplified Chinese, else English. */
export function resolveLanguage(lang: Language | string | undefined): 'en' | 'zh' {
  if (lang === 'en' || lang === 'zh') return lang
  const nav = typeof navigator !== 'undefined' ? navigator.languages?.[0] || navigator.language || '' : ''
  return nav.toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

export function applyLanguage(lang: Language | string | undefined) {
  const code = resolveLanguage(lang)
  if (i18n.language !== code) void i18n.changeLanguage(code)
  if (typeof document !== 'undefined') document.documentElement.lang = code === 'zh' ? 'zh-CN' : 'en'
}

void i18n.use(initReactI18next).init({
  resources,
  lng: resolveLanguage('auto'),
  fallbackLng: 'en',
  interpolation: { escapeValue: false }, // React escapes already
  returnNull: false,
  initAsync: false,
})
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language === 'zh' ? 'zh-CN' : 'en'

export default i18n
