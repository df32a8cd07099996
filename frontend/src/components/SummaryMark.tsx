import { useTranslation } from '../i18n'
import type { Summary } from '../api'
import { digits } from './ContextGauge'
import { compactNow, toggleSummary, undoSummary, useChatSummaries, useContextUsage } from '../store/context'

/**
 * Where the chat was compacted: after the last message a summary covers, a
 * visible item says so, shows the summary, and offers Undo and Run again.
 * The messages above stay as they are.
 */
export function SummaryMark({ chatId, messageId }: { chatId: string | null; messageId: string }) {
  const list = useChatSummaries(chatId)
  let latest: Summary | null = null
  for (const s of list) if (s.throughId === messageId) latest = s
  if (!chatId || !latest) return null
  return <SummaryCard chatId={chatId} s={latest} versions={list.length} />
}

function SummaryCard({ chatId, s, versions }: { chatId: string; s: Summary; versions: number }) {
  const { t } = useTranslation()
  const open = useContextUsage((st) => !!st.expanded[s.id])
  const busy = useContextUsage((st) => !!st.compacting[chatId])
  return (
    <section className={`summary-mark summary-mark--${s.state}`} data-testid="compaction" data-state={s.state} data-version={s.version} aria-label={t('context.mark.title')}>
      <header className="summary-mark__head">
        <span className="summary-mark__rule" aria-hidden="true" />
        <strong className="summary-mark__title">{t('context.mark.title')}</strong>
        <span className="summary-mark__version" title={`${s.version} / ${versions}`}>
          {t('context.mark.version', { version: s.version })}
        </span>
        {s.state === 'active' && <span className="summary-mark__badge">{t('context.mark.active')}</span>}
        <span className="summary-mark__rule" aria-hidden="true" />
      </header>
      <p className="summary-mark__detail">
        {t('context.mark.detail', {
          covered: digits(s.covered),
          model: s.model || '—',
          before: digits(s.tokensBefore),
          after: digits(s.tokensAfter),
        })}
      </p>
      {s.state === 'undone' && <p className="summary-mark__detail">{t('context.mark.undone')}</p>}
      {s.state === 'replaced' && <p className="summary-mark__detail">{t('context.mark.replaced')}</p>}
      <div className="summary-mark__actions">
        <button type="button" className="btn btn--xs btn--ghost" data-testid="summary-toggle" aria-expanded={open} onClick={() => toggleSummary(s.id)}>
          {open ? t('context.mark.hide') : t('context.mark.show')}
        </button>
        {s.state === 'active' && (
          <button type="button" className="btn btn--xs btn--ghost" data-testid="summary-undo" onClick={() => void undoSummary(chatId, s.id)}>
            {t('context.mark.undo')}
          </button>
        )}
        <button type="button" className="btn btn--xs btn--ghost" data-testid="summary-rerun" disabled={busy} onClick={() => void compactNow(chatId)}>
          {busy ? t('context.compacting') : t('context.mark.rerun')}
        </button>
      </div>
      {open && (
        <div className="summary-mark__text" data-testid="summary-text">
          {s.content}
        </div>
      )}
    </section>
  )
}
