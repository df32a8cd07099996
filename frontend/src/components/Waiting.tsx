import { useEffect, useState } from 'react'
import { useTranslation } from '../i18n'
import { formatDuration } from '../lib/calls'
import './Waiting.css'

/** Before a slow reply says this, the dots are enough. */
const SHOW_AFTER_MS = 2000

/**
 * The dots of an answer that has not started, and after a moment how long
 * it has been waiting (a server that hangs otherwise looks like a frozen app).
 */
export function Waiting({ since }: { since: number }) {
  const { t } = useTranslation()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(id)
  }, [])
  const waited = Math.max(0, now - since)
  const secs = Math.floor(waited / 1000)
  return (
    <div className="waiting" role="status" aria-label={t('message.thinking')}>
      <span className="typing" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      {waited >= SHOW_AFTER_MS && (
        <span className="waiting__for" data-testid="waiting-for">
          {t('message.waitingFor', { time: secs < 60 ? `${secs} s` : formatDuration(secs * 1000) })}
        </span>
      )}
    </div>
  )
}
