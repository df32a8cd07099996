import { create } from 'zustand'
import {
  ENV_PROVIDER_ID,
  api,
  chatWorkspace,
  DEFAULT_CHAT_OPTIONS,
  DEFAULT_WORKSPACE,
  events,
  historyApi,
  toApiError,
  type ApiError,
  type AppInfo,
  type Call,
  type Change,
  type Chat,
  type ChatNotice,
  type ChatOptions,
  type Message,
  type Provider,
  type RunOutput,
  type Settings,
  type StreamDelta,
  type StreamEnd,
  type ToolSpec,
  type WorkspaceChoice,
  type WorkspaceInfo,
} from '../api'
import { cleanFolder } from '../lib/tree'
import { needsDecision, upsertCall, upsertCalls, type CallsByMessage } from './calls'
import {
  appendDelta,
  decideDelta,
  freshSync,
  mergeSnapshot,
  upsertMessage,
  type SyncState,
} from './stream'

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
export type SettingsTab = 'providers' | 'general' | 'tools' | 'permissions' | 'data' | 'about'
export type View = 'chat' | 'lab' | 'activity'
/** A chat's workspace as the files panel last loaded it. */
export type WorkspaceState = {
  info: WorkspaceInfo | null
  /** Overlay: what Apply would write (empty otherwise). */
  changes: Change[]
  loading: boolean
  error: { code: string; message: string } | null
  /** Bumped by every load that finished (an open file re-reads on it). */
  version: number
}
/** Options for a call action: `quiet` = the caller shows the error itself (e.g. inline in an edit form). */
type ActionOpts = { quiet?: boolean }

export type State = {
  ready: boolean
  bootError: string | null
  info: AppInfo | null
  chats: Chat[]
  activeChatId: string | null
  /** Messages of the chats we have loaded, by chat id. */
  messages: Record<string, Message[]>
  loadingChat: Record<string, boolean>
  /** Chats with a stream in flight, as far as we know. */
  streaming: Record<string, boolean>
  /** Stream bookkeeping, by message id. */
  sync: Record<string, SyncState>
  /** Deltas for messages we have not seen yet (Send has not returned), by message id. */
  pending: Record<string, StreamDelta[]>
  /** Final messages that ended before we saw them (stream:end beat Send's reply). */
  ended: Record<string, Message>
  settings: Settings | null
  providers: Provider[]
  drafts: Record<string, string>
  toasts: Toast[]
  settingsOpen: boolean
  settingsTab: SettingsTab
  /** Bumped to ask the composer to take focus. */
  focusComposerTick: number
  /** Tool calls of the chats we have loaded, grouped by the assistant message that proposed them. */
  callsByMessage: CallsByMessage
  /** The latest notice per chat (e.g. the turn cap paused the loop), until acted on. */
  notices: Record<string, ChatNotice>
  /** What the main pane shows. */
  view: View
  aboutOpen: boolean
  /** Chat options picked for the lazy "new chat" before it exists; applied right after CreateChat. */
  newChatOptions: ChatOptions
  /** The files panel (right of the chat) is open; remembered across launches. */
  filesOpen: boolean
  /** Workspaces of the chats the panel has shown, by chat id. */
  workspaces: Record<string, WorkspaceState>
  /** The workspace picked for the lazy "new chat"; applied right after CreateChat. */
  newChatWorkspace: WorkspaceChoice
  /** Long chats load a page at a time: older messages exist above the loaded ones (by chat id). */
  hasOlder: Record<string, boolean>
  loadingOlder: Record<string, boolean>
  /** The tools the model can be offered, with their kinds (MCP tools name their server). */
  tools: ToolSpec[]
  /** The MCP servers picked for the lazy "new chat" (null = all enabled); applied right after CreateChat. */
  newChatServers: string[] | null
}

