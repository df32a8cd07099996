// History features on top of the main store: search, find in chat, chat actions
// (pin, duplicate, export, move to the Trash with undo), import, versions (edit & resend,
// regenerate, switch) and loading older messages of a long chat.
//
// Kept apart from store/index.ts: it drives the main store through its public
// actions and `setState`, and keeps its own small state here.
import { create } from 'zustand'
import { keepFocus } from '../lib/focus'
import { historyApi, toApiError, type ApiError, type Chat, type ExportFormat, type ImportResult, type Message, type SearchHit } from '../api'
import i18n from '../i18n'
import { PAGE_SIZE, selectIsStreaming, useStore } from './index'
import { sortChats } from './slices/util'
import { restoreChat } from './trash'

export const SEARCH_DEBOUNCE_MS = 150
export const UNDO_DELETE_MS = 8000 // how long the "Moved to Trash · Undo" toast stays
export const HIGHLIGHT_MS = 2000

export type Highlight = { chatId: string; messageId: string; callId?: string; n: number }

export type HistoryState = {
  /** Chats on their way to the Trash: hidden from the list meanwhile. */
  hidden: Record<string, true>
  /** The sidebar search. */
  query: string
  /** Results for `query` (null while nothing came back for it yet). */
  results: SearchHit[] | null
  searching: boolean
  searchError: string | null
  /** The result ↑↓ moved to (Enter opens it). */
  searchActive: number
  /** The message to scroll to and flash; `n` changes on every request. */
  highlight: Highlight | null
  /** A version action (edit, regenerate, switch) in flight, by chat id. */
  busy: Record<string, boolean>
}

const initial = (): HistoryState => ({
  hidden: {},
  query: '',
  results: null,
  searching: false,
  searchError: null,
  searchActive: 0,
  highlight: null,
  busy: {},
})

export const useHistory = create<HistoryState>()(() => initial())

function omit<T>(rec: Record<string, T>, key: string): Record<string, T> {
  if (!(key in rec)) return rec
  const next = { ...rec }
  delete next[key]
  return next
}

const store = () => useStore.getState()

// ─── search ───

let searchTimer: ReturnType<typeof setTimeout> | null = null
let searchSeq = 0

/** Sets the sidebar query; searches (debounced) while it is not blank. */
export function setSearchQuery(query: string) {
  if (searchTimer) clearTimeout(searchTimer)
  searchTimer = null
  const seq = ++searchSeq
  if (!query.trim()) {
    useHistory.setState({ query, results: null, searching: false, searchError: null, searchActive: 0 })
    return
  }
  useHistory.setState({ query, searching: true })
  searchTimer = setTimeout(async () => {
    searchTimer = null
    try {
      const results = await historyApi.search(query.trim())
      if (seq === searchSeq) useHistory.setState({ results, searching: false, searchError: null, searchActive: 0 })
    } catch (err) {
      if (seq === searchSeq) useHistory.setState({ results: [], searching: false, searchError: toApiError(err).message })
    }
  }, SEARCH_DEBOUNCE_MS)
}

export const clearSearch = () => setSearchQuery('')

/** Find in chat: the active chat's matches (a one-shot request; the bar keeps them). */
export const searchChat = (chatId: string, query: string) => historyApi.searchChat(chatId, query)

/** Moves the active result (wraps around). */
export function moveSearchActive(delta: number) {
  const n = useHistory.getState().results?.length ?? 0
  if (n === 0) return
  useHistory.setState((h) => ({ searchActive: (((h.searchActive + delta) % n) + n) % n }))
}
export const setSearchActive = (i: number) => useHistory.setState({ searchActive: i })

/** Splits a snippet into plain text and marked (matched) parts: \u0002 starts a mark, \u0003 ends it. */
export function snippetParts(snippet: string): { text: string; mark: boolean }[] {
  const out: { text: string; mark: boolean }[] = []
  let mark = false
  let buf = ''
  const flush = () => {
    if (buf) out.push({ text: buf, mark })
    buf = ''
  }
  for (const ch of snippet ?? '') {
    if (ch === '\u0002') {
      flush()
      mark = true
    } else if (ch === '\u0003') {
      flush()
      mark = false
    } else buf += ch
  }
  flush()
  return out
}

// ─── revealing a message ───

const hasMessage = (chatId: string, messageId: string) => !!store().messages[chatId]?.some((m) => m.id === messageId)

/**
 * Opens a chat at a message: selects the chat, loads older pages until the
 * message is there, switches the conversation to its version if it is not on
 * the active path, then asks the message list to scroll to it and flash it.
 */
