import { memo, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiError, Call, CallState } from '../api'
import { useStore } from '../store'
import { isOpenProblem, isUndecided } from '../store/calls'
import { DiffView } from './Diff'
import { ArgsDiff, useEditPreview } from './EditPreview'
import { CallImages, McpBadge, McpNote, useMcpServer } from './ToolCardExtras'
import { CardUndo } from './Undo'
import { AlwaysAllowMenu } from './policy/AlwaysAllowMenu'
import { RuleDecision, decidedByPolicy } from './policy/RuleDecision'
import { callSummary, clockTime, formatDuration, lineCount, parseArgs, prettyJSON } from '../lib/calls'
import {
  AlertIcon,
  BanIcon,
  CheckIcon,
  ChevronIcon,
  PencilIcon,
  PlayIcon,
  ShieldIcon,
  StopIcon,
  WrenchIcon,
} from './icons'

type Mode = null | 'deny' | 'edit' | 'fix'

type Props = {
  call: Call
  /** The chat's own paradigm: calls read in another format get a "read as …" tag. */
  paradigm?: string
  /** Tool lab: the same card, without any action. */
  readOnly?: boolean
  /** Tool lab: name the family the call was found in (format id → name), whatever the paradigm. */
  familyNames?: Record<string, string>
}

const FOCUSABLE_CARD = '[data-testid="tool-card"]'

/** Moves focus to the next card waiting for a decision, else back to the message box. */
function focusNextCard(from: HTMLElement | null, fallback: () => void) {
  if (!from) return
  requestAnimationFrame(() => {
    const all = Array.from(document.querySelectorAll<HTMLElement>(`${FOCUSABLE_CARD}[data-waiting="true"]`))
    const next =
      all.find((el) => el !== from && from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) ??
      all.find((el) => el !== from)
    if (next) next.focus()
    else fallback()
  })
}

