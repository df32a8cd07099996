// A model's context window: what is known, the user's setting, Re-detect
// (facade/context_window.go).
import { call, type go } from './core'

/** What is known of a model's window; `tokens`/`source` are what requests are fitted to ('' = unknown). */
export type ContextWindow = go.ContextWindow
export type ModelWindowInfo = go.ModelWindowInfo

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0)
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

export function normalizeModelWindow(m: Partial<ModelWindowInfo> | null | undefined): ModelWindowInfo {
  const d: Partial<ContextWindow> = m?.discovered ?? {}
  return {
    providerId: str(m?.providerId),
    model: str(m?.model),
    discovered: { tokens: num(d.tokens), modelMax: num(d.modelMax), loaded: num(d.loaded), maxOutput: num(d.maxOutput), source: str(d.source), note: str(d.note) },
    discoveredAt: num(m?.discoveredAt),
    learned: num(m?.learned),
    learnedReason: str(m?.learnedReason),
    learnedAt: num(m?.learnedAt),
    userWindow: num(m?.userWindow),
    userMaxOutput: num(m?.userMaxOutput),
    updatedAt: num(m?.updatedAt),
    tokens: num(m?.tokens),
    source: str(m?.source),
    unreachable: m?.unreachable === true,
  }
}

/** A model's context window: what is known, the user's setting, Re-detect. */
export const windowApi = {
  /** What is known of the model's window ('' provider = the active one, '' model = the provider's); asked of the server the first time. */
  get: async (providerId = '', model = '') => normalizeModelWindow(await call<ModelWindowInfo>('ModelWindow', providerId, model)),
  /** Asks the server again, forgetting what an overflow error taught. */
  detect: async (providerId = '', model = '') => normalizeModelWindow(await call<ModelWindowInfo>('DetectModelWindow', providerId, model)),
  /** The user's window and answer budget in tokens (0 = not set). */
  set: async (providerId: string, model: string, window: number, maxOutput: number) =>
    normalizeModelWindow(await call<ModelWindowInfo>('SetModelWindow', providerId, model, window, maxOutput)),
}
