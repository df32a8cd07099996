// The ONLY module that touches `window.go` / `window.runtime`. Everything else
// imports the typed wrappers below, which keeps the Go contract in one place
// and lets tests mock this module wholesale.
// Only store/ imports the bindings (api, historyApi, policyApi, undoApi, events):
// components go through the stores (src/architecture.test.ts checks it).

// Shapes shared with Go come from ./generated.ts (generated from the Go types by
// tstypes_test.go, `make types`; a Go test fails when it is stale). Only what the
// generator cannot express is written here: unions for fields Go keeps as plain
// strings, and fields the normalize* functions below fill (optional here).
import type * as go from './generated'

/** A generated Go type with some fields narrowed by hand; N may only name fields T has (a renamed Go field fails here). */
type Narrow<T, N extends { [K in keyof N]: K extends keyof T ? unknown : never }> = Omit<T, keyof N> & N


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
  }
>
export const DEFAULT_CHAT_OPTIONS: ChatOptions = { paradigm: 'json', recognizeOthers: true }
export type Usage = go.Usage
export type Message = Narrow<go.Message, { role: Role; kind: Kind; status: MessageStatus; parentId?: string }>
/** A search match: `snippet` is plain text with matched words wrapped in \u0002 … \u0003. */
export type SearchHit = Narrow<go.SearchHit, { role: Role; kind: 'message' | 'tool_call' }>
export type ExportFormat = 'md' | 'html' | 'json'
/** What an import did (source '' = the dialog was cancelled). */
export type ImportResult = Narrow<go.ImportResult, { source: '' | 'airlock' | 'chatgpt' }>
export type Provider = go.Provider
export type Language = 'auto' | 'en' | 'zh'
export type Theme = 'system' | 'light' | 'dark'
export type Settings = Narrow<go.Settings, { language: Language; theme: Theme; toolMode: ToolMode }>
/** What Auto knows about the active provider's model ('' = nothing learned / no override). */
export type ModelModeInfo = Narrow<go.ModelModeInfo, { learned: '' | 'native' | 'text'; override: '' | 'native' | 'text'; effective: 'native' | 'text' }>
/** `notices`: what went wrong at start that people must know (a damaged database set aside…), shown once. */
/** `keyStorage`: where API keys are kept — the system keychain, or (none answered) the owner-only database. */
export type AppInfo = Narrow<go.AppInfo, { keyStorage?: 'keychain' | 'database' }>
export type AboutInfo = go.AboutInfo

export type CallState = 'pending' | 'approved' | 'running' | 'done' | 'error' | 'denied' | 'interrupted' | 'problem'
export type DecidedBy = 'user' | 'rule:chat' | 'rule:global' | `rule:${number}` | 'system' | 'new_message' | 'loop_guard' | 'turn_cap' | 'timeout'
/** A tool call the model proposed, as the approval flow tracks it. */
export type Call = Narrow<go.Call, { state: CallState; decidedBy?: DecidedBy; resultStatus?: 'success' | 'error' | 'denied' }>
/** A picture a tool returned: `data` is base64. */
export type ToolImage = go.ToolImage
/** What running a tool by hand produced (Tool lab). */
export type RunOutput = Narrow<go.RunOutput, { images: ToolImage[]; isError: boolean }>
/** A rule: a tool (or a glob of names) allowed, or never allowed, for any arguments, paths under a folder, or one argument's exact value. */
export type Rule = Narrow<
  go.Rule,
  {
    effect: 'allow' | 'deny'
    match: Narrow<go.RuleMatch, { kind: 'any' | 'path' | 'exact' }>
    scope: 'call' | 'chat' | 'hour' | 'session' | 'always'
  }
>
/** Where a tool acts: it computes (builtin), it works on the chat's workspace (files), or an MCP server acts for it (mcp). */
export type ToolKind = 'builtin' | 'files' | 'mcp'
export type ToolSpec = Narrow<go.ToolSpec, { kind?: ToolKind }>
export type ParadigmInfo = go.ParadigmInfo
export type FormatInfo = { id: string; name: string; models: string; markers?: string[]; source?: string; example: string }
export type ToolLab = { tools: ToolSpec[]; paradigms: ParadigmInfo[]; formats: FormatInfo[] }
export type ScanParadigm = Paradigm | 'auto'
export type ScannedCall = { id: string; name: string; arguments: unknown; raw?: string; format?: string; start: number; end: number }
export type ScanProblem = { message: string; raw: string; name?: string; id?: string; format?: string; start: number; end: number }
export type ScanIgnored = { start: number; end: number; reason: string }
export type ScanResult = { calls: ScannedCall[]; problems: ScanProblem[]; ignored: ScanIgnored[] }

