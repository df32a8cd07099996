import './Changes.css'
import { useEffect, useState } from 'react'
import { useTranslation } from '../i18n'
import { errorSentence, renderText, sentenceParts } from '../i18n/backendText'
import type { ApiError, Change } from '../api'
import { useStore, type WorkspaceState } from '../store'
import { conflictFor } from '../lib/tree'
import { ConfirmDialog } from './Dialog'
import { DiffView } from './Diff'
import { AlertIcon, BanIcon, CheckIcon, InfoIcon } from './icons'
import { CheckpointHistory } from './Undo'
import { OpBadge } from './OpBadge'

type Problem = { message: string; code?: string }

/**
 * An overlay's pending changes: what Apply would write to the real folder,
 * each with its diff, applied or discarded one by one or all at once. A file
 * that changed on disk since the model read it is refused (apply_conflict):
 * the refusal shows on that file, the others still apply.
 */
export function ChangesView({ chatId, ws }: { chatId: string; ws: WorkspaceState }) {
  const { t } = useTranslation()
  const applyChanges = useStore((s) => s.applyChanges)
  const discardChanges = useStore((s) => s.discardChanges)
  const toast = useStore((s) => s.toast)
  const [busy, setBusy] = useState<string | null>(null) // '*' = all, else a path
  const [problems, setProblems] = useState<Record<string, Problem>>({})
  const [general, setGeneral] = useState<Problem | null>(null)
  const [confirmDiscard, setConfirmDiscard] = useState(false)
  const changes = ws.changes

  // Problems of changes that are gone (applied, discarded) go with them.
  useEffect(() => {
    setProblems((prev) => {
      const keep = Object.fromEntries(Object.entries(prev).filter(([p]) => changes.some((c) => c.path === p)))
      return Object.keys(keep).length === Object.keys(prev).length ? prev : keep
    })
  }, [changes])

  /** Puts a refusal on the files it names; what names none shows above the list. */
  const report = (err: ApiError, scope: string[], remaining: Change[]) => {
    const named: Record<string, Problem> = {}
    // The part about a file, in the language shown when the backend coded it.
    const coded = sentenceParts(err.text)
    const shown = (part: string) => {
      const p = coded.find((x) => x.english.trim() === part)
      return p ? renderText(t, p, part) : part
    }
    for (const c of remaining) {
      if (scope.length > 0 && !scope.includes(c.path)) continue
      const part = conflictFor(err.message, c.path)
      if (part) named[c.path] = { message: shown(part), code: err.code }
    }
    // A single file's own Apply: its error is about it, whatever the wording.
    if (Object.keys(named).length === 0 && scope.length === 1 && remaining.some((c) => c.path === scope[0])) {
      named[scope[0]] = { message: errorSentence(t, err), code: err.code }
    }
    setProblems((prev) => ({ ...prev, ...named }))
    setGeneral(Object.keys(named).length === 0 ? { message: errorSentence(t, err), code: err.code } : null)
  }

  const apply = async (paths: string[]) => {
    setBusy(paths.length === 0 ? '*' : paths[0])
    setGeneral(null)
    setProblems((prev) => {
      if (paths.length === 0) return {}
      const next = { ...prev }
      for (const p of paths) delete next[p]
      return next
    })
    const before = changes.length
    const err = await applyChanges(chatId, paths)
    setBusy(null)
    const remaining = useStore.getState().workspaces[chatId]?.changes ?? []
    if (err) {
      report(err, paths, remaining)
      const applied = before - remaining.length
      if (applied > 0) toast({ kind: 'success', title: 'changes.appliedTitle', message: t('changes.appliedSome', { count: applied }) })
    } else {
      toast({ kind: 'success', title: 'changes.appliedTitle', message: t('changes.applied', { count: paths.length === 0 ? before : paths.length }) })
    }
  }

  const discard = async (paths: string[]) => {
    setBusy(paths.length === 0 ? '*' : paths[0])
    setGeneral(null)
    const err = await discardChanges(chatId, paths)
    setBusy(null)
    setConfirmDiscard(false)
    if (err) setGeneral({ message: errorSentence(t, err), code: err.code })
  }

  const conflicts = Object.keys(problems).length

  return (
    <section className="changes" data-testid="changes" aria-label={t('changes.title', { count: changes.length })}>
      {changes.length === 0 ? (
        <div className="files__empty changes__empty" data-testid="changes-empty">
          <CheckIcon size={24} />
          <p className="files__empty-title">{t('changes.emptyTitle')}</p>
          <p>{t('changes.emptyBody')}</p>
        </div>
      ) : (
        <>
          <div className="changes__bar">
            <p className="changes__intro">
              <InfoIcon size={14} />
              <span>{t('changes.intro', { count: changes.length })}</span>
            </p>
            <div className="changes__actions">
              <button
                type="button"
                className="btn btn--sm btn--primary"
                data-testid="apply-all"
                disabled={busy !== null}
                onClick={() => void apply([])}
              >
                {busy === '*' ? <span className="spinner" aria-hidden="true" /> : <CheckIcon size={14} />}
                {t('changes.applyAll')}
              </button>
              <button
                type="button"
                className="btn btn--sm btn--ghost btn--danger-text"
                data-testid="discard-all"
                disabled={busy !== null}
                onClick={() => setConfirmDiscard(true)}
              >
                <BanIcon size={14} />
                {t('changes.discardAll')}
              </button>
            </div>
          </div>

          {(general || conflicts > 0) && (
            <div className="status-line status-line--error changes__problem" role="alert" data-testid="changes-error">
              <AlertIcon size={15} />
              <span>{general ? general.message : t('changes.someRefused', { count: conflicts })}</span>
              {general?.code && general.code !== 'unknown' && <code className="status-line__code">{general.code}</code>}
            </div>
          )}

          <ul className="changes__list">
            {changes.map((c) => (
              <ChangeItem
                key={c.path}
                change={c}
                problem={problems[c.path]}
                busy={busy !== null}
                working={busy === c.path}
                onApply={() => void apply([c.path])}
                onDiscard={() => void discard([c.path])}
              />
            ))}
          </ul>
        </>
      )}

      <CheckpointHistory chatId={chatId} />

      <ConfirmDialog
        open={confirmDiscard}
        title={t('changes.discardTitle')}
        message={t('changes.discardMessage', { count: changes.length })}
        confirmLabel={t('changes.discardAll')}
        busy={busy !== null}
        onConfirm={() => void discard([])}
        onCancel={() => setConfirmDiscard(false)}
        testId="confirm-discard-all"
      />
    </section>
  )
}

