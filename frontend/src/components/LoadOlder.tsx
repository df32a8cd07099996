import { useTranslation } from '../i18n'
import { useStore } from '../store'
import { loadOlder } from '../store/history'
import '../styles/history.css'

/**
 * The top of a long chat's message list: a "Load older messages" button. The
 * list itself loads the next page when scrolled to the top and keeps what was
 * on screen in place when it is prepended (MessageList).
 */
export function LoadOlder({ chatId }: { chatId: string }) {
  const { t } = useTranslation()
  const hasOlder = useStore((s) => !!s.hasOlder[chatId])
  const loading = useStore((s) => !!s.loadingOlder[chatId])
  if (!hasOlder) return null
  return (
    <div className="load-older">
      <button
        type="button"
        className="btn btn--sm btn--ghost"
        data-testid="load-older"
        disabled={loading}
        aria-busy={loading}
        onClick={() => void loadOlder(chatId)}
      >
        {loading && <span className="spinner" aria-hidden="true" />}
        {loading ? t('history.loadingOlder') : t('history.loadOlder')}
      </button>
    </div>
  )
}
