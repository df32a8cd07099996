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
import { appInitial, createAppSlice } from './slices/app'
import { callsInitial, createCallsSlice } from './slices/calls'
import { chatsInitial, createChatsSlice } from './slices/chats'
import { createMessagesSlice, messagesInitial, resetMessagesSlice } from './slices/messages'
import { createSettingsSlice, settingsInitial } from './slices/settings'
import { createToolsSlice, toolsInitial } from './slices/tools'
import { createUiSlice, uiInitial } from './slices/ui'
import { createWorkspaceSlice, resetWorkspaceSlice, workspaceInitial } from './slices/workspace'

import type { Store } from './types'
export type { SettingsTab, Store, Toast, ToastKind, View, WorkspaceState } from './types'

export { findCall, selectMessageCalls, selectWaitingCount } from './slices/calls'
export { selectActiveChatOptions } from './slices/chats'
export { PAGE_SIZE, selectActiveMessages, selectIsStreaming } from './slices/messages'
export { selectActiveProvider } from './slices/settings'
export { NEW_CHAT_DRAFT } from './slices/ui'
export { selectActiveWorkspace } from './slices/workspace'

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
