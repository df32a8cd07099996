// What Auto knows about the active provider's model (native or text calls,
// learned or chosen by the person), on top of the main store like store/mcp.ts.
import { useEffect } from 'react'
import { create } from 'zustand'
import { api, events, toApiError, type ModelModeInfo } from '../api'
import { selectActiveProvider, useStore, type Store } from './index'

export type ModelModeState = {
  info: ModelModeInfo | null
  loading: boolean
  /** Why it could not be read ('' = it could). */
  error: string
  /** A SetModelMode in flight. */
  busy: boolean
}

const initial = (): ModelModeState => ({ info: null, loading: false, error: '', busy: false })

export const useModelMode = create<ModelModeState>()(() => initial())

/** Replies can overtake one another: only the newest applies. */
let seq = 0
/** A read in flight (asked for twice at once, it is read once). */
let reading: Promise<void> | null = null

/** fresh: read again even if a read is in flight (Auto just learned something). */
export function loadModelMode(fresh = false): Promise<void> {
  if (reading && !fresh) return reading
  const mine = ++seq
  useModelMode.setState({ loading: true })
  const read: Promise<void> = api
    .modelMode()
    .then((info) => {
      if (mine === seq) useModelMode.setState({ info, loading: false, error: '' })
    })
    .catch((err) => {
      if (mine === seq) useModelMode.setState({ loading: false, error: toApiError(err).message })
    })
    .finally(() => {
      if (reading === read) reading = null
    })
  reading = read
  return read
}

/** Overrides what Auto learned for the active model ('' = go by what it learns); forget also drops what it learned. */
export async function setModelMode(override: '' | 'native' | 'text', forget: boolean): Promise<boolean> {
  const mine = ++seq
  useModelMode.setState({ busy: true })
  try {
    const info = await api.setModelMode(override, forget)
    if (mine === seq) useModelMode.setState({ info, error: '' })
    return true
  } catch (err) {
    useStore.getState().toastError('errors.modelMode', err)
    return false
  } finally {
    useModelMode.setState({ busy: false })
  }
}

/** Which model Auto's knowledge is about: the active provider and its model. */
export const selectModelKey = (s: Store): string => {
  const p = selectActiveProvider(s)
  return p ? `${p.id}\u0000${p.model}` : `${s.settings?.activeProviderId ?? ''}\u0000`
}

/** Reads what Auto knows while `enabled` (a chat in Auto mode is shown), again when the active model changes. */
export function useAutoModelMode(enabled: boolean): ModelModeInfo | null {
  const key = useStore(selectModelKey)
  useEffect(() => {
    if (enabled) void loadModelMode()
  }, [enabled, key])
  return useModelMode((s) => s.info)
}

/** Auto learned something (chat:notice tool_mode_learned): read it again. */
export function subscribeModelMode(): () => void {
  return events.onChatNotice((n) => {
    if (n?.code === 'tool_mode_learned') void loadModelMode(true)
  })
}

/** Test helper. */
export function resetModelMode() {
  seq++
  reading = null
  useModelMode.setState(initial())
}
