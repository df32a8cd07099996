// History: versions, search, chat actions, export/import.
import { arr, call } from './core'
import { chatsApi, normalizeChat, normalizeMessage, type Chat, type ExportFormat, type ImportResult, type Message, type SearchHit } from './chats'

/** History: versions, search, chat actions, export/import. */
export const historyApi = {
  /** A new version of a user message: returns [user, streaming assistant placeholder]. */
  editAndResend: async (messageId: string, text: string) =>
    arr(await call<Message[] | null>('EditAndResend', messageId, text)).map(normalizeMessage),
  /** A new version of an answer: the streaming placeholder. */
  regenerate: async (messageId: string) => normalizeMessage(await call<Message>('Regenerate', messageId)),
  /** Every version of the turn, oldest first ([v-1] is version v). */
  listVersions: async (messageId: string) =>
    arr(await call<Message[] | null>('ListVersions', messageId)).map(normalizeMessage),
  /** Makes the conversation go through that message (reload messages and calls after). */
  switchVersion: async (messageId: string) => normalizeChat(await call<Chat>('SwitchVersion', messageId)),
  /** The tail of the active path before beforeId ('' = newest). More above when the first has a parentId. */
  listMessagesPage: async (chatId: string, beforeId: string, limit: number): Promise<Message[]> => {
    if (typeof window !== 'undefined' && window.go?.main?.App && typeof window.go.main.App.ListMessagesPage !== 'function') {
      // A backend without paging (the preview's fake): the whole path, cut the same way.
      const all = await chatsApi.listMessages(chatId)
      const end = beforeId ? all.findIndex((m) => m.id === beforeId) : all.length
      return all.slice(Math.max(0, (end < 0 ? 0 : end) - limit), end < 0 ? 0 : end)
    }
    return arr(await call<Message[] | null>('ListMessagesPage', chatId, beforeId, limit)).map(normalizeMessage)
  },
  search: async (query: string) => arr(await call<SearchHit[] | null>('Search', query)),
  searchChat: async (chatId: string, query: string) => arr(await call<SearchHit[] | null>('SearchChat', chatId, query)),
  setPinned: async (chatId: string, pinned: boolean) => normalizeChat(await call<Chat>('SetPinned', chatId, pinned)),
  duplicateChat: async (chatId: string) => normalizeChat(await call<Chat>('DuplicateChat', chatId)),
  /** Native save dialog; the path written, '' when cancelled. [] = all chats. */
  exportChats: async (chatIds: string[], format: ExportFormat) =>
    (await call<string | null>('ExportChats', chatIds, format)) ?? '',
  /** Native open dialog; all or nothing. source '' = cancelled. */
  importFile: async (): Promise<ImportResult> => {
    const r = await call<ImportResult | null>('ImportFile')
    const source = r?.source === 'airlock' || r?.source === 'chatgpt' ? r.source : ''
    return { source, summary: r?.summary ?? '', path: r?.path ?? '' }
  },
}
