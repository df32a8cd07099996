// Pure helpers for the tool-call cards: the store keeps calls grouped by the
// assistant message that proposed them, each group ordered by index. Events
// (call:updated) and action replies may arrive in any order, so an upsert
// never lets an older copy of a call replace a newer one.
import type { Call, CallState } from '../api'

export type CallsByMessage = Record<string, Call[]>

/** How far along the state machine a state is (for tie-breaking equal timestamps). */
const STAGE: Record<CallState, number> = {
  pending: 0,
  interrupted: 0,
  problem: 0,
  approved: 1,
  running: 2,
  done: 3,
  error: 3,
  denied: 3,
}

/** Whether `next` should replace `prev` (same call id). */
export function isNewer(next: Call, prev: Call): boolean {
  if (next.updatedAt !== prev.updatedAt) return next.updatedAt > prev.updatedAt
  const a = STAGE[next.state] ?? 0
  const b = STAGE[prev.state] ?? 0
  if (a !== b) return a > b
  // problem → problem ("tell the model") settles it in place: the settled copy wins.
  if (!!next.resultStatus !== !!prev.resultStatus) return !!next.resultStatus
  return true // same moment, same stage: the latest arrival wins
}

const byIndex = (a: Call, b: Call) => a.index - b.index || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1)

/** Inserts or replaces one call (by id) in a message's ordered list. Returns the same list when nothing changes. */
export function upsertInList(list: Call[], call: Call): Call[] {
  const i = list.findIndex((c) => c.id === call.id)
  if (i >= 0) {
    if (!isNewer(call, list[i])) return list
    const next = list.slice()
    next[i] = call
    if (next[i].index !== list[i].index) next.sort(byIndex)
    return next
  }
  return [...list, call].sort(byIndex)
}

/** Upserts a call into the by-message map. Returns the same map when nothing changes. */
export function upsertCall(map: CallsByMessage, call: Call): CallsByMessage {
  const list = map[call.messageId] ?? []
  const next = upsertInList(list, call)
  if (next === list && list.length > 0) return map
  return { ...map, [call.messageId]: next }
}

/** Upserts many calls at once (e.g. a ListCalls reply merged with events that raced ahead). */
export function upsertCalls(map: CallsByMessage, calls: Call[]): CallsByMessage {
  let out = map
  for (const c of calls) out = upsertCall(out, c)
  return out
}

/** Groups calls by messageId, each group ordered by index. */
export function groupByMessage(calls: Call[]): CallsByMessage {
  return upsertCalls({}, calls)
}

/** Waiting for a person: Run / Deny apply. */
export const isUndecided = (c: Call) => c.state === 'pending' || c.state === 'interrupted'
/** A problem card nobody has dealt with yet. */
export const isOpenProblem = (c: Call) => c.state === 'problem' && !c.resultStatus
/** Needs the user's attention (a decision or a fix). */
export const needsDecision = (c: Call) => isUndecided(c) || isOpenProblem(c)
/** Has an outcome the model can be told. */
export const isSettled = (c: Call) =>
  c.state === 'done' || c.state === 'error' || c.state === 'denied' || (c.state === 'problem' && !!c.resultStatus)