type Actions = {
  init: () => Promise<void>
  subscribe: () => () => void
  loadChats: () => Promise<void>
  selectChat: (id: string | null) => Promise<void>
  loadMessages: (chatId: string) => Promise<void>
  newChat: () => Promise<void>
  renameChat: (id: string, title: string) => Promise<boolean>
  deleteChat: (id: string) => Promise<boolean>
  send: (text: string) => Promise<boolean>
  stop: (chatId?: string) => Promise<void>
  retry: (chatId?: string) => Promise<void>
  handleDelta: (d: StreamDelta) => void
  handleEnd: (e: StreamEnd) => void
  resync: (chatId: string, messageId: string) => Promise<void>
  loadSettings: () => Promise<void>
  saveSettings: (s: Settings) => Promise<Settings>
  loadProviders: () => Promise<void>
  saveProvider: (p: Provider) => Promise<Provider>
  deleteProvider: (id: string) => Promise<void>
  setActiveProvider: (id: string) => Promise<void>
  setDraft: (chatId: string, text: string) => void
  openSettings: (tab?: SettingsTab) => void
  closeSettings: () => void
  focusComposer: () => void
  toast: (t: Omit<Toast, 'id'>) => number
  toastError: (title: string, err: unknown) => void
  dismissToast: (id: number) => void
  loadCalls: (chatId: string) => Promise<void>
  handleCallUpdated: (c: Call) => void
  handleMessageAdded: (m: Message) => void
  handleNotice: (n: ChatNotice) => void
  dismissNotice: (chatId: string) => void
  approveCall: (callId: string, edited?: Record<string, unknown> | null, opts?: ActionOpts) => Promise<ApiError | null>
  denyCall: (callId: string, reason: string, opts?: ActionOpts) => Promise<ApiError | null>
  alwaysAllowCall: (callId: string, everywhere: boolean, opts?: ActionOpts) => Promise<ApiError | null>
  tellModel: (callId: string, opts?: ActionOpts) => Promise<ApiError | null>
  fixAndRun: (callId: string, name: string, args: Record<string, unknown>, opts?: ActionOpts) => Promise<ApiError | null>
  cancelCall: (callId: string) => Promise<void>
  runAll: (messageId: string) => Promise<void>
  denyAll: (messageId: string, reason: string) => Promise<void>
  continueChat: (chatId?: string) => Promise<void>
  /** Saves a chat's tool options (null = the lazy new chat: kept until it is created). */
  setChatOptions: (chatId: string | null, o: ChatOptions) => Promise<boolean>
  setView: (v: View) => void
  openAbout: () => void
  closeAbout: () => void
  /** Opens/closes the files panel (toggles without an argument). */
  toggleFiles: (open?: boolean) => void
  /** (Re)loads a chat's workspace listing, and an overlay's changes. */
  loadWorkspace: (chatId: string) => Promise<void>
  handleWorkspaceChanged: (chatId: string) => void
  /** Sets where a chat's tools work (null = the lazy new chat). The backend's rejection is returned, not toasted. */
  setWorkspace: (chatId: string | null, choice: WorkspaceChoice) => Promise<ApiError | null>
  /** Overlay: writes changes to the real folder ([] = all). Errors are returned (apply_conflict names the files). */
  applyChanges: (chatId: string, paths: string[]) => Promise<ApiError | null>
  discardChanges: (chatId: string, paths: string[]) => Promise<ApiError | null>
  resetScratch: (chatId: string) => Promise<ApiError | null>
  /** Runs a tool by hand on a chat's workspace (Tool lab). */
  runTool: (chatId: string, name: string, args: Record<string, unknown>) => Promise<{ output: RunOutput } | { error: ApiError }>
  /** (Re)loads the tools list (at start and when an MCP server's tools change). */
  loadTools: () => Promise<void>
}

export type Store = State & Actions

/** Key for the draft of the "no chat yet" composer. */
export const NEW_CHAT_DRAFT = '__new__'

let toastSeq = 0
/** Send/Retry calls in flight, by chat id; `stop` = Stop was pressed before they returned. */
const inflight = new Map<string, { stop: boolean }>()
const flushStop = (chatId: string) => {
  const f = inflight.get(chatId)
  inflight.delete(chatId)
  return !!f?.stop
}
const RESYNC_UNKNOWN_AFTER_MS = 600

const FILES_KEY = 'airlock.filesPanel'
function readFilesOpen(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(FILES_KEY) === 'open'
  } catch {
    return false
  }
}
function writeFilesOpen(open: boolean) {
  try {
    localStorage.setItem(FILES_KEY, open ? 'open' : 'closed')
  } catch {
    // storage unavailable: the panel just isn't remembered
  }
}
/** Workspace loads in flight (by chat id); `again` = something changed meanwhile, load once more. */
const wsInflight = new Map<string, { again: boolean }>()
/** Debounced refreshes after file-tool calls, by chat id. */
const wsTimers = new Map<string, ReturnType<typeof setTimeout>>()
const WS_REFRESH_MS = 120
const emptyWorkspace = (): WorkspaceState => ({ info: null, changes: [], loading: false, error: null, version: 0 })

const initialState = (): State => ({
  ready: false,
  bootError: null,
  info: null,
  chats: [],
  activeChatId: null,
  messages: {},
  loadingChat: {},
  streaming: {},
  sync: {},
  pending: {},
  ended: {},
  settings: null,
  providers: [],
  drafts: {},
  toasts: [],
  settingsOpen: false,
  settingsTab: 'general',
  focusComposerTick: 0,
  callsByMessage: {},
  notices: {},
  view: 'chat',
  aboutOpen: false,
  newChatOptions: { ...DEFAULT_CHAT_OPTIONS },
  filesOpen: readFilesOpen(),
  workspaces: {},
  newChatWorkspace: { ...DEFAULT_WORKSPACE },
  hasOlder: {},
  loadingOlder: {},
  tools: [],
  newChatServers: null,
})

/** How many messages a chat opens with (older ones load on demand). */
export const PAGE_SIZE = 50

