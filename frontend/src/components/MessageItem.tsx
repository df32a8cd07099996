import { memo, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Message } from '../api'
import { Markdown, CopyButton } from './Markdown'
import { AlertIcon, BrainIcon, ChevronIcon, RetryIcon, StopCircleIcon } from './icons'

type Props = {
  message: Message
  /** Whether this is the last assistant answer (the one Retry replaces). */
  canRetry: boolean
  onRetry: () => void
}

function MessageItemImpl({ message: m, canRetry, onRetry }: Props) {
  if (m.role === 'user') return <UserMessage m={m} />
  if (m.role === 'system') {
    return (
      <div className="msg msg--system" data-testid="message" data-role="system" data-status={m.status} data-message-id={m.id}>
        <Markdown text={m.content} />
      </div>
    )
  }
  return <AssistantMessage m={m} canRetry={canRetry} onRetry={onRetry} />
}

export const MessageItem = memo(MessageItemImpl)

function UserMessage({ m }: { m: Message }) {
  const { t } = useTranslation()
  return (
    <div className="msg msg--user" data-testid="message" data-role="user" data-status={m.status} data-message-id={m.id}>
      <div className="msg--user__bubble">
        {m.kind === 'tool_results' ? (
          <div className="msg__tool-results">
            <span className="msg__tool-results-label">{t('message.toolResults')}</span>
            <pre>{m.content}</pre>
          </div>
        ) : (
          <p className="msg__plain">{m.content}</p>
        )}
      </div>
      <div className="msg__actions msg__actions--user">
        <CopyButton text={m.content} showLabel={false} className="icon-btn icon-btn--sm" label={t('message.copy')} />
      </div>
    </div>
  )
}

function AssistantMessage({ m, canRetry, onRetry }: { m: Message; canRetry: boolean; onRetry: () => void }) {
  const { t } = useTranslation()
  const streaming = m.status === 'streaming'
  const hasContent = m.content.length > 0
  const hasReasoning = m.reasoning.length > 0
  const u = m.usage
  return (
    <article
      className={`msg msg--assistant ${streaming ? 'is-streaming' : ''}`}
      data-testid="message"
      data-role="assistant"
      data-status={m.status}
      data-message-id={m.id}
      aria-busy={streaming}
    >
      {hasReasoning && <Reasoning text={m.reasoning} streaming={streaming} answering={hasContent} />}

      {hasContent && <Markdown text={m.content} className={streaming ? 'is-streaming' : undefined} />}

      {streaming && !hasContent && !hasReasoning && (
        <div className="typing" role="status" aria-label={t('message.thinking')}>
          <span />
          <span />
          <span />
        </div>
      )}

      {m.status === 'error' && (
        <div className="msg-error" data-testid="message-error" role="alert">
          <AlertIcon size={18} className="msg-error__icon" />
          <div className="msg-error__body">
            <p className="msg-error__title">{t('message.errorTitle')}</p>
            <p className="msg-error__text">{m.errorMessage || t('message.errorUnknown')}</p>
            {m.errorCode && <code className="msg-error__code">{m.errorCode}</code>}
          </div>
          {canRetry && (
            <button type="button" className="btn btn--sm btn--secondary" data-testid="retry" onClick={onRetry}>
              <RetryIcon size={14} />
              {t('message.retry')}
            </button>
          )}
        </div>
      )}

      {!streaming && (hasContent || u.totalTokens > 0 || m.model || m.status === 'interrupted') && (
        <footer className="msg__footer">
          {m.status === 'interrupted' && (
            <span className="msg-note" data-testid="message-interrupted">
              <StopCircleIcon size={14} />
              <span>{hasContent ? t('message.stopped') : t('message.interrupted')}</span>
              {canRetry && (
                <button type="button" className="btn btn--xs btn--ghost" data-testid="retry" onClick={onRetry}>
                  <RetryIcon size={13} />
                  {t('message.retry')}
                </button>
              )}
            </span>
          )}
          {hasContent && (
            <CopyButton text={m.content} showLabel={false} className="icon-btn icon-btn--sm" label={t('message.copy')} />
          )}
          {(m.model || u.totalTokens > 0) && (
            <span className="msg__usage" data-testid="usage">
              {[
                m.model,
                u.totalTokens > 0
                  ? t('message.usage', { total: u.totalTokens, prompt: u.promptTokens, completion: u.completionTokens })
                  : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          )}
        </footer>
      )}
    </article>
  )
}

function Reasoning({ text, streaming, answering }: { text: string; streaming: boolean; answering: boolean }) {
  const { t } = useTranslation()
  const id = useId()
  // Open while only reasoning streams; collapsed once the answer starts —
  // unless the person toggled it themselves.
  const [userOpen, setUserOpen] = useState<boolean | null>(null)
  const open = userOpen ?? (streaming && !answering)
  const thinking = streaming && !answering
  return (
    <div className={`reasoning ${open ? 'is-open' : ''}`} data-testid="reasoning">
      <button
        type="button"
        className="reasoning__toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setUserOpen(!open)}
      >
        <BrainIcon size={14} />
        <span className={thinking ? 'shimmer' : undefined}>{thinking ? t('message.thinking') : t('message.reasoning')}</span>
        <ChevronIcon size={14} className="reasoning__chev" />
      </button>
      {open && (
        <div id={id} className="reasoning__body">
          <Markdown text={text} />
        </div>
      )}
    </div>
  )
}
