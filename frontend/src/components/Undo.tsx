// Undo: the button on a tool card whose call changed a real folder, and the
// History list of a chat's checkpoints (in the Changes view, and a folder
// workspace's History tab). An undo that would overwrite something changed
// since is refused: the paths show, plainly, and nothing was restored.
import { useTranslation } from '../i18n'
import { renderText } from '../i18n/backendText'
import type { Call, Checkpoint, CheckpointList, ToolSpec } from '../api'
import { useStore } from '../store'
import { checkpointOfCall, undoCheckpoint, useCheckpoints, useUndo, type UndoProblem } from '../store/undo'
import { clockTime } from '../lib/calls'
import { formatSize } from '../lib/tree'
import { fullDate } from '../lib/time'
import { OpBadge } from './OpBadge'
import { AlertIcon, InfoIcon } from './icons'
import '../styles/undo.css'

/** The tools of Airlock that change files (used until the tool list is loaded). */
const FILE_CHANGERS = new Set(['write_file', 'edit_file', 'move_path', 'delete_path', 'make_directory'])

const changesFiles = (tools: ToolSpec[], name: string) => {
  const spec = tools.find((t) => t.name === name)
  return spec ? spec.kind === 'files' && !!spec.changes : FILE_CHANGERS.has(name)
}

export function UndoIcon({ size = 14 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
      strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M9 14L4 9l5-5" />
      <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
    </svg>
  )
}

/** On a settled card: Undo when its call changed a real folder. */
export function CardUndo({ call: c }: { call: Call }) {
  const relevant = useStore((s) => changesFiles(s.tools, c.name))
  const list = useCheckpoints(c.chatId, relevant)
  const cp = checkpointOfCall(list, c.id)
  const busy = useUndo((s) => (cp ? !!s.busy[cp.id] : false))
  const problem = useUndo((s) => (cp ? s.problems[cp.id] : undefined))
  if (!cp) return null
  return (
    <div className="undo-row" data-testid="card-undo" data-checkpoint-id={cp.id} data-state={stateOf(cp)}>
      <UndoAction cp={cp} list={list!} chatId={c.chatId} busy={busy} testId="undo" />
      {problem && <ProblemBox problem={problem} testId="undo-conflict" />}
    </div>
  )
}

const stateOf = (cp: Checkpoint) => (cp.undoable ? 'undoable' : cp.undone ? 'undone' : 'blocked')

/** The Undo button, or why there is none. */
function UndoAction({ cp, list, chatId, busy, testId }: { cp: Checkpoint; list: CheckpointList; chatId: string; busy: boolean; testId: string }) {
  const { t } = useTranslation()
  if (cp.undone) {
    return (
      <span className="undo-row__done" data-testid={`${testId}-done`}>
        <UndoIcon size={13} />
        {t('undo.undone')}
      </span>
    )
  }
  if (!cp.undoable) {
    return (
      <span className="undo-row__blocked" data-testid={`${testId}-unavailable`}>
        <InfoIcon size={13} />
        {t(`undo.blocked.${cp.blocker ?? 'not_kept'}`, { limit: formatSize(list.limit), fileLimit: formatSize(list.fileLimit) })}
      </span>
    )
  }
  const count = cp.pathCount
  return (
    <>
      <button
        type="button"
        className="btn btn--xs btn--secondary"
        data-testid={testId}
        disabled={busy}
        onClick={() => void undoCheckpoint(chatId, cp.id)}
        aria-label={t('undo.undoLabel', { count, path: cp.paths[0]?.path ?? '' })}
        title={t('undo.undoHint')}
      >
        {busy ? <span className="spinner spinner--xs" aria-hidden="true" /> : <UndoIcon size={12} />}
        {busy ? t('undo.undoing') : t('undo.undo')}
      </button>
      <span className="undo-row__hint">
        {t('undo.paths', { count })}
        {cp.bytes > 0 && ` · ${t('undo.keptSize', { size: formatSize(cp.bytes) })}`}
      </span>
    </>
  )
}

