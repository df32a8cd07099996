// Agents, per-chat models and tool toggles in the fake backend (mirrors
// app_agents.go and backend/store/agents.go, in memory).
import type { Agent, Chat, ChatTools, Provider, ProviderModels, ToolOffer, ToolSpec } from '../src/api'
import { blankAgent } from '../src/api/agents'

const apiErr = (code: string, message: string) => JSON.stringify({ code, message })
const clone = <T,>(v: T): T => JSON.parse(JSON.stringify(v))

/** What each fake server lists. */
const SERVER_MODELS: Record<string, string[]> = {
  demo: ['airlock-demo', 'airlock-demo-ignores-tools', 'airlock-demo-text-only'],
  'p-openai': ['gpt-4o', 'gpt-4o-mini', 'gpt-5', 'o3-mini'],
}

export function createFakeAgents(o: {
  chats: Chat[]
  providers: Provider[]
  tools: () => ToolSpec[]
  createChat: () => Chat
  /** The tool mode of new chats with the default agent (Settings → General edits the default agent). */
  defaultToolMode: () => Agent['toolMode']
  regenerate: (messageId: string) => Promise<unknown>
  messageChat: (messageId: string) => string
  /** The active provider (Settings → Providers): as in the backend, choosing one makes new chats start there. */
  activeProviderId?: () => string
}) {
  const now = Date.now()
  const agents: Agent[] = [
    { ...blankAgent(), id: 'default', name: 'Default', description: 'Every tool, the model you pick.', builtIn: true, createdAt: now },
    {
      ...blankAgent(),
      id: 'reviewer',
      name: 'File reviewer (read-only)',
      description: 'Reads and searches the workspace; no tool that writes is offered.',
      systemPrompt: 'You review the files in the workspace.',
      tools: { default: true, toggles: {}, readOnly: true },
      sequential: true,
      builtIn: true,
      createdAt: now,
    },
    {
      ...blankAgent(),
      id: 'plain',
      name: 'Plain chat (no tools)',
      description: 'No tools and no tool instructions: the shortest prompt, for small models.',
      toolMode: 'text',
      tools: { default: false, toggles: {}, readOnly: false },
      builtIn: true,
      createdAt: now,
    },
  ]
  let lastAgent = 'default'
  let last: { providerId: string; model: string } = { providerId: 'demo', model: 'airlock-demo' }
  const agentOf = (id?: string) => agents.find((a) => a.id === id) ?? agents[0]
  const chatOf = (id: string) => {
    const c = o.chats.find((x) => x.id === id)
    if (!c) throw apiErr('not_found', 'Chat not found.')
    return c
  }
  const safe = (t: ToolSpec) => t.kind !== 'mcp' && !t.changes
  const offers = (a: Agent, t: ToolSpec, toggles: Record<string, boolean> | null | undefined) => {
    if (a.tools.readOnly && !safe(t)) return false
    if (toggles && t.name in toggles) return toggles[t.name]
    if (t.name in (a.tools.toggles ?? {})) return a.tools.toggles[t.name]
    return a.tools.default
  }
  const tokens = (t: ToolSpec) => Math.ceil((t.name.length + t.description.length + JSON.stringify(t.parameters ?? {}).length) / 4)
  const checklist = (c: Chat): ChatTools => {
    const a = agentOf(c.agentId)
    const list: ToolOffer[] = o.tools().map((t) => ({
      ...t,
      on: offers(a, t, c.toolToggles),
      agentOn: offers(a, t, null),
      toggled: !!c.toolToggles && t.name in c.toolToggles,
      readOnly: a.tools.readOnly && !safe(t),
      tokens: tokens(t),
      available: true,
    }))
    const on = list.filter((t) => t.on)
    return { tools: list, offered: on.length, tokens: on.length ? 180 + on.reduce((n, t) => n + t.tokens, 0) : 0, agent: a.name }
  }
  const setup = (c: Chat, agentId: string) => {
    const a = agentOf(agentId)
    c.agentId = a.id
    c.toolMode = a.id === 'default' ? o.defaultToolMode() : a.toolMode
    c.paradigm = a.paradigm
    c.toolToggles = null
    if (a.providerId) Object.assign(c, { providerId: a.providerId, model: a.model })
    lastAgent = a.id
  }
  let activeSeen = o.activeProviderId?.()
  const next = (agentId: string) => {
    const active = o.activeProviderId?.()
    if (active !== activeSeen) {
      activeSeen = active
      const p = o.providers.find((x) => x.id === active)
      if (p) last = { providerId: p.id, model: p.model }
    }
    const a = agentOf(agentId || lastAgent)
    return a.providerId ? { agentId: a.id, providerId: a.providerId, model: a.model, toolToggles: null } : { agentId: a.id, ...last, toolToggles: null }
  }

  for (const c of o.chats) Object.assign(c, { agentId: 'default', ...last })

  const bindings = {
    ListAgents: async () => clone(agents),
    SaveAgent: async (a: Agent) => {
      if (!a.name.trim()) throw apiErr('invalid', 'an agent needs a name of 1 to 80 characters')
      if (!a.id) {
        const added = { ...a, id: `agent-${agents.length + 1}`, builtIn: false, createdAt: Date.now() }
        agents.push(added)
        return clone(added)
      }
      const i = agents.findIndex((x) => x.id === a.id)
      if (i < 0) throw apiErr('not_found', 'agent not found')
      agents[i] = { ...a, builtIn: agents[i].builtIn, updatedAt: Date.now() }
      return clone(agents[i])
    },
    DeleteAgent: async (id: string) => {
      const i = agents.findIndex((x) => x.id === id)
      if (i < 0) throw apiErr('not_found', 'agent not found')
      if (agents[i].builtIn) throw apiErr('invalid', `${agents[i].name} comes with Airlock and cannot be deleted (change it instead)`)
      agents.splice(i, 1)
      for (const c of o.chats) if (c.agentId === id) c.agentId = 'default'
    },
    ExportAgents: async () => '/home/me/airlock-agents.json',
    ImportAgentsFile: async () => [],
    CreateChatWith: async (agentId: string) => {
      const c = o.createChat()
      const n = next(agentId)
      setup(c, n.agentId)
      Object.assign(c, { providerId: n.providerId, model: n.model })
      return clone(c)
    },
    NextChat: async (agentId: string) => next(agentId),
    SetChatAgent: async (chatId: string, agentId: string) => {
      const c = chatOf(chatId)
      if (!agents.some((a) => a.id === agentId)) throw apiErr('not_found', 'agent not found')
      setup(c, agentId)
      return clone(c)
    },
    SetChatModel: async (chatId: string, providerId: string, model: string) => {
      const c = chatOf(chatId)
      Object.assign(c, { providerId, model })
      last = { providerId, model }
      return clone(c)
    },
    RegenerateWith: async (messageId: string, providerId: string, model: string) => {
      const c = chatOf(o.messageChat(messageId))
      Object.assign(c, { providerId, model })
      return o.regenerate(messageId)
    },
    ListChatModels: async (): Promise<ProviderModels[]> =>
      o.providers.map((p) => ({
        id: p.id,
        name: p.name,
        demo: !!p.demo,
        model: p.model,
        models: SERVER_MODELS[p.id] ?? [p.model],
        ...(SERVER_MODELS[p.id] ? {} : { error: 'Could not connect to http://localhost:11434/v1 — is Ollama running?' }),
      })),
    ChatTools: async (chatId: string) => checklist(chatOf(chatId)),
    SetChatTools: async (chatId: string, toggles: Record<string, boolean>) => {
      const c = chatOf(chatId)
      c.toolToggles = Object.keys(toggles).length ? { ...toggles } : null
      return checklist(c)
    },
    AgentToolList: async (): Promise<ToolOffer[]> =>
      o.tools().map((t) => ({ ...t, on: true, agentOn: true, toggled: false, readOnly: !safe(t), tokens: tokens(t), available: true })),
  }
  return { bindings, agents }
}