const sortChats = (chats: Chat[]) => [...chats].sort((a, b) => b.updatedAt - a.updatedAt)

function omit<T>(rec: Record<string, T>, key: string): Record<string, T> {
  if (!(key in rec)) return rec
  const next = { ...rec }
  delete next[key]
  return next
}

/** Finds a call we know by id. */
export function findCall(map: CallsByMessage, id: string): Call | undefined {
  for (const list of Object.values(map)) {
    const c = list.find((x) => x.id === id)
    if (c) return c
  }
  return undefined
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

export const useStore = create<Store>()((set, get) => {
  /** Runs a call action: the returned call (if any) is upserted; errors are toasted unless quiet. */
  const callAction = async (
    title: string,
    fn: () => Promise<Call | void>,
    opts: ActionOpts = {},
  ): Promise<ApiError | null> => {
    try {
      const c = await fn()
      if (c && c.id) set((s) => ({ callsByMessage: upsertCall(s.callsByMessage, c) }))
      return null
    } catch (err) {
      const e = toApiError(err)
      if (!opts.quiet) get().toastError(title, e)
      return e
    }
  }

  /** Inserts messages we just learned about (from Send/Retry), applying anything that raced ahead. */
  const adopt = (chatId: string, incoming: Message[]) => {
    const s = get()
    let list = s.messages[chatId] ?? []
    let sync = s.sync
    let pending = s.pending
    let ended = s.ended
    const toResync: string[] = []
    let streaming = false
    for (const raw of incoming) {
      let m = raw
      const fin = ended[m.id]
      if (fin) {
        m = fin
        ended = omit(ended, m.id)
        pending = omit(pending, m.id)
        sync = omit(sync, m.id)
      } else if (m.status === 'streaming') {
        streaming = true
        const parked = pending[m.id] ?? []
        pending = omit(pending, m.id)
        const base: SyncState = freshSync(m.content === '' && m.reasoning === '' ? 0 : null)
        let st = base
        for (const d of [...parked].sort((a, b) => a.seq - b.seq)) {
          const dec = decideDelta(st, d.seq)
          if (dec.kind === 'apply') {
            m = appendDelta(m, d)
            st = { ...st, lastSeq: d.seq }
          } else if (dec.kind === 'resync' || dec.kind === 'buffer') {
            st = { ...st, buffer: [...st.buffer, d] }
          }
        }
        if (st.buffer.length > 0) toResync.push(m.id)
        sync = { ...sync, [m.id]: st }
      }
      list = upsertMessage(list, m)
    }
    set({
      messages: { ...s.messages, [chatId]: list },
      sync,
      pending,
      ended,
      streaming: streaming ? { ...s.streaming, [chatId]: true } : s.streaming,
    })
    for (const id of toResync) void get().resync(chatId, id)
  }

  return {
    ...initialState(),

    init: async () => {
      try {
        const [info, settings, providers, chats, active] = await Promise.all([
          api.info().catch(() => null),
          api.getSettings(),
          api.listProviders(),
          api.listChats(),
          api.activeStreams().catch(() => [] as string[]),
        ])
        const streaming: Record<string, boolean> = {}
        for (const id of active) streaming[id] = true
        const sorted = sortChats(chats)
        set({ info, settings, providers, chats: sorted, streaming, ready: true, bootError: null })
        for (const n of info?.notices ?? []) get().toast({ kind: 'error', title: 'errors.startup', message: n, duration: 600_000 })
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

    loadChats: async () => {
      try {
        const chats = sortChats(await api.listChats())
        set({ chats })
      } catch (err) {
        get().toastError('errors.loadChats', err)
      }
    },

    selectChat: async (id) => {
      set({ activeChatId: id, view: 'chat' })
      if (id && !get().messages[id]) await get().loadMessages(id)
      get().focusComposer()
    },

    loadMessages: async (chatId) => {
      set((s) => ({ loadingChat: { ...s.loadingChat, [chatId]: true } }))
      void get().loadCalls(chatId)
      try {
        const list = await historyApi.listMessagesPage(chatId, '', PAGE_SIZE)
        const hasOlder = list.length > 0 && !!list[0].parentId
        set((s) => {
          let sync = s.sync
          let streaming = false
          for (const m of list) {
            if (m.status === 'streaming') {
              streaming = true
              // We joined mid-stream: we don't know which seq the snapshot holds.
              if (!sync[m.id]) sync = { ...sync, [m.id]: freshSync(null) }
            }
          }
          return {
            messages: { ...s.messages, [chatId]: list },
            sync,
            streaming: streaming ? { ...s.streaming, [chatId]: true } : s.streaming,
            loadingChat: omit(s.loadingChat, chatId),
            hasOlder: { ...s.hasOlder, [chatId]: hasOlder },
          }
        })
      } catch (err) {
        set((s) => ({ loadingChat: omit(s.loadingChat, chatId) }))
        get().toastError('errors.loadMessages', err)
      }
    },

    newChat: async () => {
      // Lazy: show a fresh, empty conversation right away; the chat itself is
      // created by the first Send (no empty chats piling up in the sidebar,
      // and nothing async between the click and the person typing).
      set({
        activeChatId: null,
        view: 'chat',
        newChatOptions: { ...DEFAULT_CHAT_OPTIONS },
        newChatWorkspace: { ...DEFAULT_WORKSPACE },
        newChatServers: null,
      })
      get().focusComposer()
    },

    renameChat: async (id, title) => {
      const clean = title.trim()
      const prev = get().chats.find((c) => c.id === id)
      if (!prev || !clean || clean === prev.title) return true
      // optimistic, rolled back on failure
      set((s) => ({ chats: s.chats.map((c) => (c.id === id ? { ...c, title: clean } : c)) }))
      try {
        const chat = await api.renameChat(id, clean)
        set((s) => ({ chats: s.chats.map((c) => (c.id === id ? { ...c, ...chat } : c)) }))
        return true
      } catch (err) {
        set((s) => ({ chats: s.chats.map((c) => (c.id === id ? prev : c)) }))
        get().toastError('errors.renameChat', err)
        return false
      }
    },

    deleteChat: async (id) => {
      try {
        await api.deleteChat(id)
      } catch (err) {
        get().toastError('errors.deleteChat', err)
        return false
      }
      const s = get()
      const idx = s.chats.findIndex((c) => c.id === id)
      const chats = s.chats.filter((c) => c.id !== id)
      const wasActive = s.activeChatId === id
      const callsByMessage: CallsByMessage = {}
      for (const [mid, list] of Object.entries(s.callsByMessage)) if (list[0]?.chatId !== id) callsByMessage[mid] = list
      set({
        chats,
        messages: omit(s.messages, id),
        streaming: omit(s.streaming, id),
        drafts: omit(s.drafts, id),
        notices: omit(s.notices, id),
        workspaces: omit(s.workspaces, id),
        callsByMessage,
      })
      if (wasActive) {
        const next = chats[Math.min(Math.max(idx, 0), chats.length - 1)]
        await get().selectChat(next ? next.id : null)
      }
      return true
    },

    send: async (text) => {
      const body = text.trim()
      if (!body) return false
      let chatId = get().activeChatId
      if (chatId && get().streaming[chatId]) return false
      if (!chatId) {
        try {
          let chat = await api.createChat()
          chatId = chat.id
          // Options picked before the chat existed apply before the first answer.
          const want = get().newChatOptions
          if (want.paradigm !== chat.paradigm || want.recognizeOthers !== chat.recognizeOthers || (want.toolMode && want.toolMode !== chat.toolMode)) {
            try {
              chat = await api.setChatOptions(chat.id, want)
            } catch (err) {
              get().toastError('errors.chatOptions', err)
            }
          }
          // So does the workspace (before the first answer can call a file tool).
          const ws = get().newChatWorkspace
          if (ws.kind !== 'scratch') {
            try {
              chat = await api.setWorkspace(chat.id, ws.kind, ws.dir)
            } catch (err) {
              get().toastError('errors.setWorkspace', err)
              // SetWorkspace keeps an unusable folder it rejected: fall back to scratch.
              chat = await api.setWorkspace(chat.id, 'scratch', '').catch(() => chat)
            }
          }
          // And the MCP servers it offers.
          const servers = get().newChatServers
          if (servers) {
            try {
              chat = await api.setChatServers(chat.id, false, servers)
            } catch (err) {
              get().toastError('errors.chatServers', err)
            }
          }
          set((s) => ({
            chats: sortChats([chat, ...s.chats.filter((c) => c.id !== chat.id)]),
            messages: { ...s.messages, [chat.id]: [] },
            activeChatId: chat.id,
          }))
        } catch (err) {
          get().toastError('errors.createChat', err)
          return false
        }
      }
      const id = chatId
      set((s) => ({ streaming: { ...s.streaming, [id]: true }, notices: omit(s.notices, id) }))
      inflight.set(id, { stop: false })
      try {
        const msgs = await api.send(id, body)
        if (flushStop(id)) void get().stop(id)
        if (!get().messages[id]) await get().loadMessages(id)
        adopt(id, msgs)
        if (!msgs.some((m) => m.status === 'streaming')) {
          set((s) => ({ streaming: omit(s.streaming, id) }))
        }
        // bump the chat to the top right away; chats:changed refines it
        const now = Date.now()
        set((s) => ({
          chats: sortChats(s.chats.map((c) => (c.id === id ? { ...c, updatedAt: now } : c))),
        }))
        return true
      } catch (err) {
        inflight.delete(id)
        set((s) => ({ streaming: omit(s.streaming, id) }))
        get().toastError('errors.send', err)
        return false
      }
    },

    stop: async (chatId) => {
      const id = chatId ?? get().activeChatId
      if (!id) return
      const pendingCall = inflight.get(id)
      if (pendingCall) {
        // Send/Retry hasn't returned yet: the backend may not know the stream. Stop right after.
        pendingCall.stop = true
        return
      }
      try {
        await api.stop(id)
      } catch (err) {
        get().toastError('errors.stop', err)
      }
    },

    retry: async (chatId) => {
      const id = chatId ?? get().activeChatId
      if (!id) return
      set((s) => ({ streaming: { ...s.streaming, [id]: true } }))
      inflight.set(id, { stop: false })
      try {
        const placeholder = await api.retry(id)
        const stopNow = flushStop(id)
        // The backend removed the failed/interrupted answer it replaced.
        set((s) => {
          const list = s.messages[id] ?? []
          let cut = -1
          for (let i = list.length - 1; i >= 0; i--) {
            if (list[i].role === 'assistant') {
              if (list[i].status === 'error' || list[i].status === 'interrupted') cut = i
              break
            }
          }
          const next = cut >= 0 ? list.filter((_, i) => i !== cut) : list
          return { messages: { ...s.messages, [id]: next } }
        })
        adopt(id, [placeholder])
        if (placeholder.status !== 'streaming') set((s) => ({ streaming: omit(s.streaming, id) }))
        if (stopNow) void get().stop(id)
      } catch (err) {
        inflight.delete(id)
        set((s) => ({ streaming: omit(s.streaming, id) }))
        get().toastError('errors.retry', err)
      }
    },

    handleDelta: (d) => {
      const s = get()
      const streaming = s.streaming[d.chatId] ? s.streaming : { ...s.streaming, [d.chatId]: true }
      const list = s.messages[d.chatId]
      if (!list) {
        // A chat we haven't opened: its messages load fresh when selected.
        if (streaming !== s.streaming) set({ streaming })
        return
      }
      const idx = list.findIndex((m) => m.id === d.messageId)
      if (idx < 0) {
        // Send/Retry hasn't returned yet: park the delta until it does.
        const parked = s.pending[d.messageId] ?? []
        set({ streaming, pending: { ...s.pending, [d.messageId]: [...parked, d] } })
        if (parked.length === 0) {
          setTimeout(() => {
            const now = get()
            const still = now.messages[d.chatId]?.some((m) => m.id === d.messageId)
            if (!still && now.pending[d.messageId]) {
              // Nobody claimed it (e.g. started elsewhere): fetch it ourselves.
              set((st) => ({
                sync: {
                  ...st.sync,
                  [d.messageId]: { lastSeq: null, resyncing: false, buffer: st.pending[d.messageId] ?? [] },
                },
                pending: omit(st.pending, d.messageId),
              }))
              void get().resync(d.chatId, d.messageId)
            }
          }, RESYNC_UNKNOWN_AFTER_MS)
        }
        return
      }
      const msg = list[idx]
      if (msg.status !== 'streaming') return // already final
      const sync = s.sync[d.messageId] ?? freshSync(null)
      const dec = decideDelta(sync, d.seq)
      switch (dec.kind) {
        case 'duplicate':
          if (streaming !== s.streaming) set({ streaming })
          return
        case 'apply': {
          const next = list.slice()
          next[idx] = appendDelta(msg, d)
          set({
            streaming,
            messages: { ...s.messages, [d.chatId]: next },
            sync: { ...s.sync, [d.messageId]: { ...sync, lastSeq: d.seq } },
          })
          return
        }
        case 'buffer':
          set({
            streaming,
            sync: { ...s.sync, [d.messageId]: { ...sync, buffer: [...sync.buffer, d] } },
          })
          return
        case 'resync':
          set({
            streaming,
            sync: { ...s.sync, [d.messageId]: { ...sync, buffer: [...sync.buffer, d] } },
          })
          void get().resync(d.chatId, d.messageId)
          return
      }
    },

    resync: async (chatId, messageId) => {
      const cur = get().sync[messageId]
      if (!cur || cur.resyncing) return
      set((s) => ({ sync: { ...s.sync, [messageId]: { ...cur, ...s.sync[messageId], resyncing: true } } }))
      let snapshot: Message
      try {
        snapshot = await api.getMessage(messageId)
      } catch (err) {
        // Keep what we have; stream:end will bring the full text.
        set((s) => {
          const st = s.sync[messageId]
          if (!st) return {}
          return { sync: { ...s.sync, [messageId]: { ...st, resyncing: false, lastSeq: null } } }
        })
        get().toastError('errors.resync', err)
        return
      }
      const s = get()
      const st = s.sync[messageId]
      if (!st) return // stream:end arrived meanwhile and already replaced it
      const merged = snapshot.status === 'streaming' ? mergeSnapshot(snapshot, st.buffer) : snapshot
      const maxSeq = st.buffer.reduce((mx, d) => Math.max(mx, d.seq), st.lastSeq ?? 0)
      const list = s.messages[chatId]
      set({
        messages: list ? { ...s.messages, [chatId]: upsertMessage(list, merged) } : s.messages,
        sync:
          merged.status === 'streaming'
            ? { ...s.sync, [messageId]: { lastSeq: maxSeq, resyncing: false, buffer: [] } }
            : omit(s.sync, messageId),
      })
    },

    handleEnd: (e) => {
      const s = get()
      const final = e.message ? { ...e.message } : null
      const streaming = omit(s.streaming, e.chatId)
      const sync = omit(s.sync, e.messageId)
      const pending = omit(s.pending, e.messageId)
      const list = s.messages[e.chatId]
      if (!final) {
        set({ streaming, sync, pending })
        if (list) void get().loadMessages(e.chatId)
        return
      }
      const m: Message = {
        ...final,
        content: final.content ?? '',
        reasoning: final.reasoning ?? '',
        usage: final.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      }
      if (!list) {
        set({ streaming, sync, pending })
        return
      }
      const known = list.some((x) => x.id === m.id)
      set({
        streaming,
        sync,
        pending,
        messages: known ? { ...s.messages, [e.chatId]: upsertMessage(list, m) } : s.messages,
        // Send/Retry hasn't returned yet: remember the final so it wins.
        ended: known ? s.ended : { ...s.ended, [m.id]: m },
      })
    },

    loadSettings: async () => {
      try {
        set({ settings: await api.getSettings() })
      } catch (err) {
        get().toastError('errors.loadSettings', err)
      }
    },

    saveSettings: async (next) => {
      const saved = await api.saveSettings(next)
      set({ settings: saved })
      return saved
    },

    loadProviders: async () => {
      try {
        set({ providers: await api.listProviders() })
      } catch (err) {
        get().toastError('errors.loadProviders', err)
      }
    },

    saveProvider: async (p) => {
      const saved = await api.saveProvider(p)
      set((s) => {
        const i = s.providers.findIndex((x) => x.id === saved.id)
        const providers = i >= 0 ? s.providers.map((x) => (x.id === saved.id ? saved : x)) : [...s.providers, saved]
        return { providers }
      })
      return saved
    },

    deleteProvider: async (id) => {
      await api.deleteProvider(id)
      set((s) => ({ providers: s.providers.filter((p) => p.id !== id) }))
      // the backend may have switched the active provider
      await get().loadSettings()
    },

    setActiveProvider: async (id) => {
      const cur = get().settings
      if (!cur) return
      await get().saveSettings({ ...cur, activeProviderId: id })
    },

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

    // ─── tool calls ───

    loadCalls: async (chatId) => {
      try {
        const calls = await api.listCalls(chatId)
        // Merge: call:updated events may have raced ahead of this reply.
        set((s) => ({ callsByMessage: upsertCalls(s.callsByMessage, calls) }))
      } catch (err) {
        get().toastError('errors.loadCalls', err)
      }
    },

    handleCallUpdated: (c) => {
      if (!c || !c.id || !c.messageId) return
      set((s) => {
        const callsByMessage = upsertCall(s.callsByMessage, c)
        return callsByMessage === s.callsByMessage ? {} : { callsByMessage }
      })
    },

    handleMessageAdded: (m) => {
      if (!m || !m.id || !m.chatId) return
      const s = get()
      if (m.role === 'assistant') set({ notices: omit(s.notices, m.chatId) })
      if (!s.messages[m.chatId]) {
        // A chat we haven't opened: it loads fresh when selected.
        if (m.status === 'streaming') set((st) => ({ streaming: { ...st.streaming, [m.chatId]: true } }))
        return
      }
      adopt(m.chatId, [m])
    },

    handleNotice: (n) => {
      if (!n || !n.chatId) return
      set((s) => ({ notices: { ...s.notices, [n.chatId]: n } }))
      const learned = n.code === 'tool_mode_learned' // Auto now calls tools another way with this model
      get().toast({
        kind: n.code === 'turn_cap' || learned ? 'info' : 'error',
        title: n.code === 'turn_cap' ? 'notices.turnCapTitle' : learned ? 'notices.toolModeTitle' : 'notices.title',
        message: n.message,
      })
    },

    dismissNotice: (chatId) => set((s) => ({ notices: omit(s.notices, chatId) })),

    approveCall: (callId, edited, opts) =>
      callAction(
        'errors.approveCall',
        () => {
          // The backend reads a JSON null as an (invalid) edit: without an edit, send the
          // proposed arguments, which it recognises as unchanged.
          const proposed = findCall(get().callsByMessage, callId)?.arguments
          const args = edited ?? (isPlainObject(proposed) ? proposed : null)
          return api.approveCall(callId, args)
        },
        opts,
      ),
    denyCall: (callId, reason, opts) => callAction('errors.denyCall', () => api.denyCall(callId, reason.trim()), opts),
    alwaysAllowCall: (callId, everywhere, opts) =>
      callAction(
        'errors.alwaysAllow',
        () => api.alwaysAllowCall(callId, everywhere), // the rules reload on rules:changed (store/policy)
        opts,
      ),
    tellModel: (callId, opts) => callAction('errors.tellModel', () => api.tellModel(callId), opts),
    fixAndRun: (callId, name, args, opts) =>
      callAction('errors.fixAndRun', () => api.fixAndRun(callId, name.trim(), args), opts),
    cancelCall: async (callId) => {
      await callAction('errors.cancelCall', () => api.cancelCall(callId))
    },
    runAll: async (messageId) => {
      await callAction('errors.runAll', () => api.runAll(messageId))
    },
    denyAll: async (messageId, reason) => {
      await callAction('errors.denyAll', () => api.denyAll(messageId, reason.trim()))
    },

    continueChat: async (chatId) => {
      const id = chatId ?? get().activeChatId
      if (!id || selectIsStreaming(get(), id)) return
      set((s) => ({ streaming: { ...s.streaming, [id]: true }, notices: omit(s.notices, id) }))
      inflight.set(id, { stop: false })
      try {
        const placeholder = await api.continueChat(id)
        const stopNow = flushStop(id)
        if (!get().messages[id]) await get().loadMessages(id)
        adopt(id, [placeholder])
        if (placeholder.status !== 'streaming') set((s) => ({ streaming: omit(s.streaming, id) }))
        if (stopNow) void get().stop(id)
      } catch (err) {
        inflight.delete(id)
        set((s) => ({ streaming: omit(s.streaming, id) }))
        get().toastError('errors.continue', err)
      }
    },

    setChatOptions: async (chatId, o) => {
      if (!chatId) {
        set({ newChatOptions: { ...o } })
        return true
      }
      const prev = get().chats.find((c) => c.id === chatId)
      // optimistic, rolled back on failure
      set((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? { ...c, ...o } : c)) }))
      try {
        const saved = await api.setChatOptions(chatId, { ...o, mcpServers: prev?.mcpServers ?? null })
        set((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? { ...c, ...saved } : c)) }))
        return true
      } catch (err) {
        if (prev) set((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? prev : c)) }))
        get().toastError('errors.chatOptions', err)
        return false
      }
    },

    setView: (view) => set({ view }),
    openAbout: () => set({ aboutOpen: true }),
    closeAbout: () => set({ aboutOpen: false }),

    // ─── workspaces ───

    toggleFiles: (open) => {
      const next = open ?? !get().filesOpen
      writeFilesOpen(next)
      set({ filesOpen: next })
    },

    loadWorkspace: async (chatId) => {
      const running = wsInflight.get(chatId)
      if (running) {
        running.again = true
        return
      }
      const flight = { again: false }
      wsInflight.set(chatId, flight)
      const patch = (p: Partial<WorkspaceState>) =>
        set((s) => ({ workspaces: { ...s.workspaces, [chatId]: { ...(s.workspaces[chatId] ?? emptyWorkspace()), ...p } } }))
      try {
        do {
          flight.again = false
          patch({ loading: true })
          try {
            const info = await api.getWorkspace(chatId)
            const changes = info.kind === 'overlay' ? await api.workspaceChanges(chatId) : []
            if (!get().chats.some((c) => c.id === chatId) && get().activeChatId !== chatId) break // deleted meanwhile
            set((s) => {
              const prev = s.workspaces[chatId] ?? emptyWorkspace()
              // The listing says where the tools really work: a chat we knew otherwise catches up.
              const chat = s.chats.find((c) => c.id === chatId)
              const known = chatWorkspace(chat)
              const chats =
                chat && (known.kind !== info.kind || (info.kind !== 'scratch' && known.dir !== info.dir))
                  ? s.chats.map((c) => (c.id === chatId ? { ...c, workspaceKind: info.kind, workspaceDir: info.kind === 'scratch' ? '' : info.dir } : c))
                  : s.chats
              return {
                chats,
                workspaces: { ...s.workspaces, [chatId]: { info, changes, loading: false, error: null, version: prev.version + 1 } },
              }
            })
          } catch (err) {
            const e = toApiError(err)
            set((s) => {
              const prev = s.workspaces[chatId] ?? emptyWorkspace()
              return {
                workspaces: {
                  ...s.workspaces,
                  [chatId]: { ...prev, info: null, changes: [], loading: false, error: { code: e.code, message: e.message }, version: prev.version + 1 },
                },
              }
            })
          }
        } while (flight.again)
      } finally {
        wsInflight.delete(chatId)
      }
    },

    setWorkspace: async (chatId, choice) => {
      // The backend keys an open workspace by its cleaned path: always send the same spelling.
      const next: WorkspaceChoice = { kind: choice.kind, dir: choice.kind === 'scratch' ? '' : cleanFolder(choice.dir) ?? choice.dir.trim() }
      if (!chatId) {
        set({ newChatWorkspace: next })
        return null
      }
      const prev = chatWorkspace(get().chats.find((c) => c.id === chatId))
      try {
        const chat = await api.setWorkspace(chatId, next.kind, next.dir)
        set((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? { ...c, ...chat } : c)) }))
        void get().loadWorkspace(chatId)
        return null
      } catch (err) {
        const e = toApiError(err)
        // The backend saves the choice before it finds the folder unusable: put the previous one back.
        try {
          const back = await api.setWorkspace(chatId, prev.kind, prev.dir)
          set((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? { ...c, ...back } : c)) }))
        } catch {
          void get().loadChats()
        }
        void get().loadWorkspace(chatId)
        return e
      }
    },

    applyChanges: async (chatId, paths) => {
      try {
        await api.applyChanges(chatId, paths)
        return null
      } catch (err) {
        return toApiError(err)
      } finally {
        // Some may have applied even when others were refused.
        await get().loadWorkspace(chatId)
      }
    },

    discardChanges: async (chatId, paths) => {
      try {
        await api.discardChanges(chatId, paths)
        return null
      } catch (err) {
        return toApiError(err)
      } finally {
        await get().loadWorkspace(chatId)
      }
    },

    resetScratch: async (chatId) => {
      try {
        await api.resetScratch(chatId)
        return null
      } catch (err) {
        return toApiError(err)
      } finally {
        await get().loadWorkspace(chatId)
      }
    },

    loadTools: async () => {
      try {
        set({ tools: await api.tools() })
      } catch {
        // Cards fall back to the mcp__<server>__ name prefix; the Tool lab shows its own error.
      }
    },

    runTool: async (chatId, name, args) => {
      try {
        const output = await api.runTool(chatId, name, args)
        return { output }
      } catch (err) {
        return { error: toApiError(err) }
      }
    },

    // A tool changed a chat's workspace: what the files panel shows is
    // read again (once for a burst of changes).
    handleWorkspaceChanged: (chatId) => {
      const s = get()
      if (!chatId || !(s.workspaces[chatId] || (s.filesOpen && s.activeChatId === chatId))) return
      const prev = wsTimers.get(chatId)
      if (prev) clearTimeout(prev)
      wsTimers.set(
        chatId,
        setTimeout(() => {
          wsTimers.delete(chatId)
          void get().loadWorkspace(chatId)
        }, WS_REFRESH_MS),
      )
    },
  }
})

