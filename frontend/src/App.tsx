import { Suspense, useEffect, useLayoutEffect, useState } from 'react'
import { openLink } from './lib/links'
import { selectIsStreaming, useStore } from './store'
import { boot } from './store/boot'
import { applyLanguage, isLanguageShown, resolveLanguage, useTranslation } from './i18n'
import { modKey, useLatch, usePrefersDark } from './lib/hooks'
import { preloadSearchResults, Sidebar } from './components/Sidebar'
import { preloadChatMenu } from './components/ChatMenu'
import { ChatView, preloadMessageList } from './components/ChatView'
import { preloadMessageParts } from './components/messageParts'
import { preloadChatOptions } from './components/ChatOptions'
import { lazyWithPreload } from './lib/lazy'
import { Toasts } from './components/Toasts'
import { AlertIcon, LogoMark, RetryIcon } from './components/icons'

// Views not needed to show a chat load on first use (their own chunks): keeps
// the JavaScript parsed at start small.
const SettingsDialog = lazyWithPreload(() => import('./components/Settings').then((m) => ({ default: m.SettingsDialog })))
const ToolLab = lazyWithPreload(() => import('./components/ToolLab').then((m) => ({ default: m.ToolLab })))
const ActivityView = lazyWithPreload(() => import('./components/policy/ActivityView').then((m) => ({ default: m.ActivityView })))
const AboutDialog = lazyWithPreload(() => import('./components/AboutDialog').then((m) => ({ default: m.AboutDialog })))

