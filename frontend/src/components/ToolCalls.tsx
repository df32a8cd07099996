import { useState } from 'react'
import { useTranslation } from '../i18n'
import { selectMessageCalls, useStore } from '../store'
import { isUndecided } from '../store/calls'
import { ToolCard } from './ToolCard'
import { BanIcon, PlayIcon } from './icons'

/** The cards of one assistant message, with Run all / Deny all when several wait. */
export function MessageCalls({ messageId, paradigm }: { messageId: string; paradigm?: string }) {
  const { t } = useTranslation()
  const calls = useStore((s) => selectMessageCalls(s, messageId))
  const runAll = useStore((s) => s.runAll)
  const denyAll = useStore((s) => s.denyAll)
  const [busy, setBusy] = useState(false)
  if (calls.length === 0) return null
  const waiting = calls.filter(isUndecided).length

  const bulk = async (fn: () => Promise<void>) => {
    setBusy(true)
    try {
      await fn()
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="tool-calls" data-testid="tool-calls" aria-label={t('calls.groupLabel', { count: calls.length })}>
      {waiting >= 2 && (
        <div className="tool-calls__bar" data-testid="bulk-bar">
          <span className="tool-calls__count">{t('calls.waitingCount', { count: waiting })}</span>
          <button
            type="button"
            className="btn btn--xs btn--primary"
            data-testid="run-all"
            disabled={busy}
            onClick={() => void bulk(() => runAll(messageId))}
          >
            <PlayIcon size={11} />
            {t('calls.runAll', { count: waiting })}
          </button>
          <button
            type="button"
            className="btn btn--xs btn--secondary"
            data-testid="deny-all"
            disabled={busy}
            onClick={() => void bulk(() => denyAll(messageId, ''))}
          >
            <BanIcon size={13} />
            {t('calls.denyAll')}
          </button>
        </div>
      )}
      {calls.map((c) => (
        <ToolCard key={c.id} call={c} paradigm={paradigm} />
      ))}
    </section>
  )
}