/** scratch: in memory, saved with the chat · folder: a real folder, edited directly · overlay: a real folder read-only, changes wait for review. */
export type WorkspaceKind = 'scratch' | 'folder' | 'overlay'
export type WorkspaceChoice = { kind: WorkspaceKind; dir: string }
export const DEFAULT_WORKSPACE: WorkspaceChoice = { kind: 'scratch', dir: '' }
export type ChangeOp = 'added' | 'modified' | 'deleted'
/** One file or folder of a workspace (sorted by path; `changed` only in an overlay). */
export type WorkspaceEntry = Narrow<go.WorkspaceEntry, { changed?: ChangeOp }>
export type WorkspaceInfo = Narrow<go.WorkspaceInfo, { kind: WorkspaceKind; entries: WorkspaceEntry[] }>
/** A workspace file opened read-only. */
export type FileView = go.FileView
/** What an overlay's Apply would write to the real folder. */
export type Change = Narrow<go.Change, { op: ChangeOp }>
/** MCP servers. Secrets never reach the UI: env and header values (and a URL's password or
 * query values) come back as MASKED; sending MASKED back keeps the saved value. */
export const MASKED = '•••'
export type McpTransport = 'stdio' | 'http' | 'sse'
export type McpServerConfig = Narrow<go.McpServerConfig, { transport?: McpTransport }>
export type McpState = 'starting' | 'ready' | 'failed' | 'stopped'
export type McpServerInfo = Narrow<go.McpServerInfo, { state: McpState; problems: string[]; restartsOnUse: boolean; config: McpServerConfig }>
export type McpServers = Narrow<go.McpServers, { servers: McpServerInfo[]; envFile: string; envError: string }>
/** `skipped` entries read "name: why". */
export type McpImport = go.McpImport

/** One call the model is writing, while its answer streams (display only). */
export type FormingCall = go.FormingCall
/** The whole list of calls being written in a streaming answer (each event replaces the last). */
export type CallsForming = go.CallsForming

/** Something the user should know about a chat (e.g. code "turn_cap": the loop paused). */
export type ChatNotice = go.ChatNotice

export type StreamDelta = go.StreamDelta
export type StreamEnd = Narrow<go.StreamEnd, { message: Message }>

// Agents, per-chat models and tool toggles: ./agents.ts.
export * from './agents'

export const DEMO_PROVIDER_ID = 'demo'
export const ENV_PROVIDER_ID = 'env'

/** An error from the Go side (or from calling it), with a stable code. */
export class ApiError extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.name = 'ApiError'
    this.code = code
  }
}

