// The main store: one zustand store composed of slices by concern
// (store/slices/*). Each slice owns its state and actions and may call the
// others' through `get()`. Feature stores with their own state (history.ts,
// mcp.ts, undo.ts, policy.ts, modelMode.ts, forming.ts) sit beside it and
// drive it through its public actions; pure helpers (calls.ts, stream.ts)
// hold the logic both kinds share.
//
// Rule: components read state and act through the stores; only the stores
// call `api` (the Go bindings). src/architecture.test.ts checks it.
import { create } from 'zustand'
import { appInitial, createAppSlice, type AppSlice } from './slices/app'
import { callsInitial, createCallsSlice, type CallsSlice } from './slices/calls'
import { chatsInitial, createChatsSlice, type ChatsSlice } from './slices/chats'
import { createMessagesSlice, messagesInitial, resetMessagesSlice, type MessagesSlice } from './slices/messages'
import { createSettingsSlice, settingsInitial, type SettingsSlice } from './slices/settings'
import { createToolsSlice, toolsInitial, type ToolsSlice } from './slices/tools'
import { createUiSlice, uiInitial, type UiSlice } from './slices/ui'
import { createWorkspaceSlice, resetWorkspaceSlice, workspaceInitial, type WorkspaceSlice } from './slices/workspace'

export type Store = AppSlice & ChatsSlice & MessagesSlice & CallsSlice & SettingsSlice & UiSlice & WorkspaceSlice & ToolsSlice

export { findCall, selectMessageCalls, selectWaitingCount } from './slices/calls'
export { selectActiveChatOptions } from './slices/chats'
export { PAGE_SIZE, selectActiveMessages, selectIsStreaming } from './slices/messages'
export { selectActiveProvider } from './slices/settings'
export { NEW_CHAT_DRAFT, type SettingsTab, type Toast, type ToastKind, type View } from './slices/ui'
export { selectActiveWorkspace, type WorkspaceState } from './slices/workspace'

const initialState = () => ({
  ...appInitial(),
  ...chatsInitial(),
  ...messagesInitial(),
  ...callsInitial(),
  ...settingsInitial(),
  ...uiInitial(),
  ...workspaceInitial(),
  ...toolsInitial(),
})

export const useStore = create<Store>()((...a) => ({
  ...createAppSlice(...a),
  ...createChatsSlice(...a),
  ...createMessagesSlice(...a),
  ...createCallsSlice(...a),
  ...createSettingsSlice(...a),
  ...createUiSlice(...a),
  ...createWorkspaceSlice(...a),
  ...createToolsSlice(...a),
}))

/** Test helper: back to a clean slate. */
export const resetStore = () => {
  resetMessagesSlice()
  resetWorkspaceSlice()
  useStore.setState(initialState())
}
