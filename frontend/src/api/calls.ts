// Tool calls: their states, the calls a streaming answer is writing, tools and the scanner.
import { arr, call, type go, type Narrow } from './core'
import type { Paradigm } from './chats'

export type CallState = 'pending' | 'approved' | 'running' | 'done' | 'error' | 'denied' | 'interrupted' | 'problem'
export type DecidedBy = 'user' | 'rule:chat' | 'rule:global' | `rule:${number}` | 'system' | 'new_message' | 'loop_guard' | 'turn_cap' | 'repaired' | 'recheck' | 'timeout' | `agent:${string}`
/** A tool call the model proposed, as the approval flow tracks it. */
export type Call = Narrow<go.Call, { state: CallState; decidedBy?: DecidedBy; resultStatus?: 'success' | 'error' | 'denied' }>
/** A picture a tool returned: `data` is base64. */
export type ToolImage = go.ToolImage
/** What running a tool by hand produced (Tool lab). */
export type RunOutput = Narrow<go.RunOutput, { images: ToolImage[]; isError: boolean }>
/** Where a tool acts: it computes (builtin), it works on the chat's workspace (files), it runs code on it (code), or an MCP server acts for it (mcp). */
export type ToolKind = 'builtin' | 'files' | 'code' | 'mcp'
export type ToolSpec = Narrow<go.ToolSpec, { kind?: ToolKind }>
export type ParadigmInfo = go.ParadigmInfo
export type FormatInfo = { id: string; name: string; models: string; markers?: string[]; source?: string; example: string }
export type ToolLab = { tools: ToolSpec[]; paradigms: ParadigmInfo[]; formats: FormatInfo[] }
export type ScanParadigm = Paradigm | 'auto'
export type ScannedCall = { id: string; name: string; arguments: unknown; raw?: string; format?: string; start: number; end: number }
export type ScanProblem = { message: string; raw: string; name?: string; id?: string; format?: string; start: number; end: number }
export type ScanIgnored = { start: number; end: number; reason: string }
export type ScanResult = { calls: ScannedCall[]; problems: ScanProblem[]; ignored: ScanIgnored[] }

/** One call the model is writing, while its answer streams (display only). */
export type FormingCall = go.FormingCall
/** The whole list of calls being written in a streaming answer (each event replaces the last). */
export type CallsForming = go.CallsForming

export function normalizeForming(f: CallsForming): CallsForming {
  return {
    chatId: f?.chatId ?? '',
    messageId: f?.messageId ?? '',
    calls: arr(f?.calls).map((c) => ({
      name: c?.name ?? '',
      arguments: c?.arguments ?? '',
      format: c?.format ?? '',
      complete: !!c?.complete,
    })),
  }
}

const images = (v: unknown): ToolImage[] =>
  arr(v as ToolImage[] | null).filter((i) => i && typeof i.mime === 'string' && typeof i.data === 'string')

export function normalizeCall(c: Call): Call {
  const out: Call = { ...c, index: c.index ?? 0, raw: c.raw ?? '', format: c.format ?? '', arguments: c.arguments ?? null }
  if (c.images != null) out.images = images(c.images)
  else delete out.images
  return out
}

/** RunTool's reply (an older backend answered with the text alone). */
export function normalizeRunOutput(r: unknown): RunOutput {
  if (r == null || typeof r === 'string') return { text: r ?? '', images: [], isError: false }
  const o = r as Partial<RunOutput>
  const out: RunOutput = { text: typeof o.text === 'string' ? o.text : '', images: images(o.images), isError: !!o.isError }
  if (o.structured !== undefined && o.structured !== null) out.structured = o.structured
  return out
}

export const callsApi = {
  // Tool calls: every action returns the call as stored after the change.
  listCalls: async (chatId: string) => arr(await call<Call[] | null>('ListCalls', chatId)).map(normalizeCall),
  /** Run; with `edited` arguments: edit, then run (validated by the backend: code invalid_arguments). */
  approveCall: async (callId: string, edited: object | null) =>
    normalizeCall(await call<Call>('ApproveCall', callId, edited)),
  /** What a waiting call would change with edited arguments (the card's diff while editing); nothing is stored. */
  previewCall: (callId: string, args: object) => call<unknown>('PreviewCall', callId, args),
  denyCall: async (callId: string, reason: string) => normalizeCall(await call<Call>('DenyCall', callId, reason)),
  alwaysAllowCall: async (callId: string, everywhere: boolean) =>
    normalizeCall(await call<Call>('AlwaysAllowCall', callId, everywhere)),
  tellModel: async (callId: string) => normalizeCall(await call<Call>('TellModel', callId)),
  fixAndRun: async (callId: string, name: string, args: object) =>
    normalizeCall(await call<Call>('FixAndRun', callId, name, args)),
  cancelCall: (callId: string) => call<void>('CancelCall', callId),
  runAll: (messageId: string) => call<void>('RunAll', messageId),
  denyAll: (messageId: string, reason: string) => call<void>('DenyAll', messageId, reason),
  tools: async (): Promise<ToolSpec[]> => arr(await call<ToolSpec[]>('Tools')),
  toolLab: async (): Promise<ToolLab> => {
    const lab = await call<ToolLab>('ToolLab')
    return { tools: arr(lab?.tools), paradigms: arr(lab?.paradigms), formats: arr(lab?.formats) }
  },
  scanText: async (text: string, paradigm: ScanParadigm, recognizeOthers: boolean): Promise<ScanResult> => {
    const r = await call<ScanResult>('ScanText', text, paradigm, recognizeOthers)
    return { calls: arr(r?.calls), problems: arr(r?.problems), ignored: arr(r?.ignored) }
  },
}
