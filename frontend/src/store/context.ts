// The context gauge: what the active chat's next request takes of the
// model's window, read again when the conversation or the draft changes.
import { useEffect } from 'react'
import { create } from 'zustand'
import { contextApi, type ContextUsage } from '../api'
import { NEW_CHAT_DRAFT, selectActiveMessages, selectIsStreaming, useStore } from './index'

export type ContextState = {
  /** By chat ID: the last reading. */
  usage: Record<string, ContextUsage>
  /** By chat ID: why it could not be read ('' = it could). */
  error: Record<string, string>
}

export const useContextUsage = create<ContextState>()(() => ({ usage: {}, error: {} }))

/** Replies can overtake one another: only the newest per chat applies. */
const seq: Record<string, number> = {}

export async function loadContextUsage(chatId: string, draft: string): Promise<void> {
  const mine = (seq[chatId] = (seq[chatId] ?? 0) + 1)
  try {
    const u = await contextApi.usage(chatId, draft)
    if (seq[chatId] === mine) useContextUsage.setState((s) => ({ usage: { ...s.usage, [chatId]: u }, error: { ...s.error, [chatId]: '' } }))
  } catch (err) {
    if (seq[chatId] === mine) useContextUsage.setState((s) => ({ error: { ...s.error, [chatId]: String((err as Error)?.message ?? err) } }))
  }
}

/** How long the gauge waits after typing stops before measuring the draft. */
export const DRAFT_DEBOUNCE_MS = 400

/**
 * The active chat's reading, kept fresh: read when the chat, its messages
 * (a result arrived, an answer ended) or, after a pause in typing, its
 * draft change. Not while an answer streams (its text is not sent yet).
 */
export function useActiveContextUsage(): { chatId: string | null; usage: ContextUsage | null; draft: string } {
  const chatId = useStore((s) => s.activeChatId)
  const count = useStore((s) => selectActiveMessages(s).length)
  const last = useStore((s) => {
    const m = selectActiveMessages(s)
    return m.length ? `${m[m.length - 1].id}:${m[m.length - 1].status}` : ''
  })
  const streaming = useStore((s) => selectIsStreaming(s, s.activeChatId))
  const draft = useStore((s) => s.drafts[s.activeChatId ?? NEW_CHAT_DRAFT] ?? '')
  const usage = useContextUsage((s) => (chatId ? s.usage[chatId] ?? null : null))
  useEffect(() => {
    if (!chatId || streaming) return
    const id = window.setTimeout(() => void loadContextUsage(chatId, draft.trim()), draft.trim() ? DRAFT_DEBOUNCE_MS : 0)
    return () => window.clearTimeout(id)
  }, [chatId, count, last, streaming, draft])
  return { chatId, usage, draft }
}
