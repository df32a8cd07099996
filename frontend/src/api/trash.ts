// The Trash: deleted chats, restorable for 30 days (facade/trash.go).
import { call, type go } from './core'
import { normalizeChat, type Chat } from './chats'

export type TrashedChat = go.TrashedChat

export const trashApi = {
  /** The chats in the Trash, most recently deleted first. */
  listTrash: async () => (await call<TrashedChat[] | null>('ListTrash')) ?? [],
  /** Takes a chat out of the Trash, exactly as it was. */
  restoreChat: async (id: string) => normalizeChat(await call<Chat>('RestoreChat', id)),
  /** Deletes a chat in the Trash for good. */
  deleteChatForever: (id: string) => call<void>('DeleteChatForever', id),
  /** Deletes every chat in the Trash for good; how many. */
  emptyTrash: () => call<number>('EmptyTrash'),
}