/** A refused undo: the paths that changed since, or the reason. */
function ProblemBox({ problem, testId }: { problem: UndoProblem; testId: string }) {
  const { t } = useTranslation()
  const conflict = problem.code === 'undo_conflict'
  return (
    <div className="change__conflict undo-problem" role="alert" data-testid={testId} data-code={problem.code}>
      <AlertIcon size={14} />
      <div>
        <p className="change__conflict-title">{conflict ? t('undo.conflictTitle') : t('undo.failedTitle')}</p>
        {conflict && problem.paths.length > 0 ? (
          <ul className="undo-problem__paths">
            {problem.paths.map((p) => (
              <li key={p.path} data-testid="undo-conflict-path" data-path={p.path} data-reason={p.reason}>
                <code>{p.path}</code> — {t(`undo.reasons.${p.reason}`, { extra: p.extra ?? '' })}
              </li>
            ))}
          </ul>
        ) : (
          <p className="change__conflict-text">{problem.message}</p>
        )}
        {conflict && <p className="change__conflict-hint">{t('undo.conflictHint')}</p>}
      </div>
    </div>
  )
}

/** A chat's checkpoints, newest first, each with Undo. */
export function CheckpointHistory({ chatId }: { chatId: string }) {
  const { t } = useTranslation()
  const list = useCheckpoints(chatId)
  const error = useUndo((s) => s.errors[chatId])
  const cps = list?.checkpoints ?? []
  return (
    <section className="undo-history" data-testid="checkpoints" aria-label={t('undo.historyLabel')}>
      <div className="undo-history__head">
        <h3 className="undo-history__title">{t('undo.historyTitle')}</h3>
        {list && cps.length > 0 && (
          <span className="undo-history__total" data-testid="checkpoints-total">
            {t('undo.total', { size: formatSize(list.bytes), limit: formatSize(list.limit) })}
          </span>
        )}
      </div>
      <p className="undo-history__intro">{t('undo.historyIntro')}</p>
      {error && (
        <div className="status-line status-line--error" role="alert" data-testid="checkpoints-error">
          <AlertIcon size={15} />
          <span>{t('undo.loadError', { message: error })}</span>
        </div>
      )}
      {list && list.dropped > 0 && (
        <p className="undo-history__dropped" data-testid="checkpoints-dropped">
          <InfoIcon size={13} />
          {t('undo.droppedNote', { count: list.dropped, limit: formatSize(list.limit) })}
        </p>
      )}
      {list && cps.length === 0 && (
        <p className="undo-history__empty" data-testid="checkpoints-empty">
          {t('undo.historyEmpty')}
        </p>
      )}
      {cps.length > 0 && (
        <ul className="undo-history__list">
          {cps.map((cp) => (
            <CheckpointItem key={cp.id} cp={cp} list={list!} chatId={chatId} />
          ))}
        </ul>
      )}
    </section>
  )
}

function CheckpointItem({ cp, list, chatId }: { cp: Checkpoint; list: CheckpointList; chatId: string }) {
  const { t, i18n } = useTranslation()
  const busy = useUndo((s) => !!s.busy[cp.id])
  const problem = useUndo((s) => s.problems[cp.id])
  const more = cp.pathCount - cp.paths.length
  return (
    <li
      className={`change undo-item ${cp.undone ? 'is-undone' : ''}`}
      data-testid="checkpoint"
      data-id={cp.id}
      data-call-id={cp.callId || undefined}
      data-tool={cp.tool}
      data-state={stateOf(cp)}
    >
      <div className="change__head">
        <span className="undo-item__tool">{cp.tool === 'apply' ? t('undo.applyTool') : cp.tool || t('undo.unknownTool')}</span>
        {!cp.callId && cp.tool !== 'apply' && <span className="undo-item__tag">{t('undo.byHand')}</span>}
        <time className="undo-item__time" dateTime={new Date(cp.createdAt).toISOString()} title={fullDate(cp.createdAt, i18n.language)}>
          {clockTime(cp.createdAt, i18n.language)}
        </time>
        <span className="change__actions">
          <UndoAction cp={cp} list={list} chatId={chatId} busy={busy} testId="checkpoint-undo" />
        </span>
      </div>
      <ul className="undo-item__paths">
        {cp.paths.map((p) => (
          <li key={p.path} className="undo-item__path" data-testid="checkpoint-path" data-path={p.path} data-op={p.op} data-kept={p.kept}>
            <OpBadge op={p.op} />
            <span className="undo-item__name" title={p.path}>
              {p.path}
              {p.isDir && '/'}
            </span>
            {p.size > 0 && <span className="undo-item__size">{formatSize(p.size)}</span>}
            {!p.kept && p.note && <span className="undo-item__note">{renderText(t, p.noteText, p.note)}</span>}
          </li>
        ))}
        {more > 0 && <li className="undo-item__more">{t('undo.morePaths', { count: more })}</li>}
      </ul>
      {problem && <ProblemBox problem={problem} testId="checkpoint-conflict" />}
    </li>
  )
}