function ToolCardImpl({ call: c, paradigm, readOnly, familyNames }: Props) {
  const { t, i18n } = useTranslation()
  const approveCall = useStore((s) => s.approveCall)
  const denyCall = useStore((s) => s.denyCall)
  const alwaysAllowCall = useStore((s) => s.alwaysAllowCall)
  const tellModel = useStore((s) => s.tellModel)
  const fixAndRun = useStore((s) => s.fixAndRun)
  const cancelCall = useStore((s) => s.cancelCall)
  const focusComposer = useStore((s) => s.focusComposer)
  const [mode, setMode] = useState<Mode>(null)
  const [busy, setBusy] = useState(false)
  const [showRaw, setShowRaw] = useState(false)
  const [draft, setDraft] = useState<string | null>(null)
  const root = useRef<HTMLDivElement>(null)
  const ids = useId()

  const undecided = !readOnly && isUndecided(c)
  const openProblem = !readOnly && isOpenProblem(c)
  const waiting = undecided || openProblem
  const args = c.edited ?? c.arguments
  const summary = callSummary(c.name, args)
  const otherFormat = !!c.format && !!paradigm && c.format !== paradigm
  const family = familyNames && c.format ? (familyNames[c.format] ?? c.format) : ''
  const mcpServer = useMcpServer(c.name)
  const editInitial = prettyJSON(args ?? {})
  const editPreview = useEditPreview(c.id, mode === 'edit' ? draft : null, editInitial)

  // A card that is no longer waiting closes its forms.
  useEffect(() => {
    if (!waiting) setMode(null)
  }, [waiting])

  // An opened form scrolls into view (it grows the card downwards).
  useEffect(() => {
    if (!mode) return
    root.current?.querySelector('.tool-card__form')?.scrollIntoView?.({ block: 'nearest' })
  }, [mode])

  const hadFocus = () => !!root.current && root.current.contains(document.activeElement)

  /** Runs an action; on success focus moves on to the next waiting card. */
  const act = async (fn: () => Promise<ApiError | null>): Promise<ApiError | null> => {
    if (busy) return null
    const focused = hadFocus()
    setBusy(true)
    const err = await fn()
    setBusy(false)
    if (!err) {
      setMode(null)
      if (focused) focusNextCard(root.current, focusComposer)
    }
    return err
  }

  const run = () => act(() => approveCall(c.id))
  const allow = (everywhere: boolean) => act(() => alwaysAllowCall(c.id, everywhere))

  const closeMode = () => {
    root.current?.focus() // before the form (holding focus) unmounts
    setMode(null)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (readOnly || e.defaultPrevented) return
    if (e.key === 'Escape' && mode) {
      e.preventDefault()
      e.stopPropagation()
      closeMode()
      return
    }
    // Shortcuts only when the card itself has focus (not a button or field inside it).
    if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return
    const k = e.key
    if (undecided && (k === 'Enter' || k === 'y' || k === 'Y')) {
      e.preventDefault()
      void run()
    } else if (undecided && (k === 'n' || k === 'N' || k === 'Delete')) {
      e.preventDefault()
      setMode('deny')
    } else if ((k === 'e' || k === 'E') && (undecided || openProblem)) {
      e.preventDefault()
      setMode(undecided ? 'edit' : 'fix')
    } else if (openProblem && k === 'Enter') {
      e.preventDefault()
      setMode('fix')
    }
  }

  const stateLabel = t(`calls.state.${c.state}`)
  const label = summary
    ? t('calls.cardLabelSummary', { name: c.name || t('calls.unknownTool'), summary, state: stateLabel })
    : t('calls.cardLabel', { name: c.name || t('calls.unknownTool'), state: stateLabel })
  const duration = c.startedAt && c.finishedAt ? formatDuration(c.finishedAt - c.startedAt) : null

  return (
    <div
      ref={root}
      className={`tool-card tool-card--${c.state} ${c.state === 'problem' && c.resultStatus ? 'is-settled' : ''} ${
        readOnly ? 'is-readonly' : ''
      }`}
      data-testid="tool-card"
      data-tool={c.name}
      data-state={c.state}
      data-call-id={c.id}
      data-waiting={waiting ? 'true' : undefined}
      tabIndex={0}
      role="group"
      aria-label={label}
      aria-keyshortcuts={undecided ? 'Enter Y N Delete E' : openProblem ? 'E' : undefined}
      aria-busy={c.state === 'running' || c.state === 'approved' || busy}
      onKeyDown={onKeyDown}
    >
      <div className="tool-card__head">
        <span className="tool-card__icon" aria-hidden="true">
          <WrenchIcon size={14} />
        </span>
        <span className="tool-card__name">{c.name || t('calls.unknownTool')}</span>
        {mcpServer && <McpBadge server={mcpServer} />}
        {summary && (
          <span className="tool-card__summary" title={summary}>
            {summary}
          </span>
        )}
        <span className="tool-card__head-end">
          {c.format === 'native' ? (
            <span className="tool-card__format tool-card__format--native" data-testid="call-family" data-format="native" title={t('calls.nativeHint')}>
              {t('calls.native')}
            </span>
          ) : family ? (
            <span className="tool-card__format" data-testid="call-family" title={t('calls.familyHint', { id: c.format })}>
              {family}
            </span>
          ) : (
            otherFormat && (
              <span className="tool-card__format" data-testid="call-format" title={t('calls.readAsHint')}>
                {t('calls.readAs', { format: c.format })}
              </span>
            )
          )}
          {duration && c.state !== 'running' && (
            <span className="tool-card__duration" data-testid="call-duration" title={t('calls.duration')}>
              {duration}
            </span>
          )}
          <StateBadge call={c} />
        </span>
      </div>

      {c.guard && !readOnly && (
        <div className="tool-card__guard" data-testid="guard-note" role="note">
          <ShieldIcon size={15} />
          <span>{c.guard}</span>
        </div>
      )}

      {mcpServer && <McpNote server={mcpServer} />}

      {c.state === 'problem' && c.problem && (
        <div className="tool-card__problem" data-testid="call-problem" role={openProblem ? 'alert' : undefined}>
          <AlertIcon size={15} />
          <span>{c.problem}</span>
        </div>
      )}

      {c.state === 'interrupted' && !readOnly && (
        <div className="tool-card__note tool-card__note--interrupted" role="note">
          <StopIcon size={12} />
          <span>{t('calls.interruptedNote')}</span>
        </div>
      )}

      {editPreview && 'preview' in editPreview ? (
        <PreviewBox preview={editPreview.preview} draft />
      ) : editPreview && 'error' in editPreview ? (
        <PreviewBox preview={{ error: editPreview.error }} draft />
      ) : (
        c.preview != null && c.state !== 'problem' && <PreviewBox preview={c.preview} />
      )}

      <div className="tool-card__body">
        {c.state === 'problem' ? (
          <>
            {hasArgs(c.arguments) && <CodeBox label={t('calls.argumentsAsRead')} text={prettyJSON(c.arguments)} testId="call-args" />}
            <CodeBox label={t('calls.rawText')} text={c.raw} testId="call-raw" wrap />
          </>
        ) : c.edited !== undefined && c.edited !== null ? (
          <ArgsDiff label={t('calls.editedVsProposed')} before={prettyJSON(c.arguments)} after={prettyJSON(c.edited)} testId="call-args" />
        ) : (
          <CodeBox label={t('calls.arguments')} text={prettyJSON(c.arguments ?? {})} testId="call-args" />
        )}

        {c.state !== 'problem' && c.raw && (
          <div className="tool-card__raw">
            <button
              type="button"
              className="tool-card__toggle"
              aria-expanded={showRaw}
              aria-controls={`${ids}-raw`}
              onClick={() => setShowRaw((v) => !v)}
              data-testid="toggle-raw"
            >
              <ChevronIcon size={13} className="tool-card__chev" />
              {showRaw ? t('calls.hideRaw') : t('calls.showRaw')}
            </button>
            {showRaw && (
              <pre id={`${ids}-raw`} className="tool-card__pre tool-card__pre--wrap" data-testid="call-raw">
                {c.raw}
              </pre>
            )}
          </div>
        )}

        {c.result && c.state !== 'running' && c.state !== 'approved' && !saidAlready(c) && (
          <ResultBox call={c} />
        )}
        {c.state !== 'running' && c.state !== 'approved' && <CallImages images={c.images} toolName={c.name} />}
      </div>

      {c.state === 'running' && !readOnly && (
        <div className="tool-card__running">
          <span className="spinner" aria-hidden="true" />
          <span>{t('calls.runningFor')}</span>
          <Elapsed since={c.startedAt ?? c.decidedAt ?? c.updatedAt} />
          <span className="tool-card__spacer" />
          <button
            type="button"
            className="btn btn--xs btn--secondary"
            data-testid="cancel-call"
            onClick={() => void cancelCall(c.id)}
          >
            <StopIcon size={11} />
            {t('calls.cancel')}
          </button>
        </div>
      )}

      {mode === 'deny' && undecided && (
        <DenyForm
          busy={busy}
          onCancel={closeMode}
          onConfirm={(reason) => void act(() => denyCall(c.id, reason))}
        />
      )}
      {mode === 'edit' && undecided && (
        <EditForm
          initial={editInitial}
          onText={setDraft}
          busy={busy}
          onCancel={closeMode}
          onRun={(value) => act(() => approveCall(c.id, value, { quiet: true }))}
        />
      )}
      {mode === 'fix' && openProblem && (
        <FixForm
          call={c}
          busy={busy}
          onCancel={closeMode}
          onRun={(name, value) => act(() => fixAndRun(c.id, name, value, { quiet: true }))}
        />
      )}

      {undecided && mode === null && (
        <div className="tool-card__actions">
          <button type="button" className="btn btn--sm btn--primary" data-testid="approve" onClick={() => void run()} disabled={busy}>
            <PlayIcon size={12} />
            {t('calls.run')}
          </button>
          <button type="button" className="btn btn--sm btn--secondary" data-testid="deny" onClick={() => setMode('deny')} disabled={busy}>
            <BanIcon size={14} />
            {t('calls.deny')}
          </button>
          <button type="button" className="btn btn--sm btn--ghost" data-testid="edit" onClick={() => setMode('edit')} disabled={busy}>
            <PencilIcon size={14} />
            {t('calls.edit')}
          </button>
          {!c.guard && <AlwaysAllowMenu call={c} disabled={busy} onPick={(everywhere) => void allow(everywhere)} />}
          <span className="tool-card__keys" aria-hidden="true">
            <kbd className="kbd">Enter</kbd> {t('calls.run')} · <kbd className="kbd">N</kbd> {t('calls.deny')} ·{' '}
            <kbd className="kbd">E</kbd> {t('calls.edit')}
          </span>
        </div>
      )}

      {openProblem && mode === null && (
        <div className="tool-card__actions">
          <button type="button" className="btn btn--sm btn--primary" data-testid="fix-and-run" onClick={() => setMode('fix')} disabled={busy}>
            <PencilIcon size={14} />
            {t('calls.fixAndRun')}
          </button>
          <button
            type="button"
            className="btn btn--sm btn--secondary"
            data-testid="tell-model"
            onClick={() => void act(() => tellModel(c.id))}
            disabled={busy}
          >
            {t('calls.tellModel')}
          </button>
          <span className="tool-card__hint">{t('calls.problemHint')}</span>
        </div>
      )}

      {!readOnly && (c.state === 'done' || c.state === 'error') && <CardUndo call={c} />}
      {!readOnly && <Decision call={c} locale={i18n.language} />}
    </div>
  )
}

