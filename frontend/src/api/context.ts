// How much of the model's context window a chat's next request takes (the
// gauge in the chat header), and the summaries that fold the older part of
// a chat. Re-exported from ./index.
import type * as go from './generated'
import { call } from './core'

export type Compaction = 'auto' | 'ask' | 'off'
/** A file waiting in the composer, as the gauge counts it. */
export type DraftFile = go.DraftFile
export const COMPACTION_MODES: Compaction[] = ['auto', 'ask', 'off']
export type ContextUsage = Omit<go.ContextUsage, 'compaction'> & { compaction: Compaction }
export type SummaryState = 'active' | 'undone' | 'replaced'
export type Summary = Omit<go.Summary, 'state'> & { state: SummaryState }

export function normalizeContextUsage(u: Partial<go.ContextUsage> | null | undefined): ContextUsage {
  return {
    used: u?.used ?? 0,
    full: u?.full ?? 0,
    window: u?.window ?? 0,
    reserve: u?.reserve ?? 0,
    source: u?.source ?? '',
    model: u?.model ?? '',
    parts: {
      instructions: u?.parts?.instructions ?? 0,
      history: u?.parts?.history ?? 0,
      results: u?.parts?.results ?? 0,
      attachments: u?.parts?.attachments ?? 0,
    },
    elided: u?.elided ?? 0,
    dropped: u?.dropped ?? 0,
    cut: u?.cut ?? 0,
    tooLarge: !!u?.tooLarge,
    reported: u?.reported ?? 0,
    calibrated: !!u?.calibrated,
    compaction: (['auto', 'ask', 'off'] as const).find((m) => m === u?.compaction) ?? 'auto',
    summarized: u?.summarized ?? 0,
  }
}

const summaries = (v: go.Summary[] | null | undefined): Summary[] => (Array.isArray(v) ? (v as Summary[]) : [])

export const contextApi = {
  /** The chat's next request, with draft as the next message when not empty. */
  usage: async (chatId: string, draft = '') => normalizeContextUsage(await call<go.ContextUsage>('ContextUsage', chatId, draft)),
  /** The same, with the files waiting in the composer counted (kind, size, pixels; not their bytes). */
  draftUsage: async (chatId: string, draft: string, files: DraftFile[]) =>
    normalizeContextUsage(await call<go.ContextUsage>('DraftContextUsage', chatId, draft, files)),
  summaries: async (chatId: string) => summaries(await call<go.Summary[]>('ListSummaries', chatId)),
  compactNow: (chatId: string) => call<Summary>('CompactNow', chatId),
  undoSummary: (id: string) => call<Summary>('UndoSummary', id),
  setCompaction: (chatId: string, mode: Compaction) => call<void>('SetCompaction', chatId, mode),
}
