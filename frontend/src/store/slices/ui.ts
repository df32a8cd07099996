// UI state of the main store: toasts, drafts, which view/dialog shows, composer focus.
import { toApiError } from '../../api'
import type { Slice } from './util'
import type { UiState, UiSlice } from '../types'

/** Key for the draft of the "no chat yet" composer. */
export const NEW_CHAT_DRAFT = '__new__'

export const uiInitial = (): UiState => ({
  drafts: {},
  toasts: [],
  settingsOpen: false,
  settingsTab: 'general',
  focusComposerTick: 0,
  view: 'chat',
  aboutOpen: false,
})

let toastSeq = 0

export const createUiSlice: Slice<UiSlice> = (set, get) => ({
  ...uiInitial(),

  setDraft: (chatId, text) => set((s) => ({ drafts: { ...s.drafts, [chatId]: text } })),

  openSettings: (tab) => set((s) => ({ settingsOpen: true, settingsTab: tab ?? s.settingsTab })),
  closeSettings: () => set({ settingsOpen: false }),
  focusComposer: () => set((s) => ({ focusComposerTick: s.focusComposerTick + 1 })),

  toast: (t) => {
    const id = ++toastSeq
    set((s) => ({ toasts: [...s.toasts.slice(-3), { ...t, id }] }))
    if (typeof window !== 'undefined') {
      window.setTimeout(() => get().dismissToast(id), t.duration ?? (t.kind === 'error' ? 12000 : 4000))
    }
    return id
  },
  toastError: (title, err) => {
    const e = toApiError(err)
    get().toast({ kind: 'error', title, message: e.message, text: e.text, code: e.code !== 'unknown' ? e.code : undefined })
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),

  setView: (view) => set({ view }),
  openAbout: () => set({ aboutOpen: true }),
  closeAbout: () => set({ aboutOpen: false }),
})