/** Turns whatever a rejected binding produced into an ApiError. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  const raw =
    typeof err === 'string'
      ? err
      : err instanceof Error
        ? err.message
        : err && typeof err === 'object' && 'message' in err
          ? String((err as { message: unknown }).message)
          : String(err)
  try {
    const parsed: unknown = JSON.parse(raw)
    if (parsed && typeof parsed === 'object') {
      const p = parsed as { code?: unknown; message?: unknown }
      if (typeof p.message === 'string' || typeof p.code === 'string') {
        return new ApiError(
          typeof p.code === 'string' && p.code ? p.code : 'unknown',
          typeof p.message === 'string' && p.message ? p.message : raw,
        )
      }
    }
  } catch {
    // not JSON: fall through to the raw string
  }
  return new ApiError('unknown', raw || 'Unknown error')
}

type AnyFn = (...args: unknown[]) => Promise<unknown>

interface WailsRuntime {
  EventsOn?: (name: string, cb: (...data: unknown[]) => void) => (() => void) | void
  EventsOff?: (name: string, ...more: string[]) => void
  BrowserOpenURL?: (url: string) => void
  ClipboardSetText?: (text: string) => Promise<boolean> | boolean
}

declare global {
  interface Window {
    go?: { main?: { App?: Record<string, AnyFn> } }
    runtime?: WailsRuntime
  }
}

function backend(): Record<string, AnyFn> {
  const app = typeof window !== 'undefined' ? window.go?.main?.App : undefined
  if (!app) throw new ApiError('unavailable', 'The Airlock backend is not available.')
  return app
}

export async function call<T>(name: string, ...args: unknown[]): Promise<T> {
  try {
    const fn = backend()[name]
    if (typeof fn !== 'function') throw new ApiError('unavailable', `Backend method ${name} is missing.`)
    return (await fn(...args)) as T
  } catch (err) {
    throw toApiError(err)
  }
}

// Go returns nil slices as null, and may omit zero-valued fields.
export const arr = <T>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : [])

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

const asKind = (k: unknown): WorkspaceKind => (k === 'folder' || k === 'overlay' ? k : 'scratch')
const asToolMode = (m: unknown, missing: ToolMode): ToolMode => (m === 'text' || m === 'native' || m === 'auto' ? m : missing)
const asLearned = (m: unknown): '' | 'native' | 'text' => (m === 'native' || m === 'text' ? m : '')

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

export function normalizeWorkspace(w: WorkspaceInfo): WorkspaceInfo {
  return {
    kind: asKind(w?.kind),
    dir: w?.dir ?? '',
    entries: arr(w?.entries).map((e) => ({ ...e, isDir: !!e.isDir, size: e.size ?? 0 })),
    truncated: !!w?.truncated,
  }
}

export function normalizeSettings(s: Settings): Settings {
  return {
    ...s,
    autoContinue: s.autoContinue ?? true,
    maxTurns: s.maxTurns || 25,
    toolTimeoutSeconds: s.toolTimeoutSeconds || 30,
    toolMode: asToolMode(s.toolMode, 'auto'),
  }
}

export function normalizeModelMode(m: Partial<ModelModeInfo> | null | undefined): ModelModeInfo {
  const learned = asLearned(m?.learned)
  const override = asLearned(m?.override)
  const effective = m?.effective === 'native' || m?.effective === 'text' ? m.effective : override || learned || 'native'
  return {
    providerId: m?.providerId ?? '',
    model: m?.model ?? '',
    learned,
    reason: m?.reason ?? '',
    learnedAt: m?.learnedAt ?? 0,
    override,
    effective,
  }
}

export function normalizeForming(f: CallsForming): CallsForming {
  return {
    chatId: f?.chatId ?? '',
    messageId: f?.messageId ?? '',
    calls: arr(f?.calls).map((c) => ({
      name: c?.name ?? '',
      arguments: c?.arguments ?? '',
      format: c?.format ?? '',
      complete: !!c?.complete,
    })),
  }
}

const images = (v: unknown): ToolImage[] =>
  arr(v as ToolImage[] | null).filter((i) => i && typeof i.mime === 'string' && typeof i.data === 'string')

export function normalizeCall(c: Call): Call {
  const out: Call = { ...c, index: c.index ?? 0, raw: c.raw ?? '', format: c.format ?? '', arguments: c.arguments ?? null }
  if (c.images != null) out.images = images(c.images)
  else delete out.images
  return out
}

/** RunTool's reply (an older backend answered with the text alone). */
export function normalizeRunOutput(r: unknown): RunOutput {
  if (r == null || typeof r === 'string') return { text: r ?? '', images: [], isError: false }
  const o = r as Partial<RunOutput>
  const out: RunOutput = { text: typeof o.text === 'string' ? o.text : '', images: images(o.images), isError: !!o.isError }
  if (o.structured !== undefined && o.structured !== null) out.structured = o.structured
  return out
}

const strMap = (m: unknown): Record<string, string> => {
  const out: Record<string, string> = {}
  if (m && typeof m === 'object' && !Array.isArray(m)) for (const [k, v] of Object.entries(m)) out[k] = typeof v === 'string' ? v : String(v ?? '')
  return out
}

export function normalizeMcpConfig(c: McpServerConfig | null | undefined): McpServerConfig {
  const out: McpServerConfig = { ...(c ?? {}), name: c?.name ?? '', enabled: !!c?.enabled }
  if (out.transport !== 'stdio' && out.transport !== 'http' && out.transport !== 'sse') delete out.transport
  out.args = arr(c?.args).map(String)
  out.env = strMap(c?.env)
  out.headers = strMap(c?.headers)
  return out
}

