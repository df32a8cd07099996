// The ONLY module that touches `window.go` / `window.runtime`. Everything else
// imports the typed wrappers below, which keeps the Go contract in one place
// and lets tests mock this module wholesale.

export type Role = 'user' | 'assistant' | 'system'
export type Kind = 'text' | 'tool_results'
export type MessageStatus = 'streaming' | 'complete' | 'interrupted' | 'error'

export type Chat = { id: string; title: string; createdAt: number; updatedAt: number }
export type Usage = { promptTokens: number; completionTokens: number; totalTokens: number }
export type Message = {
  id: string
  chatId: string
  role: Role
  kind: Kind
  content: string
  reasoning: string
  status: MessageStatus
  errorCode?: string
  errorMessage?: string
  model?: string
  usage: Usage
  createdAt: number
  updatedAt: number
}
export type Provider = {
  id: string
  name: string
  baseUrl: string
  apiKey: string
  model: string
  demo: boolean
}
export type Language = 'auto' | 'en' | 'zh'
export type Theme = 'system' | 'light' | 'dark'
export type Settings = {
  activeProviderId: string
  systemPrompt: string
  /** Below 0 means "use the provider's default". */
  temperature: number
  language: Language
  theme: Theme
}
export type AppInfo = { version: string; dataDir: string; envProvider: boolean }

export type StreamDelta = {
  chatId: string
  messageId: string
  seq: number
  content: string
  reasoning: string
}
export type StreamEnd = { chatId: string; messageId: string; seq: number; message: Message }

export const DEMO_PROVIDER_ID = 'demo'
export const ENV_PROVIDER_ID = 'env'

/** An error from the Go side (or from calling it), with a stable code. */
export class ApiError extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.name = 'ApiError'
    this.code = code
  }
}

/** Turns whatever a rejected binding produced into an ApiError. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  const raw =
    typeof err === 'string'
      ? err
      : err instanceof Error
        ? err.message
        : err && typeof err === 'object' && 'message' in err
          ? String((err as { message: unknown }).message)
          : String(err)
  try {
    const parsed: unknown = JSON.parse(raw)
    if (parsed && typeof parsed === 'object') {
      const p = parsed as { code?: unknown; message?: unknown }
      if (typeof p.message === 'string' || typeof p.code === 'string') {
        return new ApiError(
          typeof p.code === 'string' && p.code ? p.code : 'unknown',
          typeof p.message === 'string' && p.message ? p.message : raw,
        )
      }
    }
  } catch {
    // not JSON: fall through to the raw string
  }
  return new ApiError('unknown', raw || 'Unknown error')
}

type AnyFn = (...args: unknown[]) => Promise<unknown>

interface WailsRuntime {
  EventsOn?: (name: string, cb: (...data: unknown[]) => void) => (() => void) | void
  EventsOff?: (name: string, ...more: string[]) => void
  BrowserOpenURL?: (url: string) => void
  ClipboardSetText?: (text: string) => Promise<boolean> | boolean
}

declare global {
  interface Window {
    go?: { main?: { App?: Record<string, AnyFn> } }
    runtime?: WailsRuntime
  }
}

function backend(): Record<string, AnyFn> {
  const app = typeof window !== 'undefined' ? window.go?.main?.App : undefined
  if (!app) throw new ApiError('unavailable', 'The Airlock backend is not available.')
  return app
}

async function call<T>(name: string, ...args: unknown[]): Promise<T> {
  try {
    const fn = backend()[name]
    if (typeof fn !== 'function') throw new ApiError('unavailable', `Backend method ${name} is missing.`)
    return (await fn(...args)) as T
  } catch (err) {
    throw toApiError(err)
  }
}

// Go returns nil slices as null, and may omit zero-valued fields.
const arr = <T>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : [])

export function normalizeMessage(m: Message): Message {
  return {
    ...m,
    kind: m.kind || 'text',
    content: m.content ?? '',
    reasoning: m.reasoning ?? '',
    usage: {
      promptTokens: m.usage?.promptTokens ?? 0,
      completionTokens: m.usage?.completionTokens ?? 0,
      totalTokens: m.usage?.totalTokens ?? 0,
    },
  }
}

export const api = {
  info: () => call<AppInfo>('Info'),
  listChats: async () => arr(await call<Chat[] | null>('ListChats')),
  createChat: () => call<Chat>('CreateChat'),
  renameChat: (id: string, title: string) => call<Chat>('RenameChat', id, title),
  deleteChat: (id: string) => call<void>('DeleteChat', id),
  listMessages: async (chatId: string) =>
    arr(await call<Message[] | null>('ListMessages', chatId)).map(normalizeMessage),
  getMessage: async (id: string) => normalizeMessage(await call<Message>('GetMessage', id)),
  send: async (chatId: string, text: string) =>
    arr(await call<Message[] | null>('Send', chatId, text)).map(normalizeMessage),
  stop: (chatId: string) => call<void>('Stop', chatId),
  retry: async (chatId: string) => normalizeMessage(await call<Message>('Retry', chatId)),
  activeStreams: async () => arr(await call<string[] | null>('ActiveStreams')),
  getSettings: () => call<Settings>('GetSettings'),
  saveSettings: (s: Settings) => call<Settings>('SaveSettings', s),
  listProviders: async () => arr(await call<Provider[] | null>('ListProviders')),
  saveProvider: (p: Provider) => call<Provider>('SaveProvider', p),
  deleteProvider: (id: string) => call<void>('DeleteProvider', id),
  listModels: async (p: Provider) => arr(await call<string[] | null>('ListModels', p)),
  testConnection: (p: Provider) => call<string>('TestConnection', p),
}

export type Api = typeof api

/** Subscribes to a backend event; returns the unsubscribe function. */
export function onEvent<T = unknown>(name: string, cb: (data: T) => void): () => void {
  const rt = typeof window !== 'undefined' ? window.runtime : undefined
  if (!rt?.EventsOn) return () => {}
  const off = rt.EventsOn(name, (data: unknown) => cb(data as T))
  return typeof off === 'function' ? off : () => {}
}

export const events = {
  onStreamDelta: (cb: (d: StreamDelta) => void) => onEvent<StreamDelta>('stream:delta', cb),
  onStreamEnd: (cb: (d: StreamEnd) => void) => onEvent<StreamEnd>('stream:end', cb),
  onChatsChanged: (cb: () => void) => onEvent('chats:changed', () => cb()),
}

const SAFE_EXTERNAL = /^(https?:|mailto:)/i

/** Opens an http(s)/mailto URL in the system browser; never navigates the webview. */
export function openExternal(url: string): boolean {
  if (!SAFE_EXTERNAL.test(url.trim())) return false
  const rt = typeof window !== 'undefined' ? window.runtime : undefined
  if (rt?.BrowserOpenURL) {
    rt.BrowserOpenURL(url.trim())
    return true
  }
  return false
}

/** Copies text via the Wails clipboard, falling back to the web clipboard. */
export async function copyText(text: string): Promise<void> {
  const rt = typeof window !== 'undefined' ? window.runtime : undefined
  if (rt?.ClipboardSetText) {
    try {
      const ok = await rt.ClipboardSetText(text)
      if (ok !== false) return
    } catch {
      // fall back below
    }
  }
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text)
    return
  }
  throw new ApiError('clipboard', 'Clipboard is not available.')
}