export const ToolCard = memo(ToolCardImpl)

const hasArgs = (a: unknown) => !!a && typeof a === 'object' && Object.keys(a).length > 0

/**
 * A result the card already says another way: a problem sent to the model
 * is the problem shown above; a denial is the decision line (its text holds
 * the instruction meant for the model, not for the user).
 */
function saidAlready(c: Call): boolean {
  if (c.state === 'problem') return (c.result ?? '').trim() === (c.problem ?? '').trim()
  return c.state === 'denied'
}

/* ───────────── pieces ───────────── */

const BADGE_ICON: Partial<Record<CallState, ReactNode>> = {
  done: <CheckIcon size={12} />,
  error: <AlertIcon size={12} />,
  denied: <BanIcon size={12} />,
  interrupted: <StopIcon size={10} />,
  problem: <AlertIcon size={12} />,
}

export function StateBadge({ call: c }: { call: Call }) {
  const { t } = useTranslation()
  const spinning = c.state === 'running' || c.state === 'approved'
  const label = c.state === 'problem' && c.resultStatus ? t('calls.state.problemSent') : t(`calls.state.${c.state}`)
  return (
    <span className={`call-badge call-badge--${c.state}`} data-testid="call-state">
      {spinning ? <span className="spinner spinner--xs" aria-hidden="true" /> : BADGE_ICON[c.state] ?? <span className="call-badge__dot" aria-hidden="true" />}
      {label}
    </span>
  )
}

