// Agents, each chat's model and agent, and the tools a chat offers one by
// one. Beside the main store like store/history.ts: it keeps its own state
// here and drives the main store through setState.
import { create } from 'zustand'
import { agentsApi, toApiError, type Agent, type ApiError, type Chat, type ChatSetup, type ChatTools, type Message, type ProviderModels, type ToolOffer } from '../api'
import { startAnswer } from './history'
import { useStore } from './index'
import { usePending } from './pending'

export type AgentsState = {
  agents: Agent[]
  agentsLoaded: boolean
  /** The model picker's lists (null until read). */
  models: ProviderModels[] | null
  modelsLoading: boolean
  /** What the chat not created yet starts with (agent, provider, model). */
  next: ChatSetup | null
  /** Each chat's tool checklist, by chat id. */
  tools: Record<string, ChatTools>
  /** Every tool with its cost, for an agent's checklist. */
  toolList: ToolOffer[] | null
  /** The chat whose tool checklist is open (null = closed). */
  toolsOpen: string | null
}

const initial = (): AgentsState => ({
  agents: [],
  agentsLoaded: false,
  models: null,
  modelsLoading: false,
  next: null,
  tools: {},
  toolList: null,
  toolsOpen: null,
})

export const useAgents = create<AgentsState>()(() => initial())

export const resetAgents = () => {
  useAgents.setState(initial())
  usePending.setState({}, true)
}

const store = () => useStore.getState()

/** Replaces a chat in the main store with the one the backend returned. */
const adoptChat = (chat: Chat) =>
  useStore.setState((s) => ({ chats: s.chats.map((c) => (c.id === chat.id ? { ...c, ...chat } : c)) }))

export async function loadAgents(): Promise<void> {
  try {
    useAgents.setState({ agents: await agentsApi.listAgents(), agentsLoaded: true })
  } catch (err) {
    store().toastError('agents.errors.load', err)
  }
}

/** The picker's lists; fresh asks the servers again. */
export async function loadModels(fresh = false): Promise<void> {
  if (useAgents.getState().modelsLoading) return
  useAgents.setState({ modelsLoading: true })
  try {
    useAgents.setState({ models: await agentsApi.listChatModels(fresh) })
  } catch (err) {
    store().toastError('agents.models.errors.load', err)
  } finally {
    useAgents.setState({ modelsLoading: false })
  }
}

/** Reads what the chat not created yet would start with. */
export async function loadNext(): Promise<void> {
  const pending = usePending.getState()
  try {
    const next = await agentsApi.nextChat(pending.agentId ?? '')
    const p = usePending.getState()
    useAgents.setState({ next: p.providerId ? { ...next, providerId: p.providerId, model: p.model ?? '' } : next })
  } catch (err) {
    store().toastError('agents.errors.load', err)
  }
}

/** The chat's setup as the header shows it: the open chat's, else the one not created yet. */
export function useChatSetup(): ChatSetup | null {
  const chat = useStore((s) => s.chats.find((c) => c.id === s.activeChatId) ?? null)
  const next = useAgents((s) => s.next)
  if (chat) return { agentId: chat.agentId ?? '', providerId: chat.providerId ?? '', model: chat.model ?? '', toolToggles: chat.toolToggles ?? {} }
  return next
}

/** Switches the open chat (or the one not created yet) to a model. */
export async function pickModel(providerId: string, model: string): Promise<boolean> {
  const chatId = store().activeChatId
  if (!chatId) {
    usePending.setState({ providerId, model })
    useAgents.setState((s) => ({ next: s.next ? { ...s.next, providerId, model } : s.next }))
    return true
  }
  try {
    adoptChat(await agentsApi.setChatModel(chatId, providerId, model))
    return true
  } catch (err) {
    store().toastError('agents.models.errors.pick', err)
    return false
  }
}

