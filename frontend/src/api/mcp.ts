// MCP servers: configs, status, import, the servers a chat offers.
import { arr, call, type go, type Narrow } from './core'
import { normalizeChat, type Chat } from './chats'

/** MCP servers. Secrets never reach the UI: env and header values (and a URL's password or
 * query values) come back as MASKED; sending MASKED back keeps the saved value. */
export const MASKED = '•••'
export type McpTransport = 'stdio' | 'http' | 'sse'
export type McpServerConfig = Narrow<go.McpServerConfig, { transport?: McpTransport }>
export type McpState = 'starting' | 'ready' | 'failed' | 'stopped'
/** Where a server is with signing in ('' = it never asked for one). */
export type McpAuth = '' | 'signed_out' | 'signing_in' | 'signed_in' | 'expired' | 'refused'
export type McpServerInfo = Narrow<go.McpServerInfo, { state: McpState; problems: string[]; restartsOnUse: boolean; config: McpServerConfig; auth?: McpAuth; instructionsOn?: boolean }>
export type McpServers = Narrow<go.McpServers, { servers: McpServerInfo[]; envFile: string; envError: string }>
/** `skipped` entries read "name: why". */
export type McpImport = go.McpImport

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
      instructions: x.instructions ?? '',
      instructionsOn: x.instructionsOn !== false,
    })),
    envFile: r?.envFile ?? '',
    envError: r?.envError ?? '',
  }
}

const normalizeMcpImport = (r: McpImport | null | undefined): McpImport => ({ added: arr(r?.added), skipped: arr(r?.skipped) })

export const mcpApi = {
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
  /** Starts signing in (the browser opens); the list follows through mcp:changed. Code no_sign_in. */
  signInMcpServer: async (name: string) => normalizeMcpServers(await call<McpServers>('SignInMCPServer', name)),
  cancelMcpSignIn: async (name: string) => normalizeMcpServers(await call<McpServers>('CancelMCPSignIn', name)),
  /** Forgets the server's tokens (keychain) and restarts it. */
  signOutMcpServer: async (name: string) => normalizeMcpServers(await call<McpServers>('SignOutMCPServer', name)),
  /** Adds a server's instructions to the system prompt or keeps them out (kept across restarts). */
  setMcpInstructions: async (name: string, on: boolean) =>
    normalizeMcpServers(await call<McpServers>('SetMCPInstructions', name, on)),
  /** Which servers' tools a chat offers: all = every enabled one, now and later. */
  setChatServers: async (chatId: string, all: boolean, servers: string[]) =>
    normalizeChat(await call<Chat>('SetChatServers', chatId, all, all ? [] : servers)),
}
