// What Auto knows about the open chat's model (native or text calls,
// learned or chosen by the person), on top of the main store like store/mcp.ts.
// The chat's own provider and model, not the active provider's: with no
// chat open, the model the chat not created yet starts with.
import { useEffect } from 'react'
import { create } from 'zustand'
import { api, events, toApiError, type ModelModeInfo, type ModelTarget } from '../api'
import { useAgents } from './agents'
import { useStore } from './index'

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
    .modelMode(modelTarget())
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

/** Overrides what Auto learned for a chat's model (by default the open chat's; '' = go by what it learns); forget also drops what it learned. */
export async function setModelMode(override: '' | 'native' | 'text', forget: boolean, target: ModelTarget = modelTarget()): Promise<boolean> {
  const mine = ++seq
  useModelMode.setState({ busy: true })
  try {
    const info = await api.setModelMode(override, forget, target)
    if (mine === seq) useModelMode.setState({ info, error: '' })
    return true
  } catch (err) {
    useStore.getState().toastError('errors.modelMode', err)
    return false
  } finally {
    useModelMode.setState({ busy: false })
  }
}

/** Which model Auto's knowledge is about: the open chat's, else the one a new chat starts with. */
export function modelTarget(): ModelTarget {
  const chatId = useStore.getState().activeChatId
  if (chatId) return { chatId, providerId: '', model: '' }
  const next = useAgents.getState().next
  return { chatId: '', providerId: next?.providerId ?? '', model: next?.model ?? '' }
}

/** A key that changes when that model does (the chat, its model, or the new chat's). */
function useModelKey(): string {
  const chat = useStore((s) => {
    const c = s.activeChatId ? s.chats.find((x) => x.id === s.activeChatId) : undefined
    return s.activeChatId ? [s.activeChatId, c?.providerId ?? '', c?.model ?? ''].join('\u0000') : ''
  })
  const next = useAgents((s) => [s.next?.providerId ?? '', s.next?.model ?? ''].join('\u0000'))
  const active = useStore((s) => s.settings?.activeProviderId ?? '')
  return [chat || next, active].join('\u0001')
}

/** Reads what Auto knows while `enabled` (a chat in Auto mode is shown), again when that chat's model changes. */
export function useAutoModelMode(enabled: boolean): ModelModeInfo | null {
  const key = useModelKey()
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
