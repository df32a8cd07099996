import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '../i18n'
import type { Message } from '../api'
import { useStore } from '../store'
import { compactAndRetry } from '../store/context'
import { setModelMode } from '../store/modelMode'
import { RetryIcon } from './icons'
import { WorkspaceFix } from './WorkspaceFix'
import './ErrorActions.css'

/** The longest wait a 429 is counted down for before retrying by itself. */
const MAX_WAIT_S = 120
/** Without a Retry-After, this long. */
const DEFAULT_WAIT_S = 10
/** One automatic retry per chat in this window: a server still refusing gets a plain Retry. */
const AUTO_WINDOW_MS = 5 * 60_000

const autoRetried = new Map<string, number>() // chat ID → when

/** The provider's Retry-After, as the backend's sentence gives it ("Retry after 7 seconds."). */
export function retryAfterSeconds(text: string | undefined): number {
  const m = /retry after (\d+) seconds?/i.exec(text ?? '')
  const n = m ? Number(m[1]) : DEFAULT_WAIT_S
  return Math.min(Math.max(n, 1), MAX_WAIT_S)
}

/**
 * What an error answer offers besides Retry: a 401 opens the provider's
 * settings; a 429 counts down its Retry-After and retries by itself once,
 * saying so (and can be called off).
 */
export function ErrorActions({ m, canRetry, onRetry }: { m: Message; canRetry: boolean; onRetry: () => void }) {
  const { t } = useTranslation()
  const openSettings = useStore((s) => s.openSettings)
  const rateLimited = m.errorCode === 'rate_limited' && canRetry
  const [left, setLeft] = useState<number | null>(() => {
    if (!rateLimited) return null
    const last = autoRetried.get(m.chatId)
    return last && Date.now() - last < AUTO_WINDOW_MS ? null : retryAfterSeconds(m.errorMessage)
  })
  const retry = useRef(onRetry)
  retry.current = onRetry

  useEffect(() => {
    if (left === null) return
    if (left <= 0) {
      autoRetried.set(m.chatId, Date.now())
      setLeft(null)
      retry.current()
      return
    }
    const id = window.setTimeout(() => setLeft((n) => (n === null ? null : n - 1)), 1000)
    return () => window.clearTimeout(id)
  }, [left, m.chatId])

  return (
    <>
      {m.errorCode === 'unauthorized' && (
        <button type="button" className="btn btn--sm btn--secondary" data-testid="open-provider-settings" onClick={() => openSettings('providers')}>
          {t('message.openProviderSettings')}
        </button>
      )}
      {m.errorCode === 'workspace_unavailable' && <WorkspaceFix chatId={m.chatId} />}
      {m.errorCode === 'tools_unsupported' && canRetry && <UseTextCalls chatId={m.chatId} onRetry={onRetry} />}
      {left !== null && left > 0 && (
        <span className="msg-error__auto" data-testid="auto-retry" role="status">
          {t('message.autoRetry', { count: left })}
          <button type="button" className="btn btn--xs btn--ghost" data-testid="cancel-auto-retry" onClick={() => setLeft(null)}>
            {t('message.autoRetryCancel')}
          </button>
        </span>
      )}
      {canRetry && (m.errorCode === 'context_overflow' || m.errorCode === 'context_too_small') && (
        <button type="button" className="btn btn--sm btn--primary" data-testid="compact-retry" onClick={() => void compactAndRetry(m.chatId)}>
          {t('context.compactRetry')}
        </button>
      )}
      {canRetry && (
        <button type="button" className="btn btn--sm btn--secondary" data-testid="retry" onClick={onRetry}>
          <RetryIcon size={14} />
          {t('message.retry')}
        </button>
      )}
    </>
  )
}

/**
 * A model that refuses native tools: this chat and Auto use text tool calls
 * for it from now on (the paradigm in the prompt), and the answer is asked
 * for again.
 */
function UseTextCalls({ chatId, onRetry }: { chatId: string; onRetry: () => void }) {
  const { t } = useTranslation()
  const chat = useStore((s) => s.chats.find((c) => c.id === chatId))
  const setChatOptions = useStore((s) => s.setChatOptions)
  const [busy, setBusy] = useState(false)
  if (!chat || chat.toolMode === 'text') return null
  const use = async () => {
    setBusy(true)
    const ok = await setChatOptions(chatId, { paradigm: chat.paradigm, recognizeOthers: chat.recognizeOthers, toolMode: 'text' })
    if (ok) {
      await setModelMode('text', false, { chatId, providerId: '', model: '' })
      onRetry()
    }
    setBusy(false)
  }
  return (
    <button type="button" className="btn btn--sm btn--secondary" data-testid="use-text-calls" disabled={busy} onClick={() => void use()}>
      {t('finish.useTextCalls')}
    </button>
  )
}
