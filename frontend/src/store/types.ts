// The store's types in one place: each slice's state and actions, and the
// Store they make together. Slices and the store's index import their types
// from here; this file imports no slice, so there is no circle.
import type { ApiError, AppInfo, BackendText, Call, Chat, ChatNotice, ChatOptions, Message, NewAttachment, Provider, RunOutput, Settings,
  StreamDelta, StreamEnd, ToolSpec, WorkspaceChoice, WorkspaceInfo, Change } from '../api'
import type { CallsByMessage } from './calls'
import type { SyncState } from './stream'

/** Options for a call action: `quiet` = the caller shows the error itself (e.g. inline in an edit form). */
export type ActionOpts = { quiet?: boolean }

export type Store = AppSlice & ChatsSlice & MessagesSlice & CallsSlice & SettingsSlice & UiSlice & WorkspaceSlice & ToolsSlice

// --- app ------------------------------------------------------------

export type AppState = {
  ready: boolean
  bootError: string | null
  info: AppInfo | null
}

export type AppActions = {
  init: () => Promise<void>
  subscribe: () => () => void
  /** Shows a notice from the backend once (it comes with Info at start and as an event later). */
  notice: (message: string) => void
}

export type AppSlice = AppState & AppActions

// --- calls ------------------------------------------------------------

export type CallsState = {
  /** Tool calls of the chats we have loaded, grouped by the assistant message that proposed them. */
  callsByMessage: CallsByMessage
  /** The latest notice per chat (e.g. the turn cap paused the loop), until acted on. */
  notices: Record<string, ChatNotice>
}

export type CallsActions = {
  loadCalls: (chatId: string) => Promise<void>
  handleCallUpdated: (c: Call) => void
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
}

export type CallsSlice = CallsState & CallsActions

// --- chats ------------------------------------------------------------

export type ChatsState = {
  chats: Chat[]
  activeChatId: string | null
  /** Chat options picked for the lazy "new chat" before it exists; applied right after CreateChat. */
  newChatOptions: ChatOptions
  /** The MCP servers picked for the lazy "new chat" (null = all enabled); applied right after CreateChat. */
  newChatServers: string[] | null
}

export type ChatsActions = {
  loadChats: () => Promise<void>
  selectChat: (id: string | null) => Promise<void>
  newChat: () => Promise<void>
  renameChat: (id: string, title: string) => Promise<boolean>
  deleteChat: (id: string) => Promise<boolean>
  /** Saves a chat's tool options (null = the lazy new chat: kept until it is created). */
  setChatOptions: (chatId: string | null, o: ChatOptions) => Promise<boolean>
}

export type ChatsSlice = ChatsState & ChatsActions

// --- messages ------------------------------------------------------------

export type MessagesState = {
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
  /** Long chats load a page at a time: older messages exist above the loaded ones (by chat id). */
  hasOlder: Record<string, boolean>
  loadingOlder: Record<string, boolean>
}

export type MessagesActions = {
  loadMessages: (chatId: string) => Promise<void>
  /** files: attached (base64), checked in Go. */
  send: (text: string, files?: NewAttachment[]) => Promise<boolean>
  stop: (chatId?: string) => Promise<void>
  retry: (chatId?: string) => Promise<void>
  continueChat: (chatId?: string) => Promise<void>
  handleDelta: (d: StreamDelta) => void
  handleEnd: (e: StreamEnd) => void
  handleMessageAdded: (m: Message) => void
  resync: (chatId: string, messageId: string) => Promise<void>
}

export type MessagesSlice = MessagesState & MessagesActions

// --- settings ------------------------------------------------------------

export type SettingsState = {
  settings: Settings | null
  providers: Provider[]
}

export type SettingsActions = {
  loadSettings: () => Promise<void>
  saveSettings: (s: Settings) => Promise<Settings>
  loadProviders: () => Promise<void>
  saveProvider: (p: Provider) => Promise<Provider>
  deleteProvider: (id: string) => Promise<void>
  setActiveProvider: (id: string) => Promise<void>
}

export type SettingsSlice = SettingsState & SettingsActions

// --- tools ------------------------------------------------------------

export type ToolsState = {
  /** The tools the model can be offered, with their kinds (MCP tools name their server). */
  tools: ToolSpec[]
}

export type ToolsActions = {
  /** (Re)loads the tools list (at start and when an MCP server's tools change). */
  loadTools: () => Promise<void>
  /** Runs a tool by hand on a chat's workspace (Tool lab). */
  runTool: (chatId: string, name: string, args: Record<string, unknown>) => Promise<{ output: RunOutput } | { error: ApiError }>
}

export type ToolsSlice = ToolsState & ToolsActions

// --- ui ------------------------------------------------------------

export type ToastKind = 'error' | 'success' | 'info'

export type Toast = {
  id: number
  kind: ToastKind
  title: string
  message?: string
  /** The message coded for translation (shown in the UI's language), when the backend coded it. */
  text?: BackendText
  code?: string
  /** A button in the toast (e.g. Undo); `label` is an i18n key. */
  action?: { label: string; testId?: string; run: () => void }
  /** How long it stays (ms); the default depends on the kind. */
  duration?: number
}

export type SettingsTab = 'providers' | 'agents' | 'general' | 'tools' | 'permissions' | 'data' | 'trash' | 'about'

export type View = 'chat' | 'lab' | 'activity'

export type UiState = {
  drafts: Record<string, string>
  toasts: Toast[]
  settingsOpen: boolean
  settingsTab: SettingsTab
  /** Bumped to ask the composer to take focus. */
  focusComposerTick: number
  /** What the main pane shows. */
  view: View
  aboutOpen: boolean
}

export type UiActions = {
  setDraft: (chatId: string, text: string) => void
  openSettings: (tab?: SettingsTab) => void
  closeSettings: () => void
  focusComposer: () => void
  toast: (t: Omit<Toast, 'id'>) => number
  toastError: (title: string, err: unknown) => void
  dismissToast: (id: number) => void
  setView: (v: View) => void
  openAbout: () => void
  closeAbout: () => void
}

export type UiSlice = UiState & UiActions

// --- workspace ------------------------------------------------------------

/** A chat's workspace as the files panel last loaded it. */
export type WorkspaceState = {
  info: WorkspaceInfo | null
  /** Overlay: what Apply would write (empty otherwise). */
  changes: Change[]
  loading: boolean
  error: { code: string; message: string; text?: BackendText } | null
  /** Bumped by every load that finished (an open file re-reads on it). */
  version: number
}

export type WorkspaceSliceState = {
  /** The files panel (right of the chat) is open; remembered across launches. */
  filesOpen: boolean
  /** Workspaces of the chats the panel has shown, by chat id. */
  workspaces: Record<string, WorkspaceState>
  /** The workspace picked for the lazy "new chat"; applied right after CreateChat. */
  newChatWorkspace: WorkspaceChoice
  /** Why the new chat's first message was not sent: its folder cannot be used (shown until the choice changes). */
  newChatWorkspaceError: ApiError | null
}

export type WorkspaceActions = {
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
}

export type WorkspaceSlice = WorkspaceSliceState & WorkspaceActions