export function normalizeMcpServers(r: McpServers | null | undefined): McpServers {
  const state = (s: unknown): McpState => (s === 'starting' || s === 'ready' || s === 'failed' ? s : 'stopped')
  return {
    servers: arr(r?.servers).map((x) => ({
      ...x,
      name: x.name ?? '',
      state: state(x.state),
      tools: x.tools ?? 0,
      problems: arr(x.problems),
      restartsOnUse: !!x.restartsOnUse,
      since: x.since ?? '',
      config: normalizeMcpConfig(x.config ?? { name: x.name, enabled: false }),
      fromEnv: !!x.fromEnv,
    })),
    envFile: r?.envFile ?? '',
    envError: r?.envError ?? '',
  }
}

const normalizeMcpImport = (r: McpImport | null | undefined): McpImport => ({ added: arr(r?.added), skipped: arr(r?.skipped) })

export const api = {
  info: () => call<AppInfo>('Info'),
  about: () => call<AboutInfo>('About'),
  openDataDir: () => call<void>('OpenDataDir'),
  listChats: async () => arr(await call<Chat[] | null>('ListChats')).map(normalizeChat),
  createChat: async () => normalizeChat(await call<Chat>('CreateChat')),
  renameChat: async (id: string, title: string) => normalizeChat(await call<Chat>('RenameChat', id, title)),
  /** Send the chat's mcpServers along: the backend stores the options whole (a missing list would mean "all"); a missing toolMode keeps the chat's. */
  setChatOptions: async (chatId: string, o: ChatOptions & { mcpServers?: string[] | null }) =>
    normalizeChat(await call<Chat>('SetChatOptions', chatId, o)),
  deleteChat: (id: string) => call<void>('DeleteChat', id),
  listMessages: async (chatId: string) =>
    arr(await call<Message[] | null>('ListMessages', chatId)).map(normalizeMessage),
  getMessage: async (id: string) => normalizeMessage(await call<Message>('GetMessage', id)),
  send: async (chatId: string, text: string) =>
    arr(await call<Message[] | null>('Send', chatId, text)).map(normalizeMessage),
  stop: (chatId: string) => call<void>('Stop', chatId),
  retry: async (chatId: string) => normalizeMessage(await call<Message>('Retry', chatId)),
  activeStreams: async () => arr(await call<string[] | null>('ActiveStreams')),
  getSettings: async () => normalizeSettings(await call<Settings>('GetSettings')),
  saveSettings: async (s: Settings) => normalizeSettings(await call<Settings>('SaveSettings', s)),
  listProviders: async () => arr(await call<Provider[] | null>('ListProviders')),
  saveProvider: (p: Provider) => call<Provider>('SaveProvider', p),
  deleteProvider: (id: string) => call<void>('DeleteProvider', id),
  listModels: async (p: Provider) => arr(await call<string[] | null>('ListModels', p)),
  testConnection: (p: Provider) => call<string>('TestConnection', p),
  /** What Auto knows about the active provider's model. */
  modelMode: async () => normalizeModelMode(await call<ModelModeInfo>('ModelMode')),
  /** Overrides what Auto learned for the active model ('' = go by what it learns); forget drops what it learned (it tries native again). */
  setModelMode: async (override: '' | 'native' | 'text', forget: boolean) =>
    normalizeModelMode(await call<ModelModeInfo>('SetModelMode', override, forget)),

  // Tool calls: every action returns the call as stored after the change.
  listCalls: async (chatId: string) => arr(await call<Call[] | null>('ListCalls', chatId)).map(normalizeCall),
  /** Run; with `edited` arguments: edit, then run (validated by the backend: code invalid_arguments). */
  approveCall: async (callId: string, edited: object | null) =>
    normalizeCall(await call<Call>('ApproveCall', callId, edited)),
  /** How long (ms) the caret blinks without input before it should rest; 0 = never (store/caret.ts). */
  caretRestAfter: () => call<number>('CaretRestAfter'),
  setCaretResting: (resting: boolean) => call<void>('SetCaretResting', resting),
  /** Opens a link in the system browser; fails (no_browser) when none opens. */
  openURL: (url: string) => call<void>('OpenURL', url),
  /** What a waiting call would change with edited arguments (the card's diff while editing); nothing is stored. */
  previewCall: (callId: string, args: object) => call<unknown>('PreviewCall', callId, args),
  denyCall: async (callId: string, reason: string) => normalizeCall(await call<Call>('DenyCall', callId, reason)),
  alwaysAllowCall: async (callId: string, everywhere: boolean) =>
    normalizeCall(await call<Call>('AlwaysAllowCall', callId, everywhere)),
  tellModel: async (callId: string) => normalizeCall(await call<Call>('TellModel', callId)),
  fixAndRun: async (callId: string, name: string, args: object) =>
    normalizeCall(await call<Call>('FixAndRun', callId, name, args)),
  cancelCall: (callId: string) => call<void>('CancelCall', callId),
  runAll: (messageId: string) => call<void>('RunAll', messageId),
  denyAll: (messageId: string, reason: string) => call<void>('DenyAll', messageId, reason),
  /** Sends waiting tool results to the model; returns the new streaming assistant placeholder. */
  continueChat: async (chatId: string) => normalizeMessage(await call<Message>('Continue', chatId)),
  tools: async (): Promise<ToolSpec[]> => arr(await call<ToolSpec[]>('Tools')),
  toolLab: async (): Promise<ToolLab> => {
    const lab = await call<ToolLab>('ToolLab')
    return { tools: arr(lab?.tools), paradigms: arr(lab?.paradigms), formats: arr(lab?.formats) }
  },
  scanText: async (text: string, paradigm: ScanParadigm, recognizeOthers: boolean): Promise<ScanResult> => {
    const r = await call<ScanResult>('ScanText', text, paradigm, recognizeOthers)
    return { calls: arr(r?.calls), problems: arr(r?.problems), ignored: arr(r?.ignored) }
  },

  // Workspaces: where a chat's file tools work.
  getWorkspace: async (chatId: string) => normalizeWorkspace(await call<WorkspaceInfo>('GetWorkspace', chatId)),
  readWorkspaceFile: async (chatId: string, path: string): Promise<FileView> => {
    const v = await call<FileView>('ReadWorkspaceFile', chatId, path)
    return { path: v?.path ?? path, content: v?.content ?? '', binary: !!v?.binary, size: v?.size ?? 0, truncated: !!v?.truncated }
  },
  /** Rejects an unusable folder with a message saying why. */
  setWorkspace: async (chatId: string, kind: WorkspaceKind, dir: string) =>
    normalizeChat(await call<Chat>('SetWorkspace', chatId, kind, kind === 'scratch' ? '' : dir)),
  /** The native folder dialog: '' when cancelled. */
  pickFolder: async () => (await call<string | null>('PickFolder')) ?? '',
  workspaceChanges: async (chatId: string) => arr(await call<Change[] | null>('WorkspaceChanges', chatId)),
  /** [] = all. A file changed on disk since the model read it is refused (code apply_conflict); the others apply. */
  applyChanges: (chatId: string, paths: string[]) => call<void>('ApplyChanges', chatId, paths),
  discardChanges: (chatId: string, paths: string[]) => call<void>('DiscardChanges', chatId, paths),
  resetScratch: (chatId: string) => call<void>('ResetScratch', chatId),
  /** Runs a tool by hand on the chat's workspace (validated like a model's call). */
  runTool: async (chatId: string, name: string, args: Record<string, unknown>) =>
    normalizeRunOutput(await call<unknown>('RunTool', chatId, name, args)),

  // MCP servers: every change returns the whole list as it is now.
  listMcpServers: async () => normalizeMcpServers(await call<McpServers>('ListMCPServers')),
  /** previous '' adds; otherwise edits (renames) that server. Codes: invalid_mcp_server, duplicate_server, read_only. */
  saveMcpServer: async (previous: string, cfg: McpServerConfig) =>
    normalizeMcpServers(await call<McpServers>('SaveMCPServer', previous, cfg)),
  setMcpServerEnabled: async (name: string, enabled: boolean) =>
    normalizeMcpServers(await call<McpServers>('SetMCPServerEnabled', name, enabled)),
  deleteMcpServer: async (name: string) => normalizeMcpServers(await call<McpServers>('DeleteMCPServer', name)),
  /** Waits until it is ready or failed (code mcp_failed, with the reason). */
  restartMcpServer: async (name: string) => normalizeMcpServers(await call<McpServers>('RestartMCPServer', name)),
  /** A pasted {"mcpServers": {...}} (code invalid_mcp_config). Names already taken are skipped. */
  importMcpServers: async (text: string) => normalizeMcpImport(await call<McpImport>('ImportMCPServers', text)),
  /** The native open dialog; nothing added or skipped when cancelled. */
  importMcpFile: async () => normalizeMcpImport(await call<McpImport>('ImportMCPFile')),
  /** Which servers' tools a chat offers: all = every enabled one, now and later. */
  setChatServers: async (chatId: string, all: boolean, servers: string[]) =>
    normalizeChat(await call<Chat>('SetChatServers', chatId, all, all ? [] : servers)),
}