function ChangeItem({
  change: c,
  problem,
  busy,
  working,
  onApply,
  onDiscard,
}: {
  change: Change
  problem?: Problem
  busy: boolean
  working: boolean
  onApply: () => void
  onDiscard: () => void
}) {
  const { t } = useTranslation()
  const conflict = problem?.code === 'apply_conflict'
  return (
    <li
      className={`change ${problem ? 'has-problem' : ''}`}
      data-testid="change"
      data-path={c.path}
      data-op={c.op}
      data-conflict={conflict ? 'true' : undefined}
    >
      <div className="change__head">
        <OpBadge op={c.op} long />
        <span className="change__path" title={c.path}>
          {c.path}
          {c.isDir && '/'}
        </span>
        <span className="change__actions">
          <button
            type="button"
            className="btn btn--xs btn--secondary"
            data-testid="change-apply"
            disabled={busy}
            onClick={onApply}
            aria-label={t('changes.applyOne', { path: c.path })}
          >
            {working ? <span className="spinner spinner--xs" aria-hidden="true" /> : <CheckIcon size={12} />}
            {t('changes.apply')}
          </button>
          <button
            type="button"
            className="btn btn--xs btn--ghost"
            data-testid="change-discard"
            disabled={busy}
            onClick={onDiscard}
            aria-label={t('changes.discardOne', { path: c.path })}
          >
            {t('changes.discard')}
          </button>
        </span>
      </div>
      {problem && (
        <div className="change__conflict" role="alert" data-testid="change-conflict">
          <AlertIcon size={14} />
          <div>
            <p className="change__conflict-title">{conflict ? t('changes.conflictTitle') : t('changes.failedTitle')}</p>
            <p className="change__conflict-text">{problem.message}</p>
            {conflict && <p className="change__conflict-hint">{t('changes.conflictHint')}</p>}
          </div>
        </div>
      )}
      {c.note && <p className="change__note">{renderText(t, c.noteText, c.note)}</p>}
      {c.isDir && !c.diff && <p className="change__note">{t(`changes.dirNote.${c.op}`)}</p>}
      {c.binary && <p className="change__note">{t('changes.binaryNote')}</p>}
      {c.diff && <DiffView diff={c.diff} testId="change-diff" collapseAt={40} />}
    </li>
  )
}