export async function revealMessage(chatId: string, messageId: string, callId?: string): Promise<boolean> {
  const s = store()
  if (s.activeChatId !== chatId || s.view !== 'chat') await s.selectChat(chatId)
  if (!store().messages[chatId]) await store().loadMessages(chatId)
  const loadUntilFound = async () => {
    while (!hasMessage(chatId, messageId) && store().hasOlder[chatId]) {
      if (!(await loadOlder(chatId))) break
    }
  }
  await loadUntilFound()
  if (!hasMessage(chatId, messageId)) {
    try {
      await historyApi.switchVersion(messageId)
    } catch (err) {
      store().toastError('history.errors.open', err)
      return false
    }
    await reloadChat(chatId)
    await loadUntilFound()
  }
  if (store().activeChatId !== chatId) return false
  const prev = useHistory.getState().highlight
  useHistory.setState({ highlight: { chatId, messageId, callId, n: (prev?.n ?? 0) + 1 } })
  return hasMessage(chatId, messageId)
}

export const openHit = (hit: SearchHit) => revealMessage(hit.chatId, hit.messageId, hit.callId)

// ─── long chats ───

/** Loads the page above the loaded messages. False when there was nothing (more) to load. */
export async function loadOlder(chatId: string): Promise<boolean> {
  const s = store()
  const list = s.messages[chatId]
  if (!list || list.length === 0 || !s.hasOlder[chatId] || s.loadingOlder[chatId]) return false
  useStore.setState((st) => ({ loadingOlder: { ...st.loadingOlder, [chatId]: true } }))
  try {
    const page = await historyApi.listMessagesPage(chatId, list[0].id, PAGE_SIZE)
    useStore.setState((st) => {
      const cur = st.messages[chatId] ?? []
      const known = new Set(cur.map((m) => m.id))
      const older = page.filter((m) => !known.has(m.id))
      return {
        messages: { ...st.messages, [chatId]: [...older, ...cur] },
        hasOlder: { ...st.hasOlder, [chatId]: page.length > 0 && !!page[0].parentId },
        loadingOlder: omit(st.loadingOlder, chatId),
      }
    })
    return page.length > 0
  } catch (err) {
    useStore.setState((st) => ({ loadingOlder: omit(st.loadingOlder, chatId) }))
    store().toastError('history.errors.loadOlder', err)
    return false
  }
}

/** Re-reads a chat's active path (and its calls) after its versions changed. */
export async function reloadChat(chatId: string) {
  await store().loadMessages(chatId)
}

// ─── versions ───

const setBusy = (chatId: string, on: boolean) =>
  useHistory.setState((h) => ({ busy: on ? { ...h.busy, [chatId]: true } : omit(h.busy, chatId) }))

/** Runs a version action that starts a new answer: streaming until the placeholder is known. */
export async function startAnswer(chatId: string, title: string, fn: () => Promise<Message[]>): Promise<ApiError | null> {
  if (selectIsStreaming(store(), chatId) || useHistory.getState().busy[chatId]) return null
  setBusy(chatId, true)
  useStore.setState((s) => ({ streaming: { ...s.streaming, [chatId]: true } }))
  try {
    const msgs = await fn()
    // A new answer is activity: the chat moves up the sidebar, as after Send.
    const now = Date.now()
    useStore.setState((s) => ({ chats: sortChats(s.chats.map((c) => (c.id === chatId ? { ...c, updatedAt: now } : c))) }))
    await reloadChat(chatId)
    if (!msgs.some((m) => m.status === 'streaming') && !store().messages[chatId]?.some((m) => m.status === 'streaming')) {
      useStore.setState((s) => ({ streaming: omit(s.streaming, chatId) }))
    }
    return null
  } catch (err) {
    useStore.setState((s) => ({ streaming: omit(s.streaming, chatId) }))
    const e = toApiError(err)
    store().toastError(title, e)
    return e
  } finally {
    setBusy(chatId, false)
  }
}

/** A new version of a user message, answered anew. */
export const editAndResend = (m: Message, text: string) =>
  startAnswer(m.chatId, 'history.errors.edit', () => historyApi.editAndResend(m.id, text.trim()))

/** A new version of an answer. */
export const regenerate = (m: Message) =>
  startAnswer(m.chatId, 'history.errors.regenerate', async () => [await historyApi.regenerate(m.id)])

