// MCP servers while their tools run: the questions they ask (elicitation) and
// the progress they report (facade/questions.go).
import { arr, call, onEvent, type go } from './core'

/** A server's question; mode 'form' carries a schema, mode 'url' a link (domain shown before it opens). */
export type McpQuestion = go.McpQuestion & { mode: 'form' | 'url' }
export type McpProgress = go.McpProgress
export type McpAnswerAction = 'accept' | 'decline' | 'cancel'

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

export function normalizeMcpQuestion(q: Partial<go.McpQuestion> | null | undefined): McpQuestion {
  return {
    id: str(q?.id),
    chatId: str(q?.chatId),
    callId: str(q?.callId),
    server: str(q?.server),
    tool: str(q?.tool),
    mode: q?.mode === 'url' ? 'url' : 'form',
    message: str(q?.message),
    schema: q?.schema ?? null,
    url: str(q?.url),
    domain: str(q?.domain),
  }
}

export const mcpLiveApi = {
  /** Questions still waiting (after a reload). */
  pendingMcpQuestions: async () => arr(await call<go.McpQuestion[]>('PendingMCPQuestions')).map(normalizeMcpQuestion),
  /** accept (content: the form's values; a URL question's link opens now), decline or cancel. Code question_gone when it ended. */
  answerMcpQuestion: (id: string, action: McpAnswerAction, content: Record<string, unknown> | null) =>
    call<void>('AnswerMCPQuestion', id, action, content),
}

export const mcpLiveEvents = {
  onMcpQuestion: (cb: (q: McpQuestion) => void) => onEvent<go.McpQuestion>('mcp:question', (q) => cb(normalizeMcpQuestion(q))),
  onMcpQuestionEnded: (cb: (e: { id: string; action: string }) => void) => onEvent<{ id: string; action: string }>('mcp:question-ended', cb),
  onMcpProgress: (cb: (p: McpProgress) => void) => onEvent<McpProgress>('mcp:progress', cb),
}