/** Live elapsed time, ticking every 100 ms. */
function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 100)
    return () => window.clearInterval(id)
  }, [])
  return (
    <span className="tool-card__elapsed" data-testid="call-elapsed" aria-live="off">
      {formatDuration(Math.max(0, now - since))}
    </span>
  )
}

const COLLAPSE_LINES = 8

/** Monospace block with a label; long content (> 8 lines) is collapsible. */
function CodeBox({
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
function PreviewBox({ preview, draft }: { preview: unknown; draft?: boolean }) {
  const { t } = useTranslation()
  if (!preview || typeof preview !== 'object') return null
  const p = preview as { summary?: unknown; diff?: unknown; error?: unknown }
  if (typeof p.error === 'string' && p.error) {
    return (
      <div className="tool-card__note tool-card__note--preview" data-testid="call-preview" role="note">
        <AlertIcon size={14} />
        <span>{t(draft ? 'calls.previewEditFailed' : 'calls.previewFailed', { error: p.error })}</span>
      </div>
    )
  }
  const summary = typeof p.summary === 'string' ? p.summary : ''
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

function ResultBox({ call: c }: { call: Call }) {
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
      <CodeBox label={label} text={c.result ?? ''} testId="call-result" wrap tone={tone} />
      {c.truncated && (
        <p className="tool-card__truncated" data-testid="call-truncated">
          {t('calls.truncated')}
        </p>
      )}
    </div>
  )
}

/** Who decided what, and when. */
function Decision({ call: c, locale }: { call: Call; locale: string }) {
  const { t } = useTranslation()
  if (!c.decidedBy || c.state === 'pending') return null
  if (decidedByPolicy(c)) return <RuleDecision call={c} />
  const when = c.decidedAt ? clockTime(c.decidedAt, locale) : ''
  let text: string
  if (c.state === 'denied') {
    text = c.reason ? t('calls.deniedByYouReason', { reason: c.reason }) : t('calls.deniedByYou')
  } else if (c.state === 'problem') {
    text = c.reason ? t('calls.sentToModelReason', { reason: c.reason }) : t('calls.sentToModel')
  } else if (c.state === 'interrupted') {
    text = t('calls.interruptedBy')
  } else if (c.decidedBy === 'rule:chat') {
    text = t('calls.autoChat')
  } else if (c.decidedBy === 'rule:global') {
    text = t('calls.autoGlobal')
  } else if (c.decidedBy === 'system') {
    text = t('calls.bySystem')
  } else {
    text = t('calls.approvedByYou')
  }
  const edited = c.edited !== undefined && c.edited !== null
  return (
    <p className="tool-card__decision" data-testid="call-decision">
      <span>{text}</span>
      {when && (
        <>
          {' '}
          <span aria-hidden="true">·</span>{' '}
          <time dateTime={new Date(c.decidedAt!).toISOString()}>{when}</time>
        </>
      )}
      {edited && (
        <>
          {' '}
          <span className="tool-card__edited-tag">{t('calls.editedBeforeRunning')}</span>
        </>
      )}
    </p>
  )
}

function DenyForm({ busy, onCancel, onConfirm }: { busy: boolean; onCancel: () => void; onConfirm: (reason: string) => void }) {
  const { t } = useTranslation()
  const [reason, setReason] = useState('')
  const id = useId()
  return (
    <form
      className="tool-card__form"
      data-testid="deny-form"
      onSubmit={(e) => {
        e.preventDefault()
        onConfirm(reason)
      }}
    >
      <label className="field__label" htmlFor={id}>
        {t('calls.denyReason')}
      </label>
      <div className="tool-card__form-row">
        <input
          id={id}
          className="input"
          data-testid="deny-reason"
          value={reason}
          autoFocus
          maxLength={500}
          placeholder={t('calls.denyReasonPlaceholder')}
          onChange={(e) => setReason(e.target.value)}
        />
        <button type="submit" className="btn btn--sm btn--danger" data-testid="confirm-deny" disabled={busy}>
          {busy && <span className="spinner" aria-hidden="true" />}
          {t('calls.confirmDeny')}
        </button>
        <button type="button" className="btn btn--sm btn--ghost" onClick={onCancel} data-testid="deny-cancel">
          {t('common.cancel')}
        </button>
      </div>
    </form>
  )
}

/** Turns a parse failure or a backend rejection into the sentence the form shows. */
function useArgsError() {
  const { t } = useTranslation()
  return (text: string): { value: Record<string, unknown> } | { error: string } => {
    const parsed = parseArgs(text)
    if (parsed.ok) return { value: parsed.value }
    return { error: parsed.error === 'object' ? t('calls.notObject') : t('calls.invalidJson', { error: parsed.error }) }
  }
}

function EditForm({
  initial,
  onText,
  busy,
  onCancel,
  onRun,
}: {
  initial: string
  /** The text as typed, so the card can preview the edit. */
  onText: (text: string | null) => void
  busy: boolean
  onCancel: () => void
  onRun: (value: Record<string, unknown>) => Promise<ApiError | null>
}) {
  const { t } = useTranslation()
  const [text, setText] = useState(initial)
  const [error, setError] = useState<{ text: string; code?: string } | null>(null)
  const check = useArgsError()
  const id = useId()
  useEffect(() => {
    onText(text)
  }, [text, onText])
  useEffect(() => () => onText(null), [onText])
  const parsed = parseArgs(text)
  const edited = parsed.ok ? prettyJSON(parsed.value) : ''

  const submit = async () => {
    const r = check(text)
    if ('error' in r) {
      setError({ text: r.error })
      return
    }
    setError(null)
    const err = await onRun(r.value)
    if (err) setError({ text: err.message, code: err.code !== 'unknown' ? err.code : undefined })
  }

  return (
    <form
      className="tool-card__form"
      data-testid="edit-form"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <label className="field__label" htmlFor={id}>
        {t('calls.editLabel')}
      </label>
      <textarea
        id={id}
        className="input textarea input--mono tool-card__textarea"
        data-testid="edit-args"
        value={text}
        autoFocus
        spellCheck={false}
        rows={Math.min(Math.max(lineCount(text) + 1, 4), 16)}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => {
          setText(e.target.value)
          setError(null)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault()
            void submit()
          }
        }}
      />
      {parsed.ok && edited !== initial && (
        <ArgsDiff label={t('calls.editChanges')} before={initial} after={edited} testId="edit-args-diff" />
      )}
      <FormFooter
        error={error}
        errorId={`${id}-err`}
        errorTestId="edit-error"
        busy={busy}
        submitLabel={t('calls.runEdited')}
        submitTestId="run-edited"
        cancelTestId="edit-cancel"
        onCancel={onCancel}
      />
    </form>
  )
}

