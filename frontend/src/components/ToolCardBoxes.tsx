// A tool card's blocks: arguments/raw text (collapsible), the preview diff, the result.
import { useId, useState } from 'react'
import { useTranslation } from '../i18n'
import { isUiText, renderText } from '../i18n/backendText'
import type { Call } from '../api'
import { DiffView } from './Diff'
import { lineCount } from '../lib/calls'
import { AlertIcon } from './icons'

export const hasArgs = (a: unknown) => !!a && typeof a === 'object' && Object.keys(a).length > 0

/**
 * A result the card already says another way: a problem sent to the model
 * is the problem shown above; a denial is the decision line (its text holds
 * the instruction meant for the model, not for the user).
 */
export function saidAlready(c: Call): boolean {
  if (c.state === 'problem') return (c.result ?? '').trim() === (c.problem ?? '').trim()
  return c.state === 'denied'
}

const COLLAPSE_LINES = 8

/** Monospace block with a label; long content (> 8 lines) is collapsible. */
export function CodeBox({
  label,
  text,
  testId,
  muted,
  wrap,
  tone,
}: {
  label: string
  text: string
  testId?: string
  muted?: boolean
  wrap?: boolean
  tone?: 'error' | 'denied'
}) {
  const { t } = useTranslation()
  const id = useId()
  const lines = lineCount(text)
  const long = lines > COLLAPSE_LINES
  const [open, setOpen] = useState(false)
  const collapsed = long && !open
  return (
    <div className={`codebox ${muted ? 'codebox--muted' : ''} ${tone ? `codebox--${tone}` : ''}`}>
      <div className="codebox__label">
        <span>{label}</span>
        {long && (
          <button
            type="button"
            className="tool-card__toggle"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen((v) => !v)}
          >
            {open ? t('calls.collapse') : t('calls.expand', { count: lines })}
          </button>
        )}
      </div>
      <pre
        id={id}
        className={`tool-card__pre ${wrap ? 'tool-card__pre--wrap' : ''} ${collapsed ? 'is-collapsed' : ''}`}
        data-testid={testId}
      >
        {text}
      </pre>
    </div>
  )
}

/** What the call would change, computed before the decision: a summary and a diff (or why it could not be computed). */
export function PreviewBox({ preview, draft }: { preview: unknown; draft?: boolean }) {
  const { t } = useTranslation()
  if (!preview || typeof preview !== 'object') return null
  const p = preview as { summary?: unknown; diff?: unknown; error?: unknown; refused?: unknown; summaryText?: unknown; errorText?: unknown; text?: unknown }
  // The backend's sentences, in the language shown (backendText.ts).
  const said = (text: unknown, english: string) => renderText(t, isUiText(text) ? text : undefined, english)
  if (typeof p.refused === 'string' && p.refused) {
    // Known before Run: a path of this call leaves the workspace.
    return (
      <div className="tool-card__note tool-card__note--refused" data-testid="call-refusal" role="alert">
        <AlertIcon size={14} />
        <span>{t(draft ? 'finish.refusedEdit' : 'finish.refused', { why: said(p.text, p.refused) })}</span>
      </div>
    )
  }
  if (typeof p.error === 'string' && p.error) {
    return (
      <div className="tool-card__note tool-card__note--preview" data-testid="call-preview" role="note">
        <AlertIcon size={14} />
        <span>{t(draft ? 'calls.previewEditFailed' : 'calls.previewFailed', { error: said(p.errorText, p.error) })}</span>
      </div>
    )
  }
  const summary = typeof p.summary === 'string' ? said(p.summaryText, p.summary) : ''
  const diff = typeof p.diff === 'string' ? p.diff : ''
  if (!summary && !diff) return null
  return (
    <div className={`tool-card__preview ${draft ? 'is-draft' : ''}`} data-testid="call-preview" data-draft={draft ? 'true' : undefined}>
      {draft && <p className="tool-card__preview-summary tool-card__preview-draft">{t('calls.previewWithEdit')}</p>}
      {summary && <p className="tool-card__preview-summary">{summary}</p>}
      {diff && <DiffView diff={diff} />}
    </div>
  )
}

export function ResultBox({ call: c }: { call: Call }) {
  const { t } = useTranslation()
  const tone = c.state === 'error' || (c.state === 'problem' && !!c.resultStatus) ? 'error' : c.state === 'denied' ? 'denied' : undefined
  const label =
    c.state === 'denied'
      ? t('calls.toldModel')
      : c.state === 'error'
        ? t('calls.errorOutput')
        : c.state === 'problem'
          ? t('calls.toldModel')
          : c.state === 'interrupted'
            ? t('calls.lastOutput')
            : t('calls.result')
  return (
    <div className="tool-card__result">
      <CodeBox label={label} text={renderText(t, c.resultText, c.result ?? '')} testId="call-result" wrap tone={tone} />
      {c.truncated && (
        <p className="tool-card__truncated" data-testid="call-truncated">
          {t('calls.truncated')}
        </p>
      )}
    </div>
  )
}

/** Why a call is a problem card, in the language shown (the model reads the English). */
export function ProblemNote({ call: c, alert }: { call: Call; alert?: boolean }) {
  const { t } = useTranslation()
  if (c.state !== 'problem' || !c.problem) return null
  return (
    <div className="tool-card__problem" data-testid="call-problem" role={alert ? 'alert' : undefined}>
      <AlertIcon size={15} />
      <span>{renderText(t, c.problemText, c.problem)}</span>
    </div>
  )
}
