// Cards that form while the model writes: the calls of a streaming answer as
// the backend reads them so far (calls:forming). Display only — nothing here
// can be approved; the cards that can be decided come as call:updated once
// the answer has ended.
//
// Kept apart from the main store: an event every 150 ms re-renders the
// forming cards of one answer, never the message list.
import { create } from 'zustand'
import { events, type CallsForming, type FormingCall } from '../api'
import { useStore } from './index'

export type FormingState = {
  /** The calls being written, by the streaming assistant message writing them. */
  byMessage: Record<string, FormingCall[]>
}

export const useForming = create<FormingState>()(() => ({ byMessage: {} }))

/** Answers that ended (newest last): a calls:forming that arrives after its stream:end is dropped. */
const ended: string[] = []
const ENDED_KEPT = 64

/** Each event carries the whole list: it replaces what the message had. */
export function handleForming(f: CallsForming) {
  if (!f.messageId || ended.includes(f.messageId)) return
  // Another chat's cards would only be cleared on the way to it: the next event (≤ 150 ms) brings them.
  if (useStore.getState().activeChatId !== f.chatId) return
  useForming.setState((s) => {
    if (f.calls.length === 0) {
      if (!(f.messageId in s.byMessage)) return s
      const byMessage = { ...s.byMessage }
      delete byMessage[f.messageId]
      return { byMessage }
    }
    return { byMessage: { ...s.byMessage, [f.messageId]: f.calls } }
  })
}

/** The answer ended: its forming cards go (the real cards arrive as call:updated). */
export function endForming(messageId: string) {
  if (!messageId) return
  if (!ended.includes(messageId)) {
    ended.push(messageId)
    if (ended.length > ENDED_KEPT) ended.shift()
  }
  if (!(messageId in useForming.getState().byMessage)) return
  useForming.setState((s) => {
    const byMessage = { ...s.byMessage }
    delete byMessage[messageId]
    return { byMessage }
  })
}

export function clearForming() {
  if (Object.keys(useForming.getState().byMessage).length > 0) useForming.setState({ byMessage: {} })
}

/** calls:forming, stream:end, and a change of chat. */
export function subscribeForming(): () => void {
  const offForming = events.onCallsForming(handleForming)
  const offEnd = events.onStreamEnd((e) => endForming(e.messageId))
  const offChat = useStore.subscribe((s, prev) => {
    if (s.activeChatId !== prev.activeChatId) clearForming()
  })
  return () => {
    offForming()
    offEnd()
    offChat()
  }
}

const NONE: FormingCall[] = []
/** The calls a message is writing (a stable empty list when none). */
export const selectForming = (s: FormingState, messageId: string) => s.byMessage[messageId] ?? NONE

/** Test helper. */
export function resetForming() {
  ended.length = 0
  useForming.setState({ byMessage: {} })
}
