// How much of the model's context window a chat's next request takes (the
// gauge in the chat header). Re-exported from ./index.
import type * as go from './generated'
import { call } from './index'

export type ContextUsage = go.ContextUsage

export function normalizeContextUsage(u: Partial<ContextUsage> | null | undefined): ContextUsage {
  return {
    used: u?.used ?? 0,
    full: u?.full ?? 0,
    window: u?.window ?? 0,
    reserve: u?.reserve ?? 0,
    source: u?.source ?? '',
    model: u?.model ?? '',
    parts: { instructions: u?.parts?.instructions ?? 0, history: u?.parts?.history ?? 0, results: u?.parts?.results ?? 0 },
    elided: u?.elided ?? 0,
    dropped: u?.dropped ?? 0,
    cut: u?.cut ?? 0,
    tooLarge: !!u?.tooLarge,
    reported: u?.reported ?? 0,
    calibrated: !!u?.calibrated,
  }
}

export const contextApi = {
  /** The chat's next request, with draft as the next message when not empty. */
  usage: async (chatId: string, draft = '') => normalizeContextUsage(await call<ContextUsage>('ContextUsage', chatId, draft)),
}
