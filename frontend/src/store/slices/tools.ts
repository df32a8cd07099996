// The tools the model can be offered, and running one by hand (Tool lab).
import { api, toApiError } from '../../api'
import type { Slice } from './util'
import type { ToolsState, ToolsSlice } from '../types'

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