export type Api = typeof api

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
      const all = await api.listMessages(chatId)
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

/** Subscribes to a backend event; returns the unsubscribe function. */
export function onEvent<T = unknown>(name: string, cb: (data: T) => void): () => void {
  const rt = typeof window !== 'undefined' ? window.runtime : undefined
  if (!rt?.EventsOn) return () => {}
  const off = rt.EventsOn(name, (data: unknown) => cb(data as T))
  return typeof off === 'function' ? off : () => {}
}

export const events = {
  onStreamDelta: (cb: (d: StreamDelta) => void) => onEvent<StreamDelta>('stream:delta', cb),
  onStreamEnd: (cb: (d: StreamEnd) => void) => onEvent<StreamEnd>('stream:end', cb),
  onChatsChanged: (cb: () => void) => onEvent('chats:changed', () => cb()),
  /** A call was found or changed state (upsert by id). */
  onCallUpdated: (cb: (c: Call) => void) => onEvent<Call>('call:updated', (c) => cb(normalizeCall(c))),
  /** A message the backend added by itself (tool results; the next streaming answer). */
  onMessageAdded: (cb: (m: Message) => void) => onEvent<Message>('message:added', (m) => cb(normalizeMessage(m))),
  onChatNotice: (cb: (n: ChatNotice) => void) => onEvent<ChatNotice>('chat:notice', cb),
  /** The calls a streaming answer is writing (the whole list each time; display only). */
  onCallsForming: (cb: (f: CallsForming) => void) => onEvent<CallsForming>('calls:forming', (f) => cb(normalizeForming(f))),
  /** A tool that may change files ran in a chat's workspace. */
  onWorkspaceChanged: (cb: (w: { chatId: string }) => void) => onEvent<{ chatId: string }>('workspace:changed', cb),
  /** An MCP server's status or tool list changed. */
  onMcpChanged: (cb: () => void) => onEvent('mcp:changed', () => cb()),
  /** Something found while the app runs that people must know (a damaged database); also in Info's notices. */
  onNotice: (cb: (message: string) => void) => onEvent<string>('app:notice', cb),
  // The native menu (its shortcuts reach the page only through these on Linux/Windows).
  onMenuNewChat: (cb: () => void) => onEvent('menu:new-chat', () => cb()),
  onMenuSettings: (cb: () => void) => onEvent('menu:settings', () => cb()),
  onMenuAbout: (cb: () => void) => onEvent('menu:about', () => cb()),
}