export function App() {
  const { t } = useTranslation()
  const ready = useStore((s) => s.ready)
  const bootError = useStore((s) => s.bootError)
  const theme = useStore((s) => s.settings?.theme ?? 'system')
  const language = useStore((s) => s.settings?.language ?? 'auto')
  const view = useStore((s) => s.view)
  const settingsOpen = useStore((s) => s.settingsOpen)
  // Once loaded, Settings stays mounted (it keeps its own state while closed).
  const settingsUsed = useLatch(settingsOpen)
  const aboutOpen = useStore((s) => s.aboutOpen)
  const aboutUsed = useLatch(aboutOpen) // About is its own chunk too, mounted from its first opening on
  const prefersDark = usePrefersDark()

  useEffect(() => boot(), [])

  // Theme: "system" follows prefers-color-scheme live.
  const resolved = theme === 'system' ? (prefersDark ? 'dark' : 'light') : theme
  useLayoutEffect(() => {
    const root = document.documentElement
    if (root.dataset.theme === resolved) return
    const first = root.dataset.theme === undefined
    root.dataset.theme = resolved
    root.style.colorScheme = resolved
    // The first theme has no colours to sweep from; taking the class off again
    // later would restyle the whole page in the UI's second frame (~40 ms at start).
    if (first) return
    // Switch instantly: no colour transitions sweeping across the whole UI.
    root.classList.add('no-transitions')
    const id = requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove('no-transitions')))
    return () => cancelAnimationFrame(id)
  }, [resolved])

  // After the first paint, fetch the chunks messages render with while idle,
  // then the small ones a click away (so they open without a fallback).
  useEffect(() => {
    if (!ready) return
    preloadMessageParts(() => {
      preloadMessageList()
      preloadChatOptions()
      preloadSearchResults()
      preloadChatMenu()
      void AboutDialog.preload()
    })
  }, [ready])

  // Strings load on demand: until the chosen language's are in, the splash stays
  // (no flash of English or of keys); later switches keep the old strings meanwhile.
  useEffect(() => {
    applyLanguage(language).catch(() => setStringsFailed(true)) // then show keys rather than a splash forever
  }, [language])
  const [stringsFailed, setStringsFailed] = useState(false)
  // The splash is always the first frame, the UI comes in the next one. With the
  // font fetched, a first frame holding the whole UI came ~270 ms later; with the
  // font inline it is no sooner either (alternating launches): the first layout
  // costs ~45 ms more when it is the UI's than when the splash took it.
  const [splashPainted, setSplashPainted] = useState(false)
  useEffect(() => {
    const id = requestAnimationFrame(() => setSplashPainted(true))
    return () => cancelAnimationFrame(id)
  }, [])
  const stringsShown = useLatch(splashPainted && ready && (stringsFailed || isLanguageShown(resolveLanguage(language))))

  // Safety net: no link anywhere may navigate the webview. http(s)/mailto go to the system browser.
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented) return
      const a = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
      if (!a) return
      const href = a.getAttribute('href') ?? ''
      if (href.startsWith('#')) return
      e.preventDefault()
      if (/^(https?:|mailto:)/i.test(href.trim())) void openLink(href)
    }
    document.addEventListener('click', onClick)
    document.addEventListener('auxclick', onClick)
    return () => {
      document.removeEventListener('click', onClick)
      document.removeEventListener('auxclick', onClick)
    }
  }, [])

  // Global shortcuts.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return
      const s = useStore.getState()
      const k = e.key.toLowerCase()
      if (e.key === 'Escape' && !modKey(e) && !e.altKey && !e.shiftKey) {
        // Escape stops a streaming answer, unless something else (a dialog, a menu, a form) took it.
        if (s.settingsOpen || s.aboutOpen || document.querySelector('[aria-modal="true"]')) return
        const chatId = s.activeChatId
        if (s.view === 'chat' && selectIsStreaming(s, chatId)) {
          e.preventDefault()
          void s.stop(chatId ?? undefined)
        }
      } else if (modKey(e) && !e.altKey && !e.shiftKey && k === 'n') {
        e.preventDefault()
        if (s.settingsOpen || s.aboutOpen) return
        void s.newChat()
      } else if (modKey(e) && !e.altKey && (e.key === ',' || e.code === 'Comma')) {
        e.preventDefault()
        if (s.settingsOpen) s.closeSettings()
        else s.openSettings()
      } else if (modKey(e) && !e.altKey && !e.shiftKey && k === 'k') {
        e.preventDefault()
        if (!s.settingsOpen) s.focusComposer()
      } else if (modKey(e) && e.shiftKey && !e.altKey && (k === 'e' || e.code === 'KeyE')) {
        e.preventDefault()
        if (s.settingsOpen || s.aboutOpen || document.querySelector('[role="dialog"][aria-modal="true"], [role="alertdialog"]')) return
        const opening = !s.filesOpen
        if (s.view !== 'chat') s.setView('chat')
        s.toggleFiles(s.view !== 'chat' ? true : opening)
        if (s.view !== 'chat' || opening) {
          // Like an editor's explorer: the shortcut takes you into the panel (unless you moved on meanwhile).
          const from = document.activeElement
          const focusPanel = (tries: number) =>
            requestAnimationFrame(() => {
              if (document.activeElement !== from) return
              const panel = document.querySelector<HTMLElement>('[data-testid="files-panel"]')
              const item = panel?.querySelector<HTMLElement>('[role="treeitem"][tabindex="0"]')
              if (item) item.focus()
              else if (tries > 0) focusPanel(tries - 1)
              else panel?.querySelector<HTMLElement>('[data-testid="workspace-settings"]')?.focus()
            })
          focusPanel(10)
        } else {
          s.focusComposer()
        }
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  if (!ready || !stringsShown) {
    return (
      <div className="splash" aria-busy="true">
        <LogoMark size={40} />
      </div>
    )
  }

  if (bootError) {
    return (
      <div className="splash">
        <div className="boot-error" role="alert">
          <AlertIcon size={22} />
          <h1>{t('boot.title')}</h1>
          <p>{bootError}</p>
          <button type="button" className="btn btn--primary" onClick={() => void useStore.getState().init()}>
            <RetryIcon size={14} />
            {t('boot.retry')}
          </button>
        </div>
      </div>
    )
  }

  return (
    <div className="app">
      <Sidebar />
      {view === 'lab' ? (
        <Suspense fallback={<div className="lazy-fallback" aria-busy="true" />}>
          <ToolLab />
        </Suspense>
      ) : view === 'activity' ? (
        <Suspense fallback={<div className="lazy-fallback" aria-busy="true" />}>
          <ActivityView />
        </Suspense>
      ) : (
        <ChatView />
      )}
      {settingsUsed && (
        <Suspense fallback={null}>
          <SettingsDialog />
        </Suspense>
      )}
      {aboutUsed && (
        <Suspense fallback={null}>
          <AboutDialog />
        </Suspense>
      )}
      <Toasts />
    </div>
  )
}
