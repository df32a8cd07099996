import './ToolCard.css'
import { memo, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import type { ApiError, Call } from '../api'
import { useStore } from '../store'
import { isOpenProblem, isUndecided } from '../store/calls'
import { ArgsDiff, useEditPreview } from './EditPreview'
import { AmbiguousKeysNote, CallImages, McpBadge, McpNote, useMcpServer } from './ToolCardExtras'
import { CardUndo } from './Undo'
import { AlwaysAllowMenu } from './policy/AlwaysAllowMenu'
import { callSummary, formatDuration, prettyJSON } from '../lib/calls'
import { BanIcon, ChevronIcon, PencilIcon, PlayIcon, ShieldIcon, StopIcon, WrenchIcon } from './icons'
import { CodeBox, PreviewBox, ProblemNote, ResultBox, hasArgs, saidAlready } from './ToolCardBoxes'
import { CodePlanBox, CodeReportBox, codeReport, readOnlyArgs } from './ToolCardCode'
import { isCodeTool } from '../api'
import { DenyForm, EditForm, FixForm } from './ToolCardForms'
import { Decision, Elapsed, StateBadge } from './ToolCardHeader'
import { McpHints, McpProgressBar, McpQuestions } from './McpLive'

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
  // A code run shows its code, bounds and report instead of raw arguments and text.
  const codeCard = isCodeTool(c.name) && c.state !== 'problem' && mode !== 'edit'
  const report = codeCard ? codeReport(c) : null
  const roArgs = codeCard && undecided ? readOnlyArgs(c) : null

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
        {mcpServer && <McpHints toolName={c.name} />}
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

      {c.repaired && (
        <div className="tool-card__guard tool-card__repaired" data-testid="repaired-note" role="note" title={t('calls.repairedNote')}>
          <ShieldIcon size={15} />
          <span>
            <strong>{t('calls.repaired')}</strong> {t('calls.repairedNote')}
          </span>
        </div>
      )}

      {c.guard && !readOnly && (
        <div className="tool-card__guard" data-testid="guard-note" role="note">
          <ShieldIcon size={15} />
          <span>{c.guard}</span>
        </div>
      )}

      {!readOnly && <AmbiguousKeysNote keys={c.ambiguousKeys} />}

      {mcpServer && <McpNote server={mcpServer} />}

      <ProblemNote call={c} alert={openProblem} />

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
        c.preview != null && c.state !== 'problem' && !codeCard && <PreviewBox preview={c.preview} />
      )}

      <div className="tool-card__body">
        {c.state === 'problem' ? (
          <>
            {hasArgs(c.arguments) && <CodeBox label={t('calls.argumentsAsRead')} text={prettyJSON(c.arguments)} testId="call-args" />}
            <CodeBox label={t('calls.rawText')} text={c.raw} testId="call-raw" wrap />
          </>
        ) : codeCard ? (
          <CodePlanBox call={c} />
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

        {report && c.state !== 'running' && c.state !== 'approved' ? (
          <CodeReportBox report={report} />
        ) : (
          c.result && c.state !== 'running' && c.state !== 'approved' && !saidAlready(c) && <ResultBox call={c} />
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
      {c.state === 'running' && !readOnly && mcpServer && <McpProgressBar callId={c.id} />}
      {c.state === 'running' && !readOnly && mcpServer && <McpQuestions callId={c.id} />}

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
          {roArgs && (
            <button
              type="button"
              className="btn btn--sm btn--secondary"
              data-testid="run-read-only"
              title={t('code.runReadOnlyHint')}
              onClick={() => void act(() => approveCall(c.id, roArgs, { quiet: true }))}
              disabled={busy}
            >
              <ShieldIcon size={12} />
              {t('code.runReadOnly')}
            </button>
          )}
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

/* ───────────── pieces ───────────── */