const SAFE_EXTERNAL = /^(https?:|mailto:)/i

/** Opens an http(s)/mailto URL in the system browser; never navigates the webview. */
export function openExternal(url: string): boolean {
  if (!SAFE_EXTERNAL.test(url.trim())) return false
  const rt = typeof window !== 'undefined' ? window.runtime : undefined
  if (rt?.BrowserOpenURL) {
    rt.BrowserOpenURL(url.trim())
    return true
  }
  return false
}

/** Copies text via the Wails clipboard, falling back to the web clipboard. */
export async function copyText(text: string): Promise<void> {
  const rt = typeof window !== 'undefined' ? window.runtime : undefined
  if (rt?.ClipboardSetText) {
    try {
      const ok = await rt.ClipboardSetText(text)
      if (ok !== false) return
    } catch {
      // fall back below
    }
  }
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text)
    return
  }
  throw new ApiError('clipboard', 'Clipboard is not available.')
}

// ─── Undo: checkpoints of changes to a real folder ───
// Before a change reaches a real folder (a folder workspace's tool run, an
// overlay's Apply) what it touches is kept; Undo puts it back when nothing
// changed since (else code undo_conflict, with the paths).

/** One path a change touched. size: of the copy kept (what Undo puts back). */
export type CheckpointPath = Narrow<go.CheckpointPath, { op: ChangeOp }>
/** Why a checkpoint cannot be undone. */
export type CheckpointBlocker = 'undone' | 'dropped' | 'incomplete' | 'not_kept'
export type Checkpoint = Narrow<go.Checkpoint, { paths: CheckpointPath[]; blocker?: CheckpointBlocker }>
/** A chat's checkpoints, newest first; bytes kept of limit; dropped = older ones whose copies went to stay under it. */
export type CheckpointList = Narrow<go.CheckpointList, { checkpoints: Checkpoint[] }>
export type UndoResult = go.UndoResult
/** A path that changed since the change (reason: changed, deleted, created, unexpected = a folder now holds `extra`). */
export type UndoConflictPath = { path: string; reason: 'changed' | 'deleted' | 'created' | 'unexpected'; extra?: string }

