// Agents (named setups), each chat's model and agent, and the tools a chat
// offers one by one. Re-exported from ./index.ts; only store/ calls agentsApi.
import type * as go from './generated'
import { arr, call } from './core'
import { normalizeChat, normalizeMessage, type Chat, type Message, type ToolMode } from './chats'
import type { ToolKind } from './calls'

export type ToolChoice = go.ToolChoice
/** Which rules decide the calls of an agent's chats (chat.ApprovalMode). */
export type ApprovalMode = 'rules' | 'reads' | 'ask'
export const APPROVAL_MODES: readonly ApprovalMode[] = ['rules', 'reads', 'ask']
export type Agent = Omit<go.Agent, 'toolMode' | 'paradigm' | 'workspaceKind' | 'approval'> & {
  approval: ApprovalMode
  toolMode: ToolMode
  paradigm: 'json' | 'xml' | 'vcp'
  workspaceKind: 'scratch' | 'folder' | 'overlay'
}
export type ChatSetup = go.ChatSetup
export type ProviderModels = go.ProviderModels
export type ToolOffer = Omit<go.ToolOffer, 'kind'> & { kind?: ToolKind }
export type ChatTools = Omit<go.ChatTools, 'tools'> & { tools: ToolOffer[] }

export const DEFAULT_AGENT_ID = 'default'

/** The built-in agents as shipped (English): shown in the UI's language while unchanged. */
export const BUILTIN_AGENTS: Record<string, string> = {
  default: 'Default',
  reviewer: 'File reviewer (read-only)',
  plain: 'Plain chat (no tools)',
}

/** An empty agent for the editor: every tool, Auto, the usual limits. */
export const blankAgent = (): Agent => ({
  id: '',
  name: '',
  description: '',
  providerId: '',
  model: '',
  systemPrompt: '',
  temperature: null,
  topP: null,
  maxOutputTokens: 0,
  toolMode: 'auto',
  paradigm: 'json',
  tools: { default: true, toggles: {}, readOnly: false },
  maxTurns: 25,
  toolTimeoutSeconds: 30,
  workspaceKind: 'scratch',
  workspaceDir: '',
  sequential: false,
  approval: 'rules',
  builtIn: false,
  createdAt: 0,
  updatedAt: 0,
})

export function normalizeAgent(a: Agent): Agent {
  const b = blankAgent()
  return {
    ...b,
    ...a,
    temperature: a.temperature ?? null,
    topP: a.topP ?? null,
    approval: APPROVAL_MODES.includes(a.approval) ? a.approval : 'rules',
    tools: { default: !!a.tools?.default, toggles: a.tools?.toggles ?? {}, readOnly: !!a.tools?.readOnly },
  }
}

const normalizeTools = (t: ChatTools): ChatTools => ({
  ...t,
  tools: arr(t?.tools),
  offered: t?.offered ?? 0,
  tokens: t?.tokens ?? 0,
  agent: t?.agent ?? '',
})

export const agentsApi = {
  listAgents: async () => arr(await call<Agent[] | null>('ListAgents')).map(normalizeAgent),
  saveAgent: async (a: Agent) => normalizeAgent(await call<Agent>('SaveAgent', a)),
  deleteAgent: (id: string) => call<void>('DeleteAgent', id),
  /** The path written, '' when cancelled. */
  exportAgents: async (ids: string[]) => (await call<string | null>('ExportAgents', ids)) ?? '',
  /** The agents added ([] when cancelled). */
  importAgentsFile: async () => arr(await call<Agent[] | null>('ImportAgentsFile')).map(normalizeAgent),
  createChatWith: async (agentId: string) => normalizeChat(await call<Chat>('CreateChatWith', agentId)),
  nextChat: (agentId: string) => call<ChatSetup>('NextChat', agentId),
  setChatAgent: async (chatId: string, agentId: string) => normalizeChat(await call<Chat>('SetChatAgent', chatId, agentId)),
  setChatModel: async (chatId: string, providerId: string, model: string) =>
    normalizeChat(await call<Chat>('SetChatModel', chatId, providerId, model)),
  regenerateWith: async (messageId: string, providerId: string, model: string) =>
    normalizeMessage(await call<Message>('RegenerateWith', messageId, providerId, model)),
  listChatModels: async (fresh: boolean) =>
    arr(await call<ProviderModels[] | null>('ListChatModels', fresh)).map((p) => ({ ...p, models: arr(p.models) })),
  chatTools: async (chatId: string) => normalizeTools(await call<ChatTools>('ChatTools', chatId)),
  setChatTools: async (chatId: string, toggles: Record<string, boolean>) =>
    normalizeTools(await call<ChatTools>('SetChatTools', chatId, toggles)),
  agentToolList: async () => arr(await call<ToolOffer[] | null>('AgentToolList')),
}