/** Gives the open chat (or the one not created yet) another agent. */
export async function pickAgent(agentId: string): Promise<boolean> {
  const chatId = store().activeChatId
  if (!chatId) {
    const agent = useAgents.getState().agents.find((a) => a.id === agentId)
    // An agent with its own model replaces the model picked before.
    usePending.setState(agent?.providerId ? { agentId, providerId: undefined, model: undefined } : { agentId })
    await loadNext()
    return true
  }
  try {
    adoptChat(await agentsApi.setChatAgent(chatId, agentId))
    useAgents.setState((s) => {
      const tools = { ...s.tools }
      delete tools[chatId]
      return { tools }
    })
    return true
  } catch (err) {
    store().toastError('agents.errors.pick', err)
    return false
  }
}

/** A new version of an answer, written by another model (the chat switches to it). */
export const regenerateWith = (m: Message, providerId: string, model: string) =>
  startAnswer(m.chatId, 'history.errors.regenerate', async () => {
    const msg = await agentsApi.regenerateWith(m.id, providerId, model)
    const chat = store().chats.find((c) => c.id === m.chatId)
    if (chat) adoptChat({ ...chat, providerId, model })
    return [msg]
  })

// ─── the tools a chat offers ───

export const openChatTools = (chatId: string | null) => {
  useAgents.setState({ toolsOpen: chatId })
  if (chatId) void loadChatTools(chatId)
}

/** quiet: a read in the background (the hint in the chat's options) says nothing when it fails. */
export async function loadChatTools(chatId: string, quiet = false): Promise<void> {
  try {
    const t = await agentsApi.chatTools(chatId)
    useAgents.setState((s) => ({ tools: { ...s.tools, [chatId]: t } }))
  } catch (err) {
    if (!quiet) store().toastError('agents.tools.errors.load', err)
  }
}

/** Turns tools of a chat on or off (null = back to what its agent says). */
export async function setChatTools(chatId: string, change: Record<string, boolean | null>): Promise<void> {
  const chat = store().chats.find((c) => c.id === chatId)
  const toggles: Record<string, boolean> = { ...(chat?.toolToggles ?? {}) }
  for (const [name, on] of Object.entries(change)) {
    if (on === null) delete toggles[name]
    else toggles[name] = on
  }
  try {
    const t = await agentsApi.setChatTools(chatId, toggles)
    useAgents.setState((s) => ({ tools: { ...s.tools, [chatId]: t } }))
    if (chat) adoptChat({ ...chat, toolToggles: toggles })
  } catch (err) {
    store().toastError('agents.tools.errors.save', err)
  }
}

// ─── editing agents ───

export async function loadToolList(): Promise<void> {
  try {
    useAgents.setState({ toolList: await agentsApi.agentToolList() })
  } catch (err) {
    store().toastError('agents.errors.load', err)
  }
}

/** Saves an agent; returns the saved one, or an error message for the form. */
/** The saved agent, or why not (its sentence coded for the UI's language). */
export async function saveAgent(a: Agent): Promise<Agent | ApiError> {
  try {
    const saved = await agentsApi.saveAgent(a)
    await loadAgents()
    // Chats that follow the agent's tool mode and call format show the new ones.
    await store().loadChats()
    return saved
  } catch (err) {
    return toApiError(err)
  }
}

export async function deleteAgent(id: string): Promise<boolean> {
  try {
    await agentsApi.deleteAgent(id)
    await loadAgents()
    await store().loadChats()
    return true
  } catch (err) {
    store().toastError('agents.errors.delete', err)
    return false
  }
}

export async function exportAgents(ids: string[]): Promise<string> {
  try {
    return await agentsApi.exportAgents(ids)
  } catch (err) {
    store().toastError('agents.errors.export', err)
    return ''
  }
}

export async function importAgents(): Promise<Agent[]> {
  try {
    const added = await agentsApi.importAgentsFile()
    if (added.length) await loadAgents()
    return added
  } catch (err) {
    store().toastError('agents.errors.import', err)
    return []
  }
}

/** At start (store/boot.ts): reads the agents and what a new chat starts with, and
 * drops what was picked for a chat not created yet whenever a new one is opened. */
export function followAgents(): () => void {
  void loadAgents()
  void loadNext()
  return useStore.subscribe((s, prev) => {
    if (s.activeChatId === null && prev.activeChatId !== null) {
      usePending.setState({ agentId: undefined, providerId: undefined, model: undefined }, true)
      void loadNext()
    }
  })
}
