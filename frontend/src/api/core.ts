// The only place that touches `window.go` / `window.runtime`: the call into a
// bound Go method, errors as ApiError, events, the browser and the clipboard.
// The typed wrappers by concern (chats.ts, calls.ts, …) are built on it.
import type * as go from './generated'

/** A generated Go type with some fields narrowed by hand; N may only name fields T has (a renamed Go field fails here). */
export type Narrow<T, N extends { [K in keyof N]: K extends keyof T ? unknown : never }> = Omit<T, keyof N> & N
export type { go }

/** An error from the Go side (or from calling it), with a stable code. */
export class ApiError extends Error {
  readonly code: string
  /** The message coded for the UI's language (render with i18n's renderText), when the backend coded it. */
  readonly text?: BackendText
  constructor(code: string, message: string, text?: BackendText) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    if (text) this.text = text
  }
}

/** A sentence the backend wrote for people: code, parameters, English (Go: uitext.Text). */
export type BackendText = { code: string; params?: Record<string, unknown>; english: string }

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
      const p = parsed as { code?: unknown; message?: unknown; text?: unknown }
      if (typeof p.message === 'string' || typeof p.code === 'string') {
        const text = p.text && typeof p.text === 'object' ? (p.text as BackendText) : undefined
        return new ApiError(
          typeof p.code === 'string' && p.code ? p.code : 'unknown',
          typeof p.message === 'string' && p.message ? p.message : raw,
          text && typeof text.code === 'string' && typeof text.english === 'string' ? text : undefined,
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

export function backend(): Record<string, AnyFn> {
  const app = typeof window !== 'undefined' ? window.go?.main?.App : undefined
  if (!app) throw new ApiError('unavailable', 'The Airlock backend is not available.')
  return app
}

export async function call<T>(name: string, ...args: unknown[]): Promise<T> {
  try {
    const fn = backend()[name]
    if (typeof fn !== 'function') throw new ApiError('unavailable', `Backend method ${name} is missing.`)
    return (await fn(...args)) as T
  } catch (err) {
    throw toApiError(err)
  }
}

// Go returns nil slices as null, and may omit zero-valued fields.
export const arr = <T>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : [])

/** Subscribes to a backend event; returns the unsubscribe function. */
export function onEvent<T = unknown>(name: string, cb: (data: T) => void): () => void {
  const rt = typeof window !== 'undefined' ? window.runtime : undefined
  if (!rt?.EventsOn) return () => {}
  const off = rt.EventsOn(name, (data: unknown) => cb(data as T))
  return typeof off === 'function' ? off : () => {}
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
