// The chat list in the main store: which chat is open, the lazy "new chat"
// and its picked options, rename, delete, a chat's tool options.
import { api, DEFAULT_CHAT_OPTIONS, DEFAULT_WORKSPACE, type ChatOptions } from '../../api'
import type { CallsByMessage } from '../calls'
import type { Store } from '../types'
import { omit, sortChats, type Slice } from './util'
import type { ChatsState, ChatsSlice } from '../types'

export const chatsInitial = (): ChatsState => ({
  chats: [],
  activeChatId: null,
  newChatOptions: { ...DEFAULT_CHAT_OPTIONS },
  newChatServers: null,
})

export const createChatsSlice: Slice<ChatsSlice> = (set, get) => ({
  ...chatsInitial(),

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
})

/** The active chat's options (the lazy new chat's when none is active). */
export const selectActiveChatOptions = (s: Store): ChatOptions => {
  const chat = s.activeChatId ? s.chats.find((c) => c.id === s.activeChatId) : null
  if (chat) return { paradigm: chat.paradigm, recognizeOthers: chat.recognizeOthers, toolMode: chat.toolMode ?? 'text' }
  // The lazy new chat: what was picked for it, else the mode of new chats.
  return { ...s.newChatOptions, toolMode: s.newChatOptions.toolMode ?? s.settings?.toolMode ?? 'auto' }
}