/** An undo refused: the paths that changed since (empty for other refusals). */
export class UndoError extends ApiError {
  readonly paths: UndoConflictPath[]
  constructor(code: string, message: string, paths: UndoConflictPath[]) {
    super(code, message)
    this.name = 'UndoError'
    this.paths = paths
  }
}

function conflictPaths(err: unknown): UndoConflictPath[] {
  const raw = typeof err === 'string' ? err : err instanceof Error ? err.message : ''
  try {
    const p = JSON.parse(raw) as { paths?: unknown }
    return arr(p?.paths as UndoConflictPath[] | null).filter((x) => x && typeof x.path === 'string')
  } catch {
    return []
  }
}

export function normalizeCheckpoints(l: CheckpointList | null | undefined): CheckpointList {
  return {
    checkpoints: arr(l?.checkpoints).map((c) => ({
      ...c,
      callId: c.callId ?? '',
      tool: c.tool ?? '',
      paths: arr(c.paths).map((p) => ({ ...p, size: p.size ?? 0, kept: !!p.kept })),
      pathCount: c.pathCount ?? arr(c.paths).length,
      undone: !!c.undone,
      undoable: !!c.undoable,
      bytes: c.bytes ?? 0,
      dropped: !!c.dropped,
    })),
    bytes: l?.bytes ?? 0,
    limit: l?.limit ?? 0,
    fileLimit: l?.fileLimit ?? 0,
    dropped: l?.dropped ?? 0,
  }
}

export const undoApi = {
  listCheckpoints: async (chatId: string) => normalizeCheckpoints(await call<CheckpointList>('ListCheckpoints', chatId)),
  /** Rejects with an UndoError: code undo_conflict (paths say which changed), undo_unavailable, … */
  undoCheckpoint: async (id: string): Promise<UndoResult> => {
    try {
      const fn = backend().UndoCheckpoint
      if (typeof fn !== 'function') throw new ApiError('unavailable', 'Backend method UndoCheckpoint is missing.')
      const r = (await fn(id)) as UndoResult | null
      return { id: r?.id ?? id, chatId: r?.chatId ?? '', restored: arr(r?.restored) }
    } catch (err) {
      const e = toApiError(err)
      throw new UndoError(e.code, e.message, conflictPaths(err))
    }
  },
}

// ─── Rules and the audit trail ───
// Rules made from a card (allow for any arguments, paths under a folder, or an
// exact value; never allow with a message), tested before they are saved; the
// trail of every decision, paged, exported through the save dialog.

