// Undo: checkpoints of changes to a real folder.
import { ApiError, arr, backend, call, toApiError, type go, type Narrow } from './core'
import type { ChangeOp } from './workspace'

// ─── Undo: checkpoints of changes to a real folder ───
// Before a change reaches a real folder (a folder workspace's tool run, an
// overlay's Apply) what it touches is kept; Undo puts it back when nothing
// changed since (else code undo_conflict, with the paths).

/** One path a change touched. size: of the copy kept (what Undo puts back). */
export type CheckpointPath = Narrow<go.CheckpointPath, { op: ChangeOp }>
/** Why a checkpoint cannot be undone. */
export type CheckpointBlocker = 'undone' | 'dropped' | 'incomplete' | 'not_kept'
export type Checkpoint = Narrow<go.Checkpoint, { paths: CheckpointPath[]; blocker?: CheckpointBlocker }>
/** A chat's checkpoints, newest first; bytes kept of limit; dropped = older ones whose copies went to stay under it. */
export type CheckpointList = Narrow<go.CheckpointList, { checkpoints: Checkpoint[] }>
export type UndoResult = go.UndoResult
/** A path that changed since the change (reason: changed, deleted, created, unexpected = a folder now holds `extra`). */
export type UndoConflictPath = { path: string; reason: 'changed' | 'deleted' | 'created' | 'unexpected'; extra?: string }

/** An undo refused: the paths that changed since (empty for other refusals). */
export class UndoError extends ApiError {
  readonly paths: UndoConflictPath[]
  constructor(code: string, message: string, paths: UndoConflictPath[]) {
    super(code, message)
    this.name = 'UndoError'
    this.paths = paths
  }
}

function conflictPaths(err: unknown): UndoConflictPath[] {
  const raw = typeof err === 'string' ? err : err instanceof Error ? err.message : ''
  try {
    const p = JSON.parse(raw) as { paths?: unknown }
    return arr(p?.paths as UndoConflictPath[] | null).filter((x) => x && typeof x.path === 'string')
  } catch {
    return []
  }
}

export function normalizeCheckpoints(l: CheckpointList | null | undefined): CheckpointList {
  return {
    checkpoints: arr(l?.checkpoints).map((c) => ({
      ...c,
      callId: c.callId ?? '',
      tool: c.tool ?? '',
      paths: arr(c.paths).map((p) => ({ ...p, size: p.size ?? 0, kept: !!p.kept })),
      pathCount: c.pathCount ?? arr(c.paths).length,
      undone: !!c.undone,
      undoable: !!c.undoable,
      bytes: c.bytes ?? 0,
      dropped: !!c.dropped,
    })),
    bytes: l?.bytes ?? 0,
    limit: l?.limit ?? 0,
    fileLimit: l?.fileLimit ?? 0,
    dropped: l?.dropped ?? 0,
  }
}

export const undoApi = {
  listCheckpoints: async (chatId: string) => normalizeCheckpoints(await call<CheckpointList>('ListCheckpoints', chatId)),
  /** Rejects with an UndoError: code undo_conflict (paths say which changed), undo_unavailable, … */
  undoCheckpoint: async (id: string): Promise<UndoResult> => {
    try {
      const fn = backend().UndoCheckpoint
      if (typeof fn !== 'function') throw new ApiError('unavailable', 'Backend method UndoCheckpoint is missing.')
      const r = (await fn(id)) as UndoResult | null
      return { id: r?.id ?? id, chatId: r?.chatId ?? '', restored: arr(r?.restored) }
    } catch (err) {
      const e = toApiError(err)
      throw new UndoError(e.code, e.message, conflictPaths(err))
    }
  },
}
