// Sentences the backend writes for people arrive as {code, params, english}
// (backend/uitext). The one place they become text: the code's string in
// the language shown (backendText.<code>, see backendText.en.ts, generated
// from Go, and backendText.zh.ts), filled with the parameters, a parameter
// that is itself a sentence rendered first; the English when a code has no
// string (or the sentence is not coded).
import type { BackendText as UiText } from '../api'
import type { TFunction } from './core'

export type { UiText }

export function isUiText(v: unknown): v is UiText {
  return !!v && typeof v === 'object' && typeof (v as UiText).english === 'string' && typeof (v as UiText).code === 'string'
}

/** The sentence in the language shown; `fallback` when there is none. */
export function renderText(t: TFunction, text: UiText | null | undefined, fallback = ''): string {
  if (!isUiText(text)) return fallback
  if (!text.code) return text.english || fallback
  const params: Record<string, string> = {}
  for (const [name, v] of Object.entries(text.params ?? {})) params[name] = paramText(t, v)
  return t(`backendText.${text.code}`, { ...params, defaultValue: text.english })
}

// A parameter: a sentence rendered in its turn, a list of sentences joined by "; ", or a value.
function paramText(t: TFunction, v: unknown): string {
  if (isUiText(v)) return renderText(t, v)
  if (Array.isArray(v)) return v.map((x) => paramText(t, x)).join('; ')
  return String(v ?? '')
}

/** The coded sentences an error is made of: its parts when it lists several (an Apply refused for some files), else itself. */
export function sentenceParts(text: UiText | null | undefined): UiText[] {
  if (!isUiText(text)) return []
  const parts = text.params?.parts
  return Array.isArray(parts) && parts.every(isUiText) ? parts : [text]
}

/** An error's sentence in the language shown (its coded text, else its message). */
export function errorSentence(t: TFunction, err: { message: string; text?: UiText | null }): string {
  return renderText(t, err.text, err.message)
}