export type RuleEffect = Rule['effect']
export type RuleScope = Rule['scope']
export type MatchKind = Rule['match']['kind']
export const RULE_SCOPES: RuleScope[] = ['call', 'chat', 'hour', 'session', 'always']
/** A rule as a person asks for it (approval.Draft): '' / omitted fields take the card's. */
export type RuleDraft = {
  effect: RuleEffect
  tool?: string
  match: MatchKind
  /** match 'path': the folder ('' = the folder of the card's path). */
  path?: string
  /** match 'exact': the argument; value omitted = the card's value of it. */
  arg?: string
  value?: unknown
  scope: RuleScope
  chatId?: string
  /** never rules: what the model is told each time. */
  message?: string
}
export type ArgOption = go.ArgOption
/** What a card can make a rule of (RuleOptions). */
export type RuleOptions = Narrow<go.RuleOptions, { scopes: RuleScope[]; covering: Rule[] }>
export type TestedCall = Narrow<go.TestedCall, { state: CallState }>
export type RuleTest = Narrow<go.RuleTest, { rule: Rule; matched: TestedCall[] }>
export type RuleAdded = Narrow<go.RuleAdded, { rule: Rule; call: Call }>

export type AuditDecision =
  | 'approved' | 'edited' | 'fixed' | 'denied' | 'held' | 'superseded' | 'told_model' | 'ran' | 'cancelled' | 'timed_out' | 'interrupted'
export const AUDIT_DECISIONS: AuditDecision[] = [
  'approved', 'edited', 'fixed', 'denied', 'held', 'superseded', 'told_model', 'ran', 'cancelled', 'timed_out', 'interrupted',
]
export type AuditEntry = Narrow<go.AuditEntry, { decision: AuditDecision; resultStatus: '' | 'success' | 'error' | 'denied' }>
export type AuditQuery = { chatId: string; tool: string; decision: string; before: number; limit: number; callId?: string }
/** Newest first; next = the `before` of the page after (0: no more). */
export type AuditPage = Narrow<go.AuditPage, { entries: AuditEntry[] }>
export type AuditFormat = 'jsonl' | 'csv'

export function normalizeRule(r: Rule): Rule {
  return { ...r, chatId: r.chatId ?? '', uses: r.uses ?? 0, match: { ...r.match, kind: r.match?.kind || 'any' } }
}

/** The rule id in a decidedBy value ("rule:12" → 12); 0 for anything else. */
export function ruleIdOf(by: string | undefined): number {
  const m = /^rule:(\d+)$/.exec(by ?? '')
  return m ? Number(m[1]) : 0
}

export const policyApi = {
  listRules: async () => arr(await call<Rule[] | null>('ListRules')).map(normalizeRule),
  deleteRule: (id: number) => call<void>('DeleteRule', id),
  ruleOptions: async (callId: string): Promise<RuleOptions> => {
    const o = await call<RuleOptions>('RuleOptions', callId)
    return {
      tool: o?.tool ?? '',
      folder: o?.folder ?? '',
      pathArgs: arr(o?.pathArgs),
      args: arr(o?.args),
      scopes: arr(o?.scopes).length ? arr(o?.scopes) : RULE_SCOPES,
      covering: arr(o?.covering).map(normalizeRule),
    }
  },
  /** Makes the rule and applies it at once to the card and its answer's waiting calls. */
  addRuleFromCall: async (callId: string, d: RuleDraft): Promise<RuleAdded> => {
    const r = await call<RuleAdded>('AddRuleFromCall', callId, d)
    return { rule: normalizeRule(r.rule), call: normalizeCall(r.call) }
  },
  addRule: async (d: RuleDraft) => normalizeRule(await call<Rule>('AddRule', d)),
  /** Which past calls of the chat ('' = the card's) the draft would have covered. */
  testRule: async (callId: string, d: RuleDraft, chatId = ''): Promise<RuleTest> => {
    const t = await call<RuleTest>('TestRule', callId, d, chatId)
    return { rule: normalizeRule(t.rule), summary: t?.summary ?? '', matched: arr(t?.matched), total: t?.total ?? 0 }
  },
  listAudit: async (q: AuditQuery): Promise<AuditPage> => {
    const p = await call<AuditPage>('ListAudit', q)
    return { entries: arr(p?.entries).map((e) => ({ ...e, resultStatus: e.resultStatus ?? '', durationMs: e.durationMs ?? 0 })), next: p?.next ?? 0 }
  },
  /** The save dialog; the path written, '' when cancelled. chatId '' = every chat. */
  exportAudit: async (chatId: string, format: AuditFormat) => (await call<string | null>('ExportAudit', chatId, format)) ?? '',
}

export const policyEvents = {
  onRulesChanged: (cb: () => void) => onEvent('rules:changed', () => cb()),
}