// FormFooter is the shared bottom of the Edit and Fix forms: the server's
// error, then run / cancel.
function FormFooter(p: {
  error: { text: string; code?: string } | null
  errorId?: string
  errorTestId: string
  busy: boolean
  submitLabel: string
  submitTestId: string
  cancelTestId: string
  onCancel: () => void
}) {
  const { t } = useTranslation()
  return (
    <>
      {p.error && (
        <div className="status-line status-line--error" role="alert" id={p.errorId} data-testid={p.errorTestId}>
          <AlertIcon size={15} />
          <span>{p.error.text}</span>
          {p.error.code && <code className="status-line__code">{p.error.code}</code>}
        </div>
      )}
      <div className="tool-card__form-row">
        <button type="submit" className="btn btn--sm btn--primary" data-testid={p.submitTestId} disabled={p.busy}>
          {p.busy ? <span className="spinner" aria-hidden="true" /> : <PlayIcon size={12} />}
          {p.submitLabel}
        </button>
        <button type="button" className="btn btn--sm btn--ghost" onClick={p.onCancel} data-testid={p.cancelTestId}>
          {t('common.cancel')}
        </button>
        <span className="tool-card__hint">{t('calls.editHint')}</span>
      </div>
    </>
  )
}

function FixForm({
  call: c,
  busy,
  onCancel,
  onRun,
}: {
  call: Call
  busy: boolean
  onCancel: () => void
  onRun: (name: string, value: Record<string, unknown>) => Promise<ApiError | null>
}) {
  const { t } = useTranslation()
  const [name, setName] = useState(c.name)
  // The backend sends the arguments as it read them (best effort for a broken call).
  const [text, setText] = useState(() => prettyJSON(c.arguments && typeof c.arguments === 'object' ? c.arguments : {}))
  const [error, setError] = useState<{ text: string; code?: string } | null>(null)
  const check = useArgsError()
  const id = useId()

  const submit = async () => {
    if (!name.trim()) {
      setError({ text: t('calls.nameRequired') })
      return
    }
    const r = check(text)
    if ('error' in r) {
      setError({ text: r.error })
      return
    }
    setError(null)
    const err = await onRun(name.trim(), r.value)
    if (err) setError({ text: err.message, code: err.code !== 'unknown' ? err.code : undefined })
  }

  return (
    <form
      className="tool-card__form"
      data-testid="fix-form"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <div className="tool-card__fix-grid">
        <label className="field__label" htmlFor={`${id}-name`}>
          {t('calls.toolName')}
        </label>
        <input
          id={`${id}-name`}
          className="input input--mono"
          data-testid="fix-name"
          value={name}
          autoFocus
          spellCheck={false}
          autoCapitalize="off"
          onChange={(e) => {
            setName(e.target.value)
            setError(null)
          }}
        />
        <label className="field__label" htmlFor={`${id}-args`}>
          {t('calls.editLabel')}
        </label>
        <textarea
          id={`${id}-args`}
          className="input textarea input--mono tool-card__textarea"
          data-testid="fix-args"
          value={text}
          spellCheck={false}
          rows={Math.min(Math.max(lineCount(text) + 1, 4), 16)}
          onChange={(e) => {
            setText(e.target.value)
            setError(null)
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              void submit()
            }
          }}
        />
      </div>
      <FormFooter
        error={error}
        errorTestId="fix-error"
        busy={busy}
        submitLabel={t('calls.runFixed')}
        submitTestId="fix-submit"
        cancelTestId="fix-cancel"
        onCancel={onCancel}
      />
    </form>
  )
}
