import '@testing-library/jest-dom/vitest'
import { afterEach, beforeAll } from 'vitest'
import { cleanup } from '@testing-library/react'
import i18n, { loadLanguage } from '../i18n'
import { preloadAll } from '../lib/lazy'


afterEach(() => cleanup())
// The UI's lazy chunks (markdown, tool cards, settings…), loaded before tests render synchronously.
beforeAll(async () => {
  // Both languages' strings (their own chunks in the app), so tests render text at once.
  await Promise.all([loadLanguage('en'), loadLanguage('zh')])
  await i18n.changeLanguage('en')
  await preloadAll()
})

// jsdom gaps
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as unknown as MediaQueryList
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = function () {}
if (!Element.prototype.scrollTo) Element.prototype.scrollTo = function () {}
if (typeof CSS === 'undefined' || !CSS.escape) {
  ;(globalThis as unknown as { CSS: { escape: (s: string) => string } }).CSS = {
    escape: (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`),
  }
}
