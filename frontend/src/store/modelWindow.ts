// A provider's model context window, as Settings ▸ Providers shows and edits it.
import { create } from 'zustand'
import { toApiError, windowApi, type ModelWindowInfo } from '../api'

export type ModelWindowState = {
  /** providerId + '\n' + model of what info is about. */
  key: string
  info: ModelWindowInfo | null
  loading: boolean
  /** A save or re-detect in flight. */
  busy: boolean
  /** Why it could not be read or saved ('' = it could). */
  error: string
}

export const useModelWindow = create<ModelWindowState>()(() => ({ key: '', info: null, loading: false, busy: false, error: '' }))

/** Replies can overtake one another: only the newest applies. */
let seq = 0

const keyOf = (providerId: string, model: string) => `${providerId}\n${model}`

/** Reads what is known (the server is asked the first time); detect asks it again. */
export async function loadModelWindow(providerId: string, model: string, detect = false): Promise<void> {
  const mine = ++seq
  const key = keyOf(providerId, model)
  useModelWindow.setState((s) => ({ key, info: s.key === key ? s.info : null, loading: !detect, busy: detect, error: '' }))
  try {
    const info = detect ? await windowApi.detect(providerId, model) : await windowApi.get(providerId, model)
    if (mine === seq) useModelWindow.setState({ info, loading: false, busy: false })
  } catch (err) {
    if (mine === seq) useModelWindow.setState({ loading: false, busy: false, error: toApiError(err).message })
  }
}

/** Keeps the user's window and answer budget (0 = not set); false when refused (error says why). */
export async function saveModelWindow(providerId: string, model: string, window: number, maxOutput: number): Promise<boolean> {
  const mine = ++seq
  useModelWindow.setState({ busy: true, error: '' })
  try {
    const info = await windowApi.set(providerId, model, window, maxOutput)
    if (mine === seq) useModelWindow.setState({ info, key: keyOf(providerId, model), busy: false })
    return true
  } catch (err) {
    if (mine === seq) useModelWindow.setState({ busy: false, error: toApiError(err).message })
    return false
  }
}

/** Tests: back to nothing known. */
export function resetModelWindow() {
  seq++
  useModelWindow.setState({ key: '', info: null, loading: false, busy: false, error: '' })
}
