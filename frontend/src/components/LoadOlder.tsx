import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { useStore } from '../store'
import { loadOlder } from '../store/history'
import '../styles/history.css'

/**
 * The top of a long chat's message list: a "Load older messages" button, also
 * triggered by scrolling near the top. Keeps what was on screen in place when
 * the older page is prepended.
 */
export function LoadOlder({ chatId, scroller }: { chatId: string; scroller: RefObject<HTMLDivElement> }) {
  const { t } = useTranslation()
  const hasOlder = useStore((s) => !!s.hasOlder[chatId])
  const loading = useStore((s) => !!s.loadingOlder[chatId])
  const firstId = useStore((s) => s.messages[chatId]?.[0]?.id)
  // Distance from the bottom before the page came in.
  const anchor = useRef<number | null>(null)

  const load = () => {
    const el = scroller.current
    if (!hasOlder || loading) return
    anchor.current = el ? el.scrollHeight - el.scrollTop : null
    void loadOlder(chatId)
  }

  useLayoutEffect(() => {
    const el = scroller.current
    if (el && anchor.current !== null) {
      el.scrollTop = el.scrollHeight - anchor.current
      anchor.current = null
    }
  }, [firstId, scroller])

  // Scrolling to the top loads the next page.
  const loadRef = useRef(load)
  loadRef.current = load
  useEffect(() => {
    const el = scroller.current
    if (!el || !hasOlder) return
    const onScroll = () => {
      if (el.scrollTop < 60) loadRef.current()
    }
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => el.removeEventListener('scroll', onScroll)
  }, [scroller, hasOlder])

  if (!hasOlder) return null
  return (
    <div className="load-older">
      <button type="button" className="btn btn--sm btn--ghost" data-testid="load-older" disabled={loading} aria-busy={loading} onClick={load}>
        {loading && <span className="spinner" aria-hidden="true" />}
        {loading ? t('history.loadingOlder') : t('history.loadOlder')}
      </button>
    </div>
  )
}
