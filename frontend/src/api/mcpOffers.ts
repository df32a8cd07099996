// What MCP servers offer besides tools (facade/mcp_offers.go): prompts for the
// composer's "/" menu, resources and templates to attach, completions.
import { arr, call, type go } from './core'

export type McpPrompt = go.McpPrompt
export type McpPromptArgument = go.McpPromptArgument
export type McpResource = go.McpResource
export type McpResourceTemplate = go.McpResourceTemplate
export type McpOffers = go.McpOffers
export type McpFile = go.McpFile
/** Text for the message box, files (base64, checked by Go like attached files) to attach. */
export type McpPart = go.McpPart

export function normalizeOffers(o: McpOffers | null | undefined): McpOffers {
  return {
    prompts: arr(o?.prompts).map((p) => ({ ...p, arguments: arr(p.arguments) })),
    resources: arr(o?.resources),
    templates: arr(o?.templates).map((t) => ({ ...t, variables: arr(t.variables) })),
    problems: arr(o?.problems),
  }
}

const part = (p: McpPart | null | undefined): McpPart => ({ text: p?.text ?? '', files: arr(p?.files) })

export const mcpOffersApi = {
  /** The prompts and/or resources of the chat's ready servers ('' chat: of `servers`, null = every server). */
  mcpOffers: async (chatId: string, servers: string[] | null, prompts: boolean, resources: boolean) =>
    normalizeOffers(await call<McpOffers>('MCPOffers', chatId, servers, prompts, resources)),
  /** Code mcp_offer (the server's refusal) or attachment_refused (a file over a cap). */
  getMcpPrompt: async (server: string, name: string, args: Record<string, string>) =>
    part(await call<McpPart>('UseMCPPrompt', server, name, args)),
  readMcpResource: async (server: string, uri: string, name: string) => part(await call<McpPart>('ReadMCPResource', server, uri, name)),
  readMcpTemplate: async (server: string, template: string, values: Record<string, string>) =>
    part(await call<McpPart>('ReadMCPTemplate', server, template, values)),
  /** kind 'prompt' (ref: its name) or 'resource' (ref: the template). */
  completeMcp: async (server: string, kind: 'prompt' | 'resource', ref: string, arg: string, value: string, others: Record<string, string>) =>
    arr(await call<string[] | null>('CompleteMCP', server, kind, ref, arg, value, others)),
}
