// UI state of the main store: toasts, drafts, which view/dialog shows, composer focus.
import { toApiError } from '../../api'
import type { Slice } from './util'

export type ToastKind = 'error' | 'success' | 'info'
export type Toast = {
  id: number
  kind: ToastKind
  title: string
  message?: string
  code?: string
  /** A button in the toast (e.g. Undo); `label` is an i18n key. */
  action?: { label: string; testId?: string; run: () => void }
  /** How long it stays (ms); the default depends on the kind. */
  duration?: number
}
export type SettingsTab = 'providers' | 'agents' | 'general' | 'tools' | 'permissions' | 'data' | 'about'
export type View = 'chat' | 'lab' | 'activity'

/** Key for the draft of the "no chat yet" composer. */
export const NEW_CHAT_DRAFT = '__new__'

export type UiState = {
  drafts: Record<string, string>
  toasts: Toast[]
  settingsOpen: boolean
  settingsTab: SettingsTab
  /** Bumped to ask the composer to take focus. */
  focusComposerTick: number
  /** What the main pane shows. */
  view: View
  aboutOpen: boolean
}

export type UiActions = {
  setDraft: (chatId: string, text: string) => void
  openSettings: (tab?: SettingsTab) => void
  closeSettings: () => void
  focusComposer: () => void
  toast: (t: Omit<Toast, 'id'>) => number
  toastError: (title: string, err: unknown) => void
  dismissToast: (id: number) => void
  setView: (v: View) => void
  openAbout: () => void
  closeAbout: () => void
}

export type UiSlice = UiState & UiActions

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
    get().toast({ kind: 'error', title, message: e.message, code: e.code !== 'unknown' ? e.code : undefined })
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),

  setView: (view) => set({ view }),
  openAbout: () => set({ aboutOpen: true }),
  closeAbout: () => set({ aboutOpen: false }),
})
