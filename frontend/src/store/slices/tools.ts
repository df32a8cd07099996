// The tools the model can be offered, and running one by hand (Tool lab).
import { api, toApiError, type ApiError, type RunOutput, type ToolSpec } from '../../api'
import type { Slice } from './util'

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

export const toolsInitial = (): ToolsState => ({ tools: [] })

export const createToolsSlice: Slice<ToolsSlice> = (set) => ({
  ...toolsInitial(),

  loadTools: async () => {
    try {
      set({ tools: await api.tools() })
    } catch {
      // Cards fall back to the mcp__<server>__ name prefix; the Tool lab shows its own error.
    }
  },

  runTool: async (chatId, name, args) => {
    try {
      const output = await api.runTool(chatId, name, args)
      return { output }
    } catch (err) {
      return { error: toApiError(err) }
    }
  },
})
