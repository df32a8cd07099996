// Pure helpers for applying stream events to a list of messages. The store
// wires them to the backend; keeping them pure makes the ordering rules easy
// to test.
import type { Message, StreamDelta } from '../api'

/** Per-message bookkeeping for an in-flight stream. */
export type SyncState = {
  /** Highest seq applied (or known to be contained in the content). null = unknown baseline. */
  lastSeq: number | null
  /** A GetMessage re-read is in flight; deltas are parked in `buffer` meanwhile. */
  resyncing: boolean
  buffer: StreamDelta[]
}

export const freshSync = (lastSeq: number | null = 0): SyncState => ({
  lastSeq,
  resyncing: false,
  buffer: [],
})

export type DeltaDecision =
  | { kind: 'apply' } // exactly the next seq: append it
  | { kind: 'duplicate' } // already seen: drop it
  | { kind: 'buffer' } // a re-read is in flight: park it
  | { kind: 'resync' } // gap (or unknown baseline): park it and re-read the message

export function decideDelta(sync: SyncState | undefined, seq: number): DeltaDecision {
  const s = sync ?? freshSync(0)
  if (s.resyncing) return { kind: 'buffer' }
  if (s.lastSeq === null) return { kind: 'resync' }
  if (seq <= s.lastSeq) return { kind: 'duplicate' }
  if (seq === s.lastSeq + 1) return { kind: 'apply' }
  return { kind: 'resync' }
}

export function appendDelta(m: Message, d: Pick<StreamDelta, 'content' | 'reasoning'>): Message {
  if (!d.content && !d.reasoning) return m
  return {
    ...m,
    content: m.content + (d.content ?? ''),
    reasoning: m.reasoning + (d.reasoning ?? ''),
  }
}

/**
 * Merges deltas that arrived while a re-read was in flight into the fresh
 * snapshot. The snapshot may already contain a prefix of the parked deltas
 * (the backend kept writing while we asked), so find the longest such prefix
 * whose text the snapshot already ends with and append only the rest.
 */
export function mergeSnapshot(snapshot: Message, parked: StreamDelta[]): Message {
  const sorted = dedupeBySeq(parked)
  if (sorted.length === 0) return snapshot
  let keep = 0 // number of leading parked deltas already in the snapshot
  for (let j = sorted.length; j > 0; j--) {
    const head = sorted.slice(0, j)
    const c = head.map((d) => d.content ?? '').join('')
    const r = head.map((d) => d.reasoning ?? '').join('')
    if ((c === '' || snapshot.content.endsWith(c)) && (r === '' || snapshot.reasoning.endsWith(r))) {
      keep = j
      break
    }
  }
  let out = snapshot
  for (const d of sorted.slice(keep)) out = appendDelta(out, d)
  return out
}

export function dedupeBySeq(list: StreamDelta[]): StreamDelta[] {
  const bySeq = new Map<number, StreamDelta>()
  for (const d of list) if (!bySeq.has(d.seq)) bySeq.set(d.seq, d)
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq)
}

/** Replaces (by id) or appends a message, keeping creation order. */
export function upsertMessage(list: Message[], m: Message): Message[] {
  const i = list.findIndex((x) => x.id === m.id)
  if (i >= 0) {
    const next = list.slice()
    next[i] = m
    return next
  }
  const next = [...list, m]
  next.sort((a, b) => a.createdAt - b.createdAt)
  return next
}
