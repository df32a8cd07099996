// Running code (run_javascript, run_python): the bounds in Settings, and the
// shapes of a code card's plan (before the run) and report (after it).
import type * as go from './generated'
import { call } from './core'

export type CodeLimits = go.CodeLimits
export type CodeBounds = go.CodeBounds
export type CodePlan = go.CodePlan
export type CodeFileChange = go.CodeFileChange
export type CodeReport = go.CodeReport

/** The tools that run code: their cards show the code, the bounds and the run's report. */
export const CODE_TOOLS = ['run_javascript', 'run_python'] as const

export const isCodeTool = (name: string) => (CODE_TOOLS as readonly string[]).includes(name)

/** The ranges Settings accepts (backend/tools/code Limits.Validate). */
export const CODE_LIMIT_RANGES: Record<keyof CodeLimits, [number, number]> = {
  timeoutSeconds: [1, 60],
  memoryMiB: [32, 256],
  outputKiB: [1, 32],
  maxFiles: [0, 1000],
  maxWriteMiB: [1, 256],
}

export const codeApi = {
  getCodeLimits: () => call<CodeLimits>('GetCodeLimits'),
  saveCodeLimits: (l: CodeLimits) => call<CodeLimits>('SaveCodeLimits', l),
}
