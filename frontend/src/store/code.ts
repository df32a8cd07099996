// The bounds of code runs (Settings → Tools → Running code), on top of the
// main store like store/undo.ts: its own small state, read when shown.
import { create } from 'zustand'
import { codeApi, toApiError, type CodeLimits } from '../api'

export type CodeLimitsState = { limits: CodeLimits | null; error: string | null }

export const useCodeLimits = create<CodeLimitsState>()(() => ({ limits: null, error: null }))

export async function loadCodeLimits(): Promise<void> {
  try {
    useCodeLimits.setState({ limits: await codeApi.getCodeLimits(), error: null })
  } catch (err) {
    useCodeLimits.setState({ error: toApiError(err).message })
  }
}

/** Saves the bounds; resolves to the error message, or null. */
export async function saveCodeLimits(l: CodeLimits): Promise<string | null> {
  try {
    useCodeLimits.setState({ limits: await codeApi.saveCodeLimits(l), error: null })
    return null
  } catch (err) {
    return toApiError(err).message
  }
}
