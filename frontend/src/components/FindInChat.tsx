import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import { toApiError, type SearchHit } from '../api'
import { useStore } from '../store'
import { HIGHLIGHT_MS, revealMessage, searchChat, SEARCH_DEBOUNCE_MS, useHistory } from '../store/history'
import { ChevronDownSmallIcon, ChevronUpIcon, CloseIcon, SearchIcon } from './icons'
import { scrollToMessage } from '../lib/scrollToMessage'
import '../styles/history.css'

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/**
 * Find in chat (Ctrl+F / ⌘F): searches the open chat, "n of m", ↑/↓ (Enter /
 * Shift+Enter) scroll to each hit and flash it. Also carries out the
 * highlight requests of the sidebar search (see useRevealHighlight).
 */
export function FindInChat() {
  const { t } = useTranslation()
  const chatId = useStore((s) => s.activeChatId)
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const [hits, setHits] = useState<SearchHit[] | null>(null)
  const [index, setIndex] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const toggle = useRef<HTMLButtonElement>(null)
  useRevealHighlight()

  // Another chat: start over.
  useEffect(() => {
    setOpen(false)
    setQuery('')
    setHits(null)
  }, [chatId])

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.defaultPrevented) return
      const mod = isMac() ? e.metaKey : e.ctrlKey
      if (!mod || e.shiftKey || e.altKey || (e.key.toLowerCase() !== 'f' && e.code !== 'KeyF')) return
      const s = useStore.getState()
      if (!s.activeChatId || s.view !== 'chat' || s.settingsOpen || s.aboutOpen) return
      if (document.querySelector('[role="dialog"][aria-modal="true"], [role="alertdialog"]')) return
      e.preventDefault()
      setOpen(true)
      requestAnimationFrame(() => {
        input.current?.focus()
        input.current?.select()
      })
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // Debounced search of this chat.
  useEffect(() => {
    if (!open || !chatId) return
    const q = query.trim()
    if (!q) {
      setHits(null)
      return
    }
    let live = true
    const timer = setTimeout(async () => {
      try {
        const found = await searchChat(chatId, q)
        if (!live) return
        setHits(found)
        setIndex(0)
        if (found[0]) void revealMessage(chatId, found[0].messageId, found[0].callId)
      } catch (err) {
        if (!live) return
        setHits([])
        useStore.getState().toastError('history.errors.find', toApiError(err))
      }
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [query, open, chatId])

  const go = (dir: 1 | -1) => {
    if (!chatId || !hits || hits.length === 0) return
    const next = (index + dir + hits.length) % hits.length
    setIndex(next)
    void revealMessage(chatId, hits[next].messageId, hits[next].callId)
  }

  const close = () => {
    setOpen(false)
    setQuery('')
    setHits(null)
    requestAnimationFrame(() => toggle.current?.focus())
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault()
      go(e.shiftKey ? -1 : 1)
    } else if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      close()
    } else if (e.key === 'ArrowDown') {
      e.preventDefault()
      go(1)
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      go(-1)
    }
  }

  if (!chatId) return null
  if (!open) {
    return (
      <button
        ref={toggle}
        type="button"
        className="icon-btn find-toggle"
        data-testid="find-open"
        aria-label={t('history.find.open')}
        aria-keyshortcuts={isMac() ? 'Meta+F' : 'Control+F'}
        title={`${t('history.find.open')} (${isMac() ? '⌘F' : 'Ctrl+F'})`}
        onClick={() => {
          setOpen(true)
          requestAnimationFrame(() => input.current?.focus())
        }}
      >
        <SearchIcon size={16} />
      </button>
    )
  }
  const total = hits?.length ?? 0
  return (
    <div className="find-bar" role="search" data-testid="find-bar">
      <SearchIcon size={14} aria-hidden="true" />
      <input
        ref={input}
        type="text"
        className="find-bar__input"
        data-testid="find-in-chat"
        aria-label={t('history.find.label')}
        placeholder={t('history.find.placeholder')}
        value={query}
        spellCheck={false}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <span className={`find-bar__count ${hits && total === 0 ? 'is-none' : ''}`} data-testid="find-count" role="status" aria-live="polite">
        {hits ? (total > 0 ? t('history.find.count', { current: index + 1, total }) : t('history.find.none')) : ''}
      </span>
      <button
        type="button"
        className="icon-btn icon-btn--sm"
        data-testid="find-prev"
        aria-label={t('history.find.prev')}
        title={t('history.find.prev')}
        disabled={total === 0}
        onClick={() => go(-1)}
      >
        <ChevronUpIcon size={14} />
      </button>
      <button
        type="button"
        className="icon-btn icon-btn--sm"
        data-testid="find-next"
        aria-label={t('history.find.next')}
        title={t('history.find.next')}
        disabled={total === 0}
        onClick={() => go(1)}
      >
        <ChevronDownSmallIcon size={14} />
      </button>
      <button type="button" className="icon-btn icon-btn--sm" data-testid="find-close" aria-label={t('history.find.close')} title={t('history.find.close')} onClick={close}>
        <CloseIcon size={14} />
      </button>
    </div>
  )
}

/**
 * Carries out highlight requests: once the message is on screen, scrolls it
 * into view and sets data-highlight="true" on it for a moment.
 */
export function useRevealHighlight() {
  const highlight = useHistory((s) => s.highlight)
  useEffect(() => {
    if (!highlight) return
    let frame = 0
    let tries = 0
    let cleared: ReturnType<typeof setTimeout> | null = null
    let again: ReturnType<typeof setTimeout> | null = null
    let marked: HTMLElement[] = []
    const find = () => {
      const msg = document.querySelector<HTMLElement>(
        `[data-testid="message"][data-message-id="${CSS.escape(highlight.messageId)}"]`,
      )
      const card = highlight.callId
        ? document.querySelector<HTMLElement>(`[data-testid="tool-card"][data-call-id="${CSS.escape(highlight.callId)}"]`)
        : null
      return { msg, target: card ?? msg }
    }
    const scroll = (el: HTMLElement) => {
      el.scrollIntoView?.({ block: 'center' })
      // Let the list know at once that we left the bottom (so it stops following).
      el.closest('.messages')?.dispatchEvent(new Event('scroll', { bubbles: false }))
    }
    const attempt = () => {
      const { msg, target } = find()
      if (!msg || !target) {
        // The list is virtualized: a message off screen is not mounted until scrolled to.
        if (tries % 15 === 0) scrollToMessage(highlight.messageId)
        if (tries++ < 120) frame = requestAnimationFrame(attempt)
        return
      }
      // Through the list first: it stops following the bottom and places the message
      // (a virtualized list may still be settling its first position).
      scrollToMessage(highlight.messageId)
      scroll(target)
      marked = [msg, ...(target !== msg ? [target] : [])]
      for (const el of marked) el.setAttribute('data-highlight', 'true')
      // Late layout (calls loading, images) may move it: once more a little later.
      again = setTimeout(() => {
        const { target: t2 } = find()
        if (t2) {
          const r = t2.getBoundingClientRect()
          if (r.bottom < 0 || r.top > window.innerHeight) scroll(t2)
        }
      }, 300)
      cleared = setTimeout(() => {
        for (const el of marked) el.removeAttribute('data-highlight')
      }, HIGHLIGHT_MS)
    }
    frame = requestAnimationFrame(attempt)
    return () => {
      cancelAnimationFrame(frame)
      if (again) clearTimeout(again)
      if (cleared) clearTimeout(cleared)
      for (const el of marked) el.removeAttribute('data-highlight')
    }
  }, [highlight])
}
