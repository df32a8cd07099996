// The context gauge: what the active chat's next request takes of the
// model's window, read again when the conversation or the draft changes;
// and the chat's summaries (compactions), shown where they fold the chat.
import { useEffect } from 'react'
import { create } from 'zustand'
import { contextApi, onEvent, toApiError, type Compaction, type ContextUsage, type DraftFile, type Summary } from '../api'
import { NEW_CHAT_DRAFT, selectActiveMessages, selectIsStreaming, useStore } from './index'

export type ContextState = {
  /** By chat ID: the last reading. */
  usage: Record<string, ContextUsage>
  /** By chat ID: the chat's summaries, oldest first. */
  summaries: Record<string, Summary[]>
  /** By chat ID: a compaction in flight. */
  compacting: Record<string, boolean>
  /** By summary ID: its text is shown (kept here: the message list remounts its items). */
  expanded: Record<string, boolean>
  /** The files waiting in the composer (counted with the draft). */
  draftFiles: DraftFile[]
}

export const useContextUsage = create<ContextState>()(() => ({ usage: {}, summaries: {}, compacting: {}, expanded: {}, draftFiles: [] }))

/** The composer says which files wait to be sent. */
export const setDraftFiles = (files: DraftFile[]) => useContextUsage.setState({ draftFiles: files })
const NO_FILES: DraftFile[] = []

export const toggleSummary = (id: string) => useContextUsage.setState((s) => ({ expanded: { ...s.expanded, [id]: !s.expanded[id] } }))

/** Replies can overtake one another: only the newest per chat applies. */
const seq: Record<string, number> = {}

export async function loadContextUsage(chatId: string, draft: string, files: DraftFile[] = NO_FILES): Promise<void> {
  const mine = (seq[chatId] = (seq[chatId] ?? 0) + 1)
  try {
    const u = files.length ? await contextApi.draftUsage(chatId, draft, files) : await contextApi.usage(chatId, draft)
    if (seq[chatId] === mine) useContextUsage.setState((s) => ({ usage: { ...s.usage, [chatId]: u } }))
  } catch {
    // No reading: the gauge keeps its last one (or hides).
  }
}

export async function loadSummaries(chatId: string): Promise<void> {
  try {
    const list = await contextApi.summaries(chatId)
    useContextUsage.setState((s) => ({ summaries: { ...s.summaries, [chatId]: list } }))
  } catch {
    // The chat shows no compaction marks until the next read.
  }
}

async function refresh(chatId: string) {
  await Promise.all([loadSummaries(chatId), loadContextUsage(chatId, '')])
}

/** Folds the older part of the chat into a summary now (the gauge's Compact; Compact and retry). */
export async function compactNow(chatId: string): Promise<boolean> {
  useContextUsage.setState((s) => ({ compacting: { ...s.compacting, [chatId]: true } }))
  try {
    await contextApi.compactNow(chatId)
    await refresh(chatId)
    return true
  } catch (err) {
    useStore.getState().toastError('context.compactFailed', toApiError(err))
    return false
  } finally {
    useContextUsage.setState((s) => ({ compacting: { ...s.compacting, [chatId]: false } }))
  }
}

/** The way on from an overflow error: compact, then ask for the answer again. */
export async function compactAndRetry(chatId: string): Promise<void> {
  if (await compactNow(chatId)) await useStore.getState().retry(chatId)
}

export async function undoSummary(chatId: string, id: string): Promise<void> {
  try {
    await contextApi.undoSummary(id)
  } catch (err) {
    useStore.getState().toastError('context.undoFailed', toApiError(err))
  }
  await refresh(chatId)
}

export async function setCompaction(chatId: string, mode: Compaction): Promise<void> {
  try {
    await contextApi.setCompaction(chatId, mode)
  } catch (err) {
    useStore.getState().toastError('context.modeFailed', toApiError(err))
  }
  await loadContextUsage(chatId, '')
}

/** How long the gauge waits after typing stops before measuring the draft. */
export const DRAFT_DEBOUNCE_MS = 400

/**
 * The active chat's reading, kept fresh: read when the chat, its messages
 * (a result arrived, an answer ended) or, after a pause in typing, its
 * draft change. Not while an answer streams (its text is not sent yet).
 */
export function useActiveContextUsage(): { chatId: string | null; usage: ContextUsage | null; draft: string; files: DraftFile[] } {
  const chatId = useStore((s) => s.activeChatId)
  const count = useStore((s) => selectActiveMessages(s).length)
  const last = useStore((s) => {
    const m = selectActiveMessages(s)
    return m.length ? `${m[m.length - 1].id}:${m[m.length - 1].status}` : ''
  })
  const streaming = useStore((s) => selectIsStreaming(s, s.activeChatId))
  const draft = useStore((s) => s.drafts[s.activeChatId ?? NEW_CHAT_DRAFT] ?? '')
  const usage = useContextUsage((s) => (chatId ? s.usage[chatId] ?? null : null))
  const files = useContextUsage((s) => s.draftFiles)
  useEffect(() => {
    if (!chatId || streaming) return
    const id = window.setTimeout(() => void loadContextUsage(chatId, draft.trim(), files), draft.trim() ? DRAFT_DEBOUNCE_MS : 0)
    return () => window.clearTimeout(id)
  }, [chatId, count, last, streaming, draft, files])
  return { chatId, usage, draft, files }
}

/** The active chat's summaries, read when the chat opens and when the backend says they changed. */
export function useChatSummaries(chatId: string | null): Summary[] {
  const list = useContextUsage((s) => (chatId ? s.summaries[chatId] : undefined))
  useEffect(() => {
    if (!chatId) return
    void loadSummaries(chatId)
    return onEvent<string>('context:summary', (id) => {
      if (id === chatId) void loadSummaries(chatId)
    })
  }, [chatId])
  return list ?? NONE
}

const NONE: Summary[] = []
