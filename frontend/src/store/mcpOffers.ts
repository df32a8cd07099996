// What the chat's MCP servers offer besides tools, for the composer: prompts
// ("/"), resources and templates (Attach from server…). Read when asked,
// kept until a server says a list changed (mcp:changed), then read again.
import { create } from 'zustand'
import { mcpOffersApi, toApiError, type McpOffers, type McpPart } from '../api'
import { useStore } from './index'

type OffersState = {
  /** Counts mcp:changed: a list read before is stale. */
  gen: number
}

export const useMcpOffers = create<OffersState>()(() => ({ gen: 0 }))

const cache = new Map<string, { gen: number; p: Promise<McpOffers> }>()

/** mcp:changed (store/mcp.ts): lists read so far are read again when next needed. */
export function offersChanged() {
  cache.clear()
  useMcpOffers.setState((s) => ({ gen: s.gen + 1 }))
}

const empty = (problem: string): McpOffers => ({ prompts: [], resources: [], templates: [], problems: problem ? [problem] : [] })

/** The prompts or the resources of the chat's servers (cached until a list changes); no chat yet: the new chat's choice. */
export function loadOffers(chatId: string | null, kind: 'prompts' | 'resources'): Promise<McpOffers> {
  const servers = chatId ? null : useStore.getState().newChatServers
  const key = `${chatId ?? `new:${servers?.join('\u0000') ?? '*'}`}|${kind}`
  const gen = useMcpOffers.getState().gen
  const hit = cache.get(key)
  if (hit && hit.gen === gen) return hit.p
  const p = mcpOffersApi.mcpOffers(chatId ?? '', servers, kind === 'prompts', kind === 'resources').catch((err) => {
    cache.delete(key)
    return empty(toApiError(err).message)
  })
  cache.set(key, { gen, p })
  return p
}

/** A part, or the sentence that says why not. */
export type PartResult = { part: McpPart } | { error: string }

const wrap = async (fn: () => Promise<McpPart>): Promise<PartResult> => {
  try {
    return { part: await fn() }
  } catch (err) {
    return { error: toApiError(err).message }
  }
}

export const fillPrompt = (server: string, name: string, args: Record<string, string>) => wrap(() => mcpOffersApi.getMcpPrompt(server, name, args))
export const readResource = (server: string, uri: string, name: string) => wrap(() => mcpOffersApi.readMcpResource(server, uri, name))
export const readTemplate = (server: string, template: string, values: Record<string, string>) =>
  wrap(() => mcpOffersApi.readMcpTemplate(server, template, values))

/** Values a server suggests for an argument ([] when it has none or cannot say); others: the arguments filled so far. */
export const complete = (server: string, kind: 'prompt' | 'resource', ref: string, arg: string, value: string, others: Record<string, string>) =>
  mcpOffersApi
    .completeMcp(server, kind, ref, arg, value, Object.fromEntries(Object.entries(others).filter(([k, v]) => k !== arg && v !== '')))
    .catch(() => [] as string[])

/** Test helper. */
export function resetMcpOffers() {
  cache.clear()
  useMcpOffers.setState({ gen: 0 })
}
