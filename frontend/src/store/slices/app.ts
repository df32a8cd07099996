// Start-up of the main store: the first load, and wiring backend events and
// menu commands to the other slices' actions.
import { api, events, toApiError } from '../../api'
import { sortChats, type Slice } from './util'
import type { AppState, AppSlice } from '../types'

export const appInitial = (): AppState => ({ ready: false, bootError: null, info: null })

const noticesShown = new Set<string>()

export const createAppSlice: Slice<AppSlice> = (set, get) => ({
  ...appInitial(),

  notice: (message) => {
    if (noticesShown.has(message)) return
    noticesShown.add(message)
    get().toast({ kind: 'error', title: 'errors.startup', message, duration: 600_000 })
  },

  init: async () => {
    try {
      // Info may wait for the system keychain (where keys live): the window does not.
      void api.info().then(
        (info) => {
          set({ info })
          for (const n of info?.notices ?? []) get().notice(n)
        },
        () => {},
      )
      const [settings, providers, chats, active] = await Promise.all([
        api.getSettings(),
        api.listProviders(),
        api.listChats(),
        api.activeStreams().catch(() => [] as string[]),
      ])
      const streaming: Record<string, boolean> = {}
      for (const id of active) streaming[id] = true
      const sorted = sortChats(chats)
      set({ settings, providers, chats: sorted, streaming, ready: true, bootError: null })
      void get().loadTools()
      if (sorted.length > 0) await get().selectChat(sorted[0].id)
    } catch (err) {
      const e = toApiError(err)
      set({ ready: true, bootError: e.message })
    }
  },

  subscribe: () => {
    const offs = [
      events.onStreamDelta((d) => get().handleDelta(d)),
      events.onStreamEnd((e) => get().handleEnd(e)),
      events.onChatsChanged(() => void get().loadChats()),
      events.onCallUpdated((c) => get().handleCallUpdated(c)),
      events.onMessageAdded((m) => get().handleMessageAdded(m)),
      events.onChatNotice((n) => get().handleNotice(n)),
      events.onWorkspaceChanged((w) => get().handleWorkspaceChanged(w.chatId)),
      events.onMcpChanged(() => void get().loadTools()),
      events.onNotice((message) => get().notice(message)),
      events.onMenuNewChat(() => {
        const s = get()
        if (s.settingsOpen) s.closeSettings()
        if (s.aboutOpen) s.closeAbout()
        void s.newChat()
      }),
      events.onMenuSettings(() => {
        const s = get()
        if (s.aboutOpen) s.closeAbout()
        s.openSettings()
      }),
      events.onMenuAbout(() => {
        const s = get()
        if (s.settingsOpen) s.closeSettings()
        s.openAbout()
      }),
    ]
    return () => offs.forEach((off) => off())
  },
})
