// What was picked (agent, model) for the chat not created yet, applied when
// its first Send creates it. Its own small store, importing no other store,
// so the messages slice can use it without a circle.
import { create } from 'zustand'
import { agentsApi, type Chat } from '../api'

export type Pending = { agentId?: string; providerId?: string; model?: string }

export const usePending = create<Pending>()(() => ({}))

/** Creates the chat not created yet with what was picked for it (the first Send). */
export async function createPendingChat(): Promise<Chat> {
  const pending = usePending.getState()
  let chat = await agentsApi.createChatWith(pending.agentId ?? '')
  if (pending.providerId) chat = await agentsApi.setChatModel(chat.id, pending.providerId, pending.model ?? '')
  usePending.setState({ agentId: undefined, providerId: undefined, model: undefined }, true)
  return chat
}
