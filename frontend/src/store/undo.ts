// Checkpoints and Undo on top of the main store: each chat's checkpoints
// (what a change to a real folder replaced), read again whenever the chat's
// workspace changed, and undoing one.
//
// Kept apart from store/index.ts (like store/mcp.ts): it reads the main
// store through its public actions and keeps its own state here.
import { useEffect } from 'react'
import { create } from 'zustand'
import { events, undoApi, UndoError, toApiError, type Checkpoint, type CheckpointList, type UndoConflictPath } from '../api'
import i18n from '../i18n'
import { useStore } from './index'

/** Why the last Undo of a checkpoint was refused. */
export type UndoProblem = { code: string; message: string; paths: UndoConflictPath[] }

export type UndoState = {
  /** By chat id; absent = never loaded. */
  byChat: Record<string, CheckpointList>
  /** Load errors, by chat id. */
  errors: Record<string, string>
  /** Undos in flight, by checkpoint id. */
  busy: Record<string, boolean>
  /** The last refusal, by checkpoint id (cleared by a new try). */
  problems: Record<string, UndoProblem>
}

const initial = (): UndoState => ({ byChat: {}, errors: {}, busy: {}, problems: {} })

export const useUndo = create<UndoState>()(() => initial())

/** Loads in flight, by chat id; `again` = asked again meanwhile. */
const inflight = new Map<string, { again: boolean }>()

/** (Re)reads a chat's checkpoints. */
export async function loadCheckpoints(chatId: string): Promise<void> {
  const running = inflight.get(chatId)
  if (running) {
    running.again = true
    return
  }
  const flight = { again: false }
  inflight.set(chatId, flight)
  try {
    do {
      flight.again = false
      try {
        const list = await undoApi.listCheckpoints(chatId)
        useUndo.setState((s) => ({ byChat: { ...s.byChat, [chatId]: list }, errors: omit(s.errors, chatId) }))
      } catch (err) {
        const msg = toApiError(err).message
        useUndo.setState((s) => ({ errors: { ...s.errors, [chatId]: msg } }))
      }
    } while (flight.again)
  } finally {
    inflight.delete(chatId)
  }
}

function omit<T>(rec: Record<string, T>, key: string): Record<string, T> {
  if (!(key in rec)) return rec
  const next = { ...rec }
  delete next[key]
  return next
}

/**
 * Undoes a checkpoint. A refusal (undo_conflict names the paths that
 * changed since) is kept on the checkpoint and returned; nothing was restored.
 */
export async function undoCheckpoint(chatId: string, id: string): Promise<UndoProblem | null> {
  if (useUndo.getState().busy[id]) return null
  useUndo.setState((s) => ({ busy: { ...s.busy, [id]: true }, problems: omit(s.problems, id) }))
  let problem: UndoProblem | null = null
  try {
    const r = await undoApi.undoCheckpoint(id)
    useStore.getState().toast({ kind: 'success', title: 'undo.doneTitle', message: undoneMessage(r.restored) })
  } catch (err) {
    const e = err instanceof UndoError ? err : toApiError(err)
    problem = { code: e.code, message: e.message, paths: e instanceof UndoError ? e.paths : [] }
    useUndo.setState((s) => ({ problems: { ...s.problems, [id]: problem! } }))
  } finally {
    useUndo.setState((s) => ({ busy: omit(s.busy, id) }))
  }
  await loadCheckpoints(chatId)
  // What the files panel shows changed too.
  const main = useStore.getState()
  if (!problem && main.workspaces[chatId]) void main.loadWorkspace(chatId)
  return problem
}

const undoneMessage = (restored: string[]) =>
  restored.length === 0 ? '' : i18n.t('undo.doneMessage', { count: restored.length, path: restored[0] })

/** The checkpoint a tool call made (undefined when none, or not loaded yet). */
export function checkpointOfCall(list: CheckpointList | undefined, callId: string): Checkpoint | undefined {
  if (!list || !callId) return undefined
  return list.checkpoints.find((c) => c.callId === callId)
}

/** A chat's checkpoints, loaded the first time something asks. */
export function useCheckpoints(chatId: string | null | undefined, enabled = true): CheckpointList | undefined {
  const list = useUndo((s) => (chatId ? s.byChat[chatId] : undefined))
  useEffect(() => {
    if (enabled && chatId && !useUndo.getState().byChat[chatId] && !inflight.has(chatId)) void loadCheckpoints(chatId)
  }, [chatId, enabled])
  return list
}

const REFRESH_MS = 150
const timers = new Map<string, ReturnType<typeof setTimeout>>()

function refreshSoon(chatId: string) {
  if (!useUndo.getState().byChat[chatId]) return // never shown: loaded when asked
  const prev = timers.get(chatId)
  if (prev) clearTimeout(prev)
  timers.set(
    chatId,
    setTimeout(() => {
      timers.delete(chatId)
      // The files changed: a refusal said of them before ("Not undone: … changed since") is stale.
      const ids = new Set(useUndo.getState().byChat[chatId]?.checkpoints.map((c) => c.id))
      useUndo.setState((st) => ({ problems: Object.fromEntries(Object.entries(st.problems).filter(([id]) => !ids.has(id))) }))
      void loadCheckpoints(chatId)
    }, REFRESH_MS),
  )
}

/**
 * A tool changed a workspace (workspace:changed), or the files panel read it
 * again (after an Apply or a Discard): the chat's checkpoints are read again.
 */
export function subscribeUndo(): () => void {
  const off = events.onWorkspaceChanged((w) => refreshSoon(w.chatId))
  const unsub = useStore.subscribe((s, prev) => {
    if (s.workspaces === prev.workspaces) return
    for (const [id, ws] of Object.entries(s.workspaces)) if (ws.version !== prev.workspaces[id]?.version) refreshSoon(id)
  })
  return () => {
    off()
    unsub()
  }
}

/** Test helper. */
export function resetUndo() {
  inflight.clear()
  for (const t of timers.values()) clearTimeout(t)
  timers.clear()
  useUndo.setState(initial())
}
