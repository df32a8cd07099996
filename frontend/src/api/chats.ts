// Chats and messages: their types, normalizers and bindings.
import { arr, call, type go, type Narrow } from './core'

export type Role = 'user' | 'assistant' | 'system'
export type Kind = 'text' | 'tool_results'
export type MessageStatus = 'streaming' | 'complete' | 'interrupted' | 'error'

export type Paradigm = 'json' | 'xml' | 'vcp'
/**
 * How the model calls tools: text = written in the chat's paradigm; native = the API's
 * tools parameter and tool_calls; auto = native where the provider and model accept it,
 * text (in the paradigm) otherwise, learned per provider+model.
 */
export type ToolMode = 'text' | 'native' | 'auto'
export const TOOL_MODES: ToolMode[] = ['text', 'native', 'auto']
/** toolMode omitted = the backend keeps the chat's (the lazy new chat: the settings' default). */
export type ChatOptions = { paradigm: Paradigm; recognizeOthers: boolean; toolMode?: ToolMode }
export type Chat = Narrow<
  go.Chat,
  {
    paradigm: Paradigm
    /** normalizeChat fills it: 'text' for a chat from before the choice existed. */
    toolMode?: ToolMode
    /** normalizeChat fills it: 'scratch' by default. */
    workspaceKind?: WorkspaceKind
    workspaceDir?: string
    pinned?: boolean
    leafId?: string
    /** null = every enabled server (normalizeChat fills it). */
    mcpServers?: string[] | null
    /** The chat's own tool toggles (null = none: the agent decides). */
    toolToggles?: Record<string, boolean> | null
    agentId?: string
    providerId?: string
    model?: string
    /** The chat chose its own tool mode / call format (absent: it follows its agent's). */
    toolModeOwn?: boolean
    paradigmOwn?: boolean
  }
>
export const DEFAULT_CHAT_OPTIONS: ChatOptions = { paradigm: 'json', recognizeOthers: true }
export type Usage = go.Usage
export type Message = Narrow<go.Message, { role: Role; kind: Kind; status: MessageStatus; parentId?: string }>
/** A search match: `snippet` is plain text with matched words wrapped in \u0002 … \u0003. */
export type SearchHit = Narrow<go.SearchHit, { role: Role; kind: 'message' | 'tool_call' }>
export type ExportFormat = 'md' | 'html' | 'json'
export const EXPORT_FORMATS: ExportFormat[] = ['md', 'html', 'json']
/** What an import did (source '' = the dialog was cancelled). */
export type ImportResult = Narrow<go.ImportResult, { source: '' | 'airlock' | 'chatgpt' }>

/** scratch: in memory, saved with the chat · folder: a real folder, edited directly · overlay: a real folder read-only, changes wait for review. */
export type WorkspaceKind = 'scratch' | 'folder' | 'overlay'
export type WorkspaceChoice = { kind: WorkspaceKind; dir: string }
export const DEFAULT_WORKSPACE: WorkspaceChoice = { kind: 'scratch', dir: '' }

/** Something the user should know about a chat (e.g. code "turn_cap": the loop paused). */
export type ChatNotice = go.ChatNotice

export type StreamDelta = go.StreamDelta
export type StreamEnd = Narrow<go.StreamEnd, { message: Message }>

export function normalizeMessage(m: Message): Message {
  return {
    ...m,
    kind: m.kind || 'text',
    content: m.content ?? '',
    reasoning: m.reasoning ?? '',
    usage: {
      promptTokens: m.usage?.promptTokens ?? 0,
      completionTokens: m.usage?.completionTokens ?? 0,
      totalTokens: m.usage?.totalTokens ?? 0,
    },
  }
}

export const asKind = (k: unknown): WorkspaceKind => (k === 'folder' || k === 'overlay' ? k : 'scratch')
export const asToolMode = (m: unknown, missing: ToolMode): ToolMode => (m === 'text' || m === 'native' || m === 'auto' ? m : missing)

export function normalizeChat(c: Chat): Chat {
  const paradigm = c.paradigm === 'xml' || c.paradigm === 'vcp' ? c.paradigm : 'json'
  const workspaceKind = asKind(c.workspaceKind)
  return {
    ...c,
    title: c.title ?? '',
    paradigm,
    recognizeOthers: c.recognizeOthers ?? DEFAULT_CHAT_OPTIONS.recognizeOthers,
    workspaceKind,
    workspaceDir: workspaceKind === 'scratch' ? '' : c.workspaceDir ?? '',
    pinned: !!c.pinned,
    mcpServers: Array.isArray(c.mcpServers) ? c.mcpServers : null,
    toolMode: asToolMode(c.toolMode, 'text'),
  }
}

/** A chat's workspace choice (scratch when it does not say). */
export const chatWorkspace = (c: Chat | null | undefined): WorkspaceChoice =>
  c ? { kind: asKind(c.workspaceKind), dir: asKind(c.workspaceKind) === 'scratch' ? '' : c.workspaceDir ?? '' } : DEFAULT_WORKSPACE

export const chatsApi = {
  listChats: async () => arr(await call<Chat[] | null>('ListChats')).map(normalizeChat),
  createChat: async () => normalizeChat(await call<Chat>('CreateChat')),
  renameChat: async (id: string, title: string) => normalizeChat(await call<Chat>('RenameChat', id, title)),
  /** Send the chat's mcpServers along: the backend stores the options whole (a missing list would mean "all"); a missing toolMode keeps the chat's. */
  setChatOptions: async (chatId: string, o: ChatOptions & { mcpServers?: string[] | null }) =>
    normalizeChat(await call<Chat>('SetChatOptions', chatId, o)),
  /** Moves a chat to the Trash (restorable for 30 days: trashApi). */
  deleteChat: (id: string) => call<void>('DeleteChat', id),
  listMessages: async (chatId: string) =>
    arr(await call<Message[] | null>('ListMessages', chatId)).map(normalizeMessage),
  getMessage: async (id: string) => normalizeMessage(await call<Message>('GetMessage', id)),
  send: async (chatId: string, text: string) =>
    arr(await call<Message[] | null>('Send', chatId, text)).map(normalizeMessage),
  stop: (chatId: string) => call<void>('Stop', chatId),
  retry: async (chatId: string) => normalizeMessage(await call<Message>('Retry', chatId)),
  activeStreams: async () => arr(await call<string[] | null>('ActiveStreams')),
  /** Sends waiting tool results to the model; returns the new streaming assistant placeholder. */
  continueChat: async (chatId: string) => normalizeMessage(await call<Message>('Continue', chatId)),
}
