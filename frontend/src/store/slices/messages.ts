// Messages and streaming in the main store: loading a chat's messages,
// Send / Stop / Retry / Continue, and applying stream deltas in order
// (parked, buffered or resynced when they arrive early or out of order).
import { createPendingChat } from '../pending'
import {
  api,
  attachmentsApi,
  finishApi,
  historyApi,
  toApiError,
  trashApi,
  type Message,
  
  
} from '../../api'
import type { Store } from '../types'
import { appendDelta, decideDelta, freshSync, mergeSnapshot, upsertMessage, type SyncState } from '../stream'
import { omit, sortChats, type Slice } from './util'
import type { MessagesState, MessagesSlice } from '../types'

export const messagesInitial = (): MessagesState => ({
  messages: {},
  loadingChat: {},
  streaming: {},
  sync: {},
  pending: {},
  ended: {},
  hasOlder: {},
  loadingOlder: {},
})

/** How many messages a chat opens with (older ones load on demand). */
export const PAGE_SIZE = 50

/** Send/Retry calls in flight, by chat id; `stop` = Stop was pressed before they returned. */
const inflight = new Map<string, { stop: boolean }>()
const flushStop = (chatId: string) => {
  const f = inflight.get(chatId)
  inflight.delete(chatId)
  return !!f?.stop
}
const RESYNC_UNKNOWN_AFTER_MS = 600

/** Test helper: forgets Send/Retry calls in flight. */
export function resetMessagesSlice() {
  inflight.clear()
}

export const createMessagesSlice: Slice<MessagesSlice> = (set, get) => {
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
    ...messagesInitial(),

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

    send: async (text, files) => {
      const body = text.trim()
      if (!body && !files?.length) return false
      let chatId = get().activeChatId
      if (chatId && get().streaming[chatId]) return false
      if (!chatId) {
        // The new chat's folder may have vanished since it was chosen: nothing is sent
        // (never in another workspace than the one chosen), and the chat view says so.
        const ws = get().newChatWorkspace
        if (ws.kind !== 'scratch') {
          try {
            await finishApi.checkWorkspaceFolder(ws.kind, ws.dir)
          } catch (err) {
            set({ newChatWorkspaceError: toApiError(err) })
            return false
          }
        }
        try {
          let chat = await createPendingChat()
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
          if (ws.kind !== 'scratch') {
            try {
              chat = await api.setWorkspace(chat.id, ws.kind, ws.dir)
            } catch (err) {
              // Gone between the check and now: the empty chat goes (for good, not to the Trash), the message stays in the composer.
              const id = chat.id
              await api.deleteChat(id).then(() => trashApi.deleteChatForever(id)).catch(() => undefined)
              set({ newChatWorkspaceError: toApiError(err) })
              return false
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
        const msgs = files?.length ? await attachmentsApi.sendWithFiles(id, body, files) : await api.send(id, body)
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

  }
}

/** The messages of the active chat (stable empty array otherwise). */
const EMPTY: Message[] = []
export const selectActiveMessages = (s: Store) => (s.activeChatId ? s.messages[s.activeChatId] ?? EMPTY : EMPTY)
export const selectIsStreaming = (s: Store, chatId: string | null) =>
  !!chatId &&
  (!!s.streaming[chatId] || (s.messages[chatId]?.some((m) => m.status === 'streaming') ?? false))
