// MCP servers on top of the main store: the list Settings ▸ Tools shows, its
// actions, and a chat's choice of servers.
//
// Kept apart from store/index.ts (like store/history.ts): it drives the main
// store through its public actions and `setState`, and keeps its own state here.
import { create } from 'zustand'
import { api, events, toApiError, type ApiError, type McpImport, type McpServerConfig, type McpServerInfo, type McpServers } from '../api'
import { useStore, type Store } from './index'
import { offersChanged } from './mcpOffers'

export type McpRowAction = 'restart' | 'enable' | 'delete'

export type McpListState = {
  servers: McpServerInfo[]
  /** The AIRLOCK_MCP_CONFIG file this session read ('' = none). */
  envFile: string
  /** Why that file could not be used ('' = it could). */
  envError: string
  loaded: boolean
  loadError: string | null
  /** Row actions in flight, by server name. */
  busy: Record<string, McpRowAction>
}

const initial = (): McpListState => ({
  servers: [],
  envFile: '',
  envError: '',
  loaded: false,
  loadError: null,
  busy: {},
})

export const useMcp = create<McpListState>()(() => initial())

const main = () => useStore.getState()

/** Replies can overtake one another (an event's reload vs an action's reply): only the newest applies. */
let seq = 0
const apply = (list: McpServers, mine: number) => {
  if (mine !== seq) return
  useMcp.setState({ servers: list.servers, envFile: list.envFile, envError: list.envError, loaded: true, loadError: null })
}

const setBusy = (name: string, action: McpRowAction | null) =>
  useMcp.setState((s) => {
    const busy = { ...s.busy }
    if (action) busy[name] = action
    else delete busy[name]
    return { busy }
  })

/** Reads the list again (Settings ▸ Tools opening, a chat's options opening, mcp:changed). */
export async function loadMcpServers(): Promise<void> {
  const mine = ++seq
  try {
    apply(await api.listMcpServers(), mine)
  } catch (err) {
    if (mine === seq) useMcp.setState({ loadError: toApiError(err).message })
  }
}

/** Runs an action whose reply is the whole list. */
async function listAction(fn: () => Promise<McpServers>): Promise<ApiError | null> {
  const mine = ++seq
  try {
    apply(await fn(), mine)
    return null
  } catch (err) {
    return toApiError(err)
  }
}

/** Adds (previous '') or edits a server. The backend's rejection is returned, for the form to show. */
export const saveMcpServer = (previous: string, cfg: McpServerConfig) => listAction(() => api.saveMcpServer(previous, cfg))

export async function setMcpEnabled(name: string, enabled: boolean): Promise<void> {
  setBusy(name, 'enable')
  const err = await listAction(() => api.setMcpServerEnabled(name, enabled))
  setBusy(name, null)
  if (err) main().toastError('errors.mcpEnable', err)
}

export async function deleteMcpServer(name: string): Promise<boolean> {
  setBusy(name, 'delete')
  const err = await listAction(() => api.deleteMcpServer(name))
  setBusy(name, null)
  if (err) main().toastError('errors.mcpDelete', err)
  return !err
}

/** Waits until the server is ready or failed. A failure shows on its row (its reason), anything else as a toast. */
export async function restartMcpServer(name: string): Promise<ApiError | null> {
  setBusy(name, 'restart')
  const err = await listAction(() => api.restartMcpServer(name))
  setBusy(name, null)
  if (err) {
    if (err.code !== 'mcp_failed') main().toastError('errors.mcpRestart', err)
    void loadMcpServers()
  }
  return err
}

/** Sign in (the browser opens), give it up, or sign out; a refusal shows on the row, anything else as a toast. */
export async function mcpSignIn(name: string, action: 'in' | 'cancel' | 'out'): Promise<void> {
  const fn = action === 'in' ? api.signInMcpServer : action === 'cancel' ? api.cancelMcpSignIn : api.signOutMcpServer
  const err = await listAction(() => fn(name))
  if (err) main().toastError('errors.mcpSignIn', err)
}

/** A server's instructions in the system prompt, on or off; a refusal shows as a toast. */
export async function setMcpInstructions(name: string, on: boolean): Promise<void> {
  const err = await listAction(() => api.setMcpInstructions(name, on))
  if (err) main().toastError('mcpOffers.errors.instructions', err)
}

type ImportOutcome = { result: McpImport } | { error: ApiError }

async function importWith(fn: () => Promise<McpImport>): Promise<ImportOutcome> {
  try {
    const result = await fn()
    if (result.added.length > 0) void loadMcpServers()
    return { result }
  } catch (err) {
    return { error: toApiError(err) }
  }
}

/** A pasted {"mcpServers": {...}}: what was added and skipped, or why nothing could be read. */
export const importMcpText = (text: string) => importWith(() => api.importMcpServers(text))
/** The native open dialog; nothing added or skipped when cancelled. */
export const importMcpFile = () => importWith(() => api.importMcpFile())

/**
 * Sets which servers a chat offers (null = the lazy new chat: kept until it is created).
 * all = every enabled server, now and later.
 */
export async function setChatServers(chatId: string | null, all: boolean, servers: string[]): Promise<boolean> {
  const next = all ? null : [...servers]
  if (!chatId) {
    useStore.setState({ newChatServers: next })
    return true
  }
  const prev = main().chats.find((c) => c.id === chatId)
  // optimistic, rolled back on failure
  useStore.setState((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? { ...c, mcpServers: next } : c)) }))
  try {
    const saved = await api.setChatServers(chatId, all, servers)
    useStore.setState((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? { ...c, ...saved } : c)) }))
    return true
  } catch (err) {
    if (prev) useStore.setState((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? prev : c)) }))
    main().toastError('errors.chatServers', err)
    return false
  }
}

/** The active chat's servers: null = all enabled (the lazy new chat's choice when none is active). */
export const selectActiveChatServers = (s: Store): string[] | null => {
  if (!s.activeChatId) return s.newChatServers
  return s.chats.find((c) => c.id === s.activeChatId)?.mcpServers ?? null
}

/** mcp:changed: a server's status or tools changed. The list is read again (the main store reloads the tools). */
export function subscribeMcp(): () => void {
  return events.onMcpChanged(() => {
    void loadMcpServers()
    offersChanged()
  })
}

/** Test helper. */
export function resetMcp() {
  seq++
  useMcp.setState(initial())
}
