import { memo, useLayoutEffect, useMemo, useRef } from 'react'
import { useTranslation } from '../i18n'
import type { FormingCall } from '../api'
import { callSummary } from '../lib/calls'
import { selectForming, useForming } from '../store/forming'
import { CheckIcon, WrenchIcon } from './icons'
import '../styles/toolmode.css'

/**
 * The calls a streaming answer is writing, as cards that form while the
 * model writes. Display only: nothing here can be run or denied — the real
 * cards replace them when the answer ends.
 */
export function FormingCards({ messageId }: { messageId: string }) {
  const { t } = useTranslation()
  const calls = useForming((s) => selectForming(s, messageId))
  if (calls.length === 0) return null
  return (
    <section className="tool-calls tool-calls--forming" data-testid="forming-cards" aria-label={t('forming.groupLabel', { count: calls.length })}>
      {calls.map((c, i) => (
        // A call keeps its place in the list while it grows: the index is its identity.
        <FormingCard key={i} call={c} />
      ))}
    </section>
  )
}

/** Pretty JSON when the text so far parses as an object or list; otherwise the text as it is. */
export function formingText(args: string): { text: string; value: unknown } {
  const src = args.trim()
  if (src.startsWith('{') || src.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(src)
      if (value && typeof value === 'object') return { text: JSON.stringify(value, null, 2), value }
    } catch {
      // still being written
    }
  }
  return { text: args, value: undefined }
}

const same = (a: { call: FormingCall }, b: { call: FormingCall }) =>
  a.call.name === b.call.name && a.call.arguments === b.call.arguments && a.call.format === b.call.format && a.call.complete === b.call.complete

const FormingCard = memo(function FormingCard({ call: c }: { call: FormingCall }) {
  const { t } = useTranslation()
  const { text, value } = useMemo(() => formingText(c.arguments), [c.arguments])
  const summary = value !== undefined && c.name ? callSummary(c.name, value) : ''
  const pre = useRef<HTMLPreElement>(null)
  const follow = useRef(true)

  // The text grows at its end: keep it in view unless the person scrolled up in it.
  useLayoutEffect(() => {
    const el = pre.current
    if (el && follow.current) el.scrollTop = el.scrollHeight
  }, [text])

  const native = c.format === 'native'
  const name = c.name || t('forming.reading')
  return (
    <div
      className={`tool-card tool-card--forming ${c.complete ? 'is-complete' : ''}`}
      data-testid="forming-card"
      data-tool={c.name}
      data-state="forming"
      data-format={c.format}
      data-complete={c.complete ? 'true' : 'false'}
      role="group"
      aria-label={t('forming.cardLabel', { name })}
      aria-busy={!c.complete}
    >
      <div className="tool-card__head">
        <span className="tool-card__icon" aria-hidden="true">
          <WrenchIcon size={14} />
        </span>
        {c.name ? (
          <span className="tool-card__name" data-testid="forming-name">
            {c.name}
          </span>
        ) : (
          <span className="tool-card__name forming__placeholder shimmer" data-testid="forming-name">
            {name}
          </span>
        )}
        {summary && (
          <span className="tool-card__summary" title={summary}>
            {summary}
          </span>
        )}
        <span className="tool-card__head-end">
          {c.format && (
            <span
              className={`tool-card__format ${native ? 'tool-card__format--native' : ''}`}
              data-testid="forming-format"
              title={native ? t('calls.nativeHint') : undefined}
            >
              {native ? t('calls.native') : c.format}
            </span>
          )}
          <span className={`call-badge call-badge--forming ${c.complete ? 'is-complete' : ''}`} data-testid="forming-status">
            {c.complete ? <CheckIcon size={12} /> : <span className="forming__dots" aria-hidden="true"><span /><span /><span /></span>}
            {c.complete ? t('forming.written') : t('forming.writing')}
          </span>
        </span>
      </div>
      <div className="tool-card__body">
        <div className="codebox">
          <div className="codebox__label">
            <span>{t('forming.argsSoFar')}</span>
          </div>
          <pre
            ref={pre}
            className="tool-card__pre tool-card__pre--wrap forming__args"
            data-testid="forming-args"
            tabIndex={0}
            aria-label={t('forming.argsSoFar')}
            onScroll={(e) => {
              const el = e.currentTarget
              follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8
            }}
          >
            {text}
            {!c.complete && <span className="forming__caret" aria-hidden="true" />}
          </pre>
        </div>
        {c.complete && (
          <p className="forming__note" data-testid="forming-waiting">
            {t('forming.waiting')}
          </p>
        )}
      </div>
    </div>
  )
}, same)