/** Test helper: back to a clean slate. */
export const resetStore = () => {
  inflight.clear()
  wsInflight.clear()
  for (const t of wsTimers.values()) clearTimeout(t)
  wsTimers.clear()
  useStore.setState(initialState())
}

/** The messages of the active chat (stable empty array otherwise). */
const EMPTY: Message[] = []
export const selectActiveMessages = (s: Store) => (s.activeChatId ? s.messages[s.activeChatId] ?? EMPTY : EMPTY)
/** The provider answering: the environment's (AIRLOCK_BASE_URL) when set, as the backend does, else the chosen one. */
export const selectActiveProvider = (s: Store) =>
  s.providers.find((p) => p.id === ENV_PROVIDER_ID) ?? s.providers.find((p) => p.id === s.settings?.activeProviderId) ?? null
export const selectIsStreaming = (s: Store, chatId: string | null) =>
  !!chatId &&
  (!!s.streaming[chatId] || (s.messages[chatId]?.some((m) => m.status === 'streaming') ?? false))

/** The calls an assistant message proposed, ordered (stable empty array otherwise). */
const NO_CALLS: Call[] = []
export const selectMessageCalls = (s: Store, messageId: string) => s.callsByMessage[messageId] ?? NO_CALLS

/** How many calls in the active chat wait for a decision or a fix. */
export const selectWaitingCount = (s: Store) => {
  if (!s.activeChatId) return 0
  let n = 0
  for (const m of s.messages[s.activeChatId] ?? EMPTY) for (const c of s.callsByMessage[m.id] ?? NO_CALLS) if (needsDecision(c)) n++
  return n
}

/** The active chat's options (the lazy new chat's when none is active). */
export const selectActiveChatOptions = (s: Store): ChatOptions => {
  const chat = s.activeChatId ? s.chats.find((c) => c.id === s.activeChatId) : null
  if (chat) return { paradigm: chat.paradigm, recognizeOthers: chat.recognizeOthers, toolMode: chat.toolMode ?? 'text' }
  // The lazy new chat: what was picked for it, else the mode of new chats.
  return { ...s.newChatOptions, toolMode: s.newChatOptions.toolMode ?? s.settings?.toolMode ?? 'auto' }
}

/** Where the active chat's tools work (the lazy new chat's choice when none is active). */
export const selectActiveWorkspace = (s: Store): WorkspaceChoice => {
  if (!s.activeChatId) return s.newChatWorkspace
  return chatWorkspace(s.chats.find((c) => c.id === s.activeChatId))
}