/** Moves to the previous (-1) or next (+1) version of a message's turn. */
export async function switchVersion(m: Message, dir: -1 | 1): Promise<void> {
  const chatId = m.chatId
  if (selectIsStreaming(store(), chatId) || useHistory.getState().busy[chatId]) return
  setBusy(chatId, true)
  try {
    const versions = await historyApi.listVersions(m.id)
    let i = versions.findIndex((v) => v.id === m.id)
    if (i < 0) i = (m.version ?? 1) - 1
    const target = versions[i + dir]
    if (!target) return
    await historyApi.switchVersion(target.id)
    await reloadChat(chatId)
  } catch (err) {
    store().toastError('history.errors.version', err)
  } finally {
    setBusy(chatId, false)
  }
}

// ─── chat actions ───

export async function togglePin(chat: Chat) {
  const pinned = !chat.pinned
  const patch = (p: boolean) =>
    useStore.setState((s) => ({ chats: s.chats.map((c) => (c.id === chat.id ? { ...c, pinned: p } : c)) }))
  patch(pinned)
  try {
    const saved = await historyApi.setPinned(chat.id, pinned)
    useStore.setState((s) => ({ chats: s.chats.map((c) => (c.id === chat.id ? { ...c, ...saved } : c)) }))
  } catch (err) {
    patch(!!chat.pinned)
    store().toastError('history.errors.pin', err)
  }
}

export async function duplicateChat(chat: Chat) {
  try {
    const copy = await historyApi.duplicateChat(chat.id)
    useStore.setState((s) => ({ chats: [copy, ...s.chats.filter((c) => c.id !== copy.id)] }))
    await store().selectChat(copy.id)
    void store().loadChats()
  } catch (err) {
    store().toastError('history.errors.duplicate', err)
  }
}

/** Exports chats ([] = all) through the native save dialog; toasts where it went. */
export async function exportChats(chatIds: string[], format: ExportFormat): Promise<string> {
  try {
    // A cancelled save dialog leaves focus where it was (or on the chat, when a menu item opened it).
    const path = await keepFocus(
      () => historyApi.exportChats(chatIds, format),
      () => (chatIds.length === 1 ? document.querySelector<HTMLElement>(`[data-testid="chat-item"][data-chat-id="${CSS.escape(chatIds[0])}"]`) : null),
    )
    if (path) store().toast({ kind: 'success', title: 'history.exported', message: i18n.t('history.exportedTo', { path }) })
    return path
  } catch (err) {
    store().toastError('history.errors.export', err)
    return ''
  }
}

/** Imports a file through the native open dialog: the result, or the error (not toasted). */
export async function importFile(): Promise<{ result: ImportResult } | { error: ApiError }> {
  try {
    const result = await keepFocus(() => historyApi.importFile())
    if (result.source) await store().loadChats()
    return { result }
  } catch (err) {
    return { error: toApiError(err) }
  }
}

// ─── delete with undo ───

/** The chats the sidebar shows, in its order, without the ones on their way to the Trash. */
export const visibleChats = (chats: Chat[], hidden: Record<string, true>) => chats.filter((c) => !hidden[c.id])

/**
 * Moves a chat to the Trash (restorable there for 30 days), with Undo in a
 * toast. It leaves the list at once; if the move fails it comes back (and the
 * error is toasted).
 */
export async function deleteWithUndo(chat: Chat) {
  const id = chat.id
  if (useHistory.getState().hidden[id]) return
  useHistory.setState((h) => ({ hidden: { ...h.hidden, [id]: true } }))
  const s = store()
  const wasActive = s.activeChatId === id
  if (wasActive) {
    const hidden = useHistory.getState().hidden
    const idx = s.chats.findIndex((c) => c.id === id)
    const rest = s.chats.filter((c) => !hidden[c.id])
    const after = s.chats.slice(idx + 1).find((c) => !hidden[c.id])
    const next = after ?? rest[rest.length - 1]
    if (next) await s.selectChat(next.id)
    else await s.newChat()
  }
  const moved = await store().deleteChat(id)
  useHistory.setState((h) => ({ hidden: omit(h.hidden, id) }))
  if (!moved) return
  const toastId = store().toast({
    kind: 'info',
    title: 'trash.moved',
    message: i18n.t('trash.movedMessage', { title: chat.title || i18n.t('chat.untitled') }),
    action: { label: 'history.undo', testId: 'undo-delete', run: () => void undoDelete(id, wasActive, toastId) },
    duration: UNDO_DELETE_MS,
  })
}

/** Undo of a delete: the chat comes out of the Trash, and is opened again if it was open. */
export async function undoDelete(id: string, select = false, toastId?: number) {
  if (toastId !== undefined) store().dismissToast(toastId)
  await restoreChat(id, select)
}

/** Test helper. */
export function resetHistory() {
  if (searchTimer) clearTimeout(searchTimer)
  searchTimer = null
  searchSeq++
  useHistory.setState(initial())
}
