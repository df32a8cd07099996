import { MessageAttachments } from './Attachments'
import './MessageItem.css'
import { memo, Suspense, useId, useMemo, useState } from 'react'
import { ErrorActions } from './ErrorActions'
import { Waiting } from './Waiting'
import { useTranslation } from '../i18n'
import { renderText } from '../i18n/backendText'
import type { Call, Message } from '../api'
import { selectMessageCalls, useStore } from '../store'
import { Markdown } from './Markdown'
import { CopyButton } from './CopyButton'
import { FormingCards, MessageCalls } from './messageParts'
import { collapseText, USER_LIMITS } from '../lib/collapse'
import { splitStable } from '../lib/streamSplit'
import './message.css'
import { useForming } from '../store/forming'
import { AlertIcon, BrainIcon, ChevronIcon, ReturnIcon, RetryIcon, StopCircleIcon } from './icons'
import { EditButton, MessageEditor, RegenerateButton, VersionSwitcher } from './MessageHistory'

type Props = {
  message: Message
  /** Whether this is the last assistant answer (the one Retry replaces). */
  canRetry: boolean
  onRetry: () => void
  /** The chat's paradigm (cards tag calls read in another format). */
  paradigm?: string
}

function MessageItemImpl({ message: m, canRetry, onRetry, paradigm }: Props) {
  if (m.role === 'user' && m.kind === 'tool_results') return <ToolResultsMessage m={m} />
  if (m.role === 'user') return <UserMessage m={m} />
  if (m.role === 'system') {
    return (
      <div className="msg msg--system" data-testid="message" data-role="system" data-status={m.status} data-message-id={m.id}>
        <Markdown text={m.content} />
      </div>
    )
  }
  return <AssistantMessage m={m} canRetry={canRetry} onRetry={onRetry} paradigm={paradigm} />
}

export const MessageItem = memo(MessageItemImpl)

function UserMessage({ m }: { m: Message }) {
  const { t } = useTranslation()
  const [editing, setEditing] = useState(false)
  // A huge paste shows its first lines until "Show all".
  const collapsed = useMemo(() => collapseText(m.content, USER_LIMITS), [m.content])
  const [showAll, setShowAll] = useState(false)
  return (
    <div className="msg msg--user" data-testid="message" data-role="user" data-status={m.status} data-message-id={m.id}>
      {editing ? (
        <MessageEditor m={m} onClose={() => setEditing(false)} />
      ) : (
        <div className="msg--user__bubble">
          <MessageAttachments items={m.attachments} />
          <p className="msg__plain">{collapsed && !showAll ? collapsed.head : m.content}</p>
          {collapsed && (
            <button
              type="button"
              className="show-all"
              data-testid="show-all"
              aria-expanded={showAll}
              onClick={() => setShowAll((v) => !v)}
            >
              {showAll ? t('message.showLess') : t('message.showAll', { count: collapsed.totalLines })}
            </button>
          )}
        </div>
      )}
      <div className="msg__actions msg__actions--user">
        <VersionSwitcher m={m} />
        {!editing && <EditButton m={m} onEdit={() => setEditing(true)} />}
        <CopyButton text={m.content} showLabel={false} className="icon-btn icon-btn--sm" label={t('message.copy')} />
      </div>
    </div>
  )
}

