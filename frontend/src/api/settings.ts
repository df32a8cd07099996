// Settings, providers, what Auto learned per model, the app itself.
import { arr, call, type go, type Narrow } from './core'
import { asToolMode, type ToolMode } from './chats'

export type Provider = Narrow<go.Provider, { kind: 'openai' | 'anthropic' | '' }>
export type Language = 'auto' | 'en' | 'zh'
export type Theme = 'system' | 'light' | 'dark'
export type Settings = Narrow<go.Settings, { language: Language; theme: Theme; toolMode: ToolMode }>
/** What Auto knows about the active provider's model ('' = nothing learned / no override). */
export type ModelModeInfo = Narrow<go.ModelModeInfo, { learned: '' | 'native' | 'text'; override: '' | 'native' | 'text'; effective: 'native' | 'text' }>
/** `notices`: what went wrong at start that people must know (a damaged database set aside…), shown once. */
/** `keyStorage`: where API keys are kept — the system keychain, or (none answered) the owner-only database. */
export type AppInfo = Narrow<go.AppInfo, { keyStorage?: 'keychain' | 'database' }>
export type AboutInfo = go.AboutInfo

export const DEMO_PROVIDER_ID = 'demo'
export const ENV_PROVIDER_ID = 'env'

const asLearned = (m: unknown): '' | 'native' | 'text' => (m === 'native' || m === 'text' ? m : '')

export function normalizeSettings(s: Settings): Settings {
  return {
    ...s,
    autoContinue: s.autoContinue ?? true,
    maxTurns: s.maxTurns || 25,
    toolTimeoutSeconds: s.toolTimeoutSeconds || 30,
    toolMode: asToolMode(s.toolMode, 'auto'),
  }
}

/** Whose model Auto's knowledge is about: a chat's, or (no chat yet) a provider's model. */
export type ModelTarget = { chatId: string; providerId: string; model: string }
const NO_TARGET: ModelTarget = { chatId: '', providerId: '', model: '' }

export function normalizeModelMode(m: Partial<ModelModeInfo> | null | undefined): ModelModeInfo {
  const learned = asLearned(m?.learned)
  const override = asLearned(m?.override)
  const effective = m?.effective === 'native' || m?.effective === 'text' ? m.effective : override || learned || 'native'
  return {
    providerId: m?.providerId ?? '',
    model: m?.model ?? '',
    learned,
    reason: m?.reason ?? '',
    learnedAt: m?.learnedAt ?? 0,
    override,
    effective,
  }
}

export const settingsApi = {
  info: () => call<AppInfo>('Info'),
  about: () => call<AboutInfo>('About'),
  openDataDir: () => call<void>('OpenDataDir'),
  getSettings: async () => normalizeSettings(await call<Settings>('GetSettings')),
  saveSettings: async (s: Settings) => normalizeSettings(await call<Settings>('SaveSettings', s)),
  listProviders: async () => arr(await call<Provider[] | null>('ListProviders')),
  saveProvider: (p: Provider) => call<Provider>('SaveProvider', p),
  deleteProvider: (id: string) => call<void>('DeleteProvider', id),
  listModels: async (p: Provider) => arr(await call<string[] | null>('ListModels', p)),
  testConnection: (p: Provider) => call<string>('TestConnection', p),
  /** What Auto knows about a chat's model (no chat: the given provider's model; '' = the active provider). */
  modelMode: async (m: ModelTarget = NO_TARGET) => normalizeModelMode(await call<ModelModeInfo>('ModelMode', m.chatId, m.providerId, m.model)),
  /** Overrides what Auto learned for that model ('' = go by what it learns); forget drops what it learned (it tries native again). */
  setModelMode: async (override: '' | 'native' | 'text', forget: boolean, m: ModelTarget = NO_TARGET) =>
    normalizeModelMode(await call<ModelModeInfo>('SetModelMode', m.chatId, m.providerId, m.model, override, forget)),
  /** How long (ms) the caret blinks without input before it should rest; 0 = never (store/caret.ts). */
  caretRestAfter: () => call<number>('CaretRestAfter'),
  setCaretResting: (resting: boolean) => call<void>('SetCaretResting', resting),
  /** Opens a link in the system browser; fails (no_browser) when none opens. */
  openURL: (url: string) => call<void>('OpenURL', url),
}