/** Counts the results in a tool-results message, by status (any of the three paradigms). */
export function countResults(content: string): { total: number; success: number; error: number; denied: number } {
  const out = { total: 0, success: 0, error: 0, denied: 0 }
  const re = /"status"\s*:\s*"(success|error|denied)"|执行状态:\s*\S+\s+(SUCCESS|ERROR|DENIED)/g
  for (const match of content.matchAll(re)) {
    const st = (match[1] ?? match[2].toLowerCase()) as 'success' | 'error' | 'denied'
    out[st]++
    out.total++
  }
  if (out.total === 0) {
    out.total = (content.match(/"tool_call_result"|<tool_result>|\[\[VCP调用结果信息汇总/g) ?? []).length
  }
  return out
}

/** A user message carrying tool results: a compact, collapsible block (not a bubble). */
function ToolResultsMessage({ m }: { m: Message }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const id = useId()
  const n = useMemo(() => countResults(m.content), [m.content])
  const parts = [
    n.success ? t('results.succeeded', { count: n.success }) : null,
    n.error ? t('results.failed', { count: n.error }) : null,
    n.denied ? t('results.denied', { count: n.denied }) : null,
  ].filter(Boolean)
  return (
    <div
      className="msg msg--tool-results"
      data-testid="message"
      data-role="user"
      data-kind="tool_results"
      data-status={m.status}
      data-message-id={m.id}
    >
      <div className={`tool-results ${open ? 'is-open' : ''}`} data-testid="tool-results">
        <button
          type="button"
          className="tool-results__toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((v) => !v)}
          data-testid="tool-results-toggle"
        >
          <ReturnIcon size={14} />
          <span className="tool-results__title">
            {n.total > 0 ? t('results.titleCount', { count: n.total }) : t('results.title')}
          </span>
          {parts.length > 0 && <span className="tool-results__meta">· {parts.join(' · ')}</span>}
          <span className="tool-results__hint">· {t('results.sentToModel')}</span>
          <ChevronIcon size={14} className="tool-results__chev" />
        </button>
        {open && (
          <div id={id} className="tool-results__body">
            <pre>{m.content}</pre>
            <CopyButton text={m.content} showLabel={false} className="icon-btn icon-btn--sm tool-results__copy" label={t('message.copy')} />
          </div>
        )}
      </div>
    </div>
  )
}

/**
 * The text of an answer without the calls the cards already show: each call's
 * raw text is cut out, and fences left empty are dropped. (Copy keeps the
 * full text.)
 */
export function stripCallText(content: string, calls: Call[]): string {
  if (calls.length === 0) return content
  let out = content
  let cut = false
  for (const c of calls) {
    const raw = c.raw?.trim()
    if (!raw) continue
    const i = out.indexOf(raw)
    if (i < 0) continue
    out = out.slice(0, i) + out.slice(i + raw.length)
    cut = true
  }
  if (!cut) return content
  return out
    .replace(/(^|\n)[ \t]*(```|~~~)[\w+-]*[ \t]*\n\s*\2[ \t]*(?=\n|$)/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

function AssistantMessage({
  m,
  canRetry,
  onRetry,
  paradigm,
}: {
  m: Message
  canRetry: boolean
  onRetry: () => void
  paradigm?: string
}) {
  const { t } = useTranslation()
  const streaming = m.status === 'streaming'
  const calls = useStore((s) => selectMessageCalls(s, m.id))
  const send = useStore((s) => s.send)
  const cutOff = m.status === 'complete' && m.errorCode === 'cut_off'
  const forming = useForming((s) => streaming && m.id in s.byMessage)
  const shown = useMemo(() => (streaming ? m.content : stripCallText(m.content, calls)), [streaming, m.content, calls])
  const hasText = shown.length > 0
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

      {hasText && (streaming ? <StreamingMarkdown text={shown} /> : <Markdown text={shown} />)}

      <Suspense fallback={null}>
        {!streaming && <MessageCalls messageId={m.id} paradigm={paradigm} />}
        {streaming && <FormingCards messageId={m.id} />}
      </Suspense>

      {streaming && !hasContent && !hasReasoning && !forming && (
        <Waiting since={m.createdAt} />
      )}

      {m.status === 'error' && (
        <div className="msg-error" data-testid="message-error" role="alert">
          <AlertIcon size={18} className="msg-error__icon" />
          <div className="msg-error__body">
            <p className="msg-error__title">{t('message.errorTitle')}</p>
            <p className="msg-error__text">{renderText(t, m.errorText, m.errorMessage || t('message.errorUnknown'))}</p>
            {m.errorCode && <code className="msg-error__code">{m.errorCode}</code>}
          </div>
          <ErrorActions m={m} canRetry={canRetry} onRetry={onRetry} />
        </div>
      )}

      {!streaming && (hasContent || u.totalTokens > 0 || m.model || m.status === 'interrupted' || cutOff || (m.versions ?? 1) > 1) && (
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
          {cutOff && (
            <span className="msg-note" data-testid="message-cut-off" title={m.errorMessage}>
              <AlertIcon size={14} />
              <span>{t('contextWindow.cutOff')}</span>
              {canRetry && (
                <button type="button" className="btn btn--xs btn--ghost" data-testid="continue-answer" onClick={() => void send(String(t('contextWindow.continuePrompt')))}>
                  {t('contextWindow.continue')}
                </button>
              )}
            </span>
          )}
          {hasContent && (
            <CopyButton text={m.content} showLabel={false} className="icon-btn icon-btn--sm" label={t('message.copy')} />
          )}
          {m.kind === 'text' && <RegenerateButton m={m} />}
          <VersionSwitcher m={m} />
          {(m.model || u.totalTokens > 0) && (
            <span className="msg__usage" data-testid="usage">
              {[
                m.model,
                u.totalTokens > 0
                  ? t('message.usage', { total: u.totalTokens, prompt: u.promptTokens, completion: u.completionTokens })
                  : null,
                u.cacheReadTokens || u.cacheWriteTokens
                  ? t('message.usageCache', { read: u.cacheReadTokens ?? 0, write: u.cacheWriteTokens ?? 0 })
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

/** The answer while it streams: finished blocks render once, only the tail per delta. */
function StreamingMarkdown({ text }: { text: string }) {
  const [stable, tail] = splitStable(text)
  return (
    <>
      {stable && <Markdown text={stable} />}
      {tail && <Markdown text={tail} className="is-streaming" />}
    </>
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
