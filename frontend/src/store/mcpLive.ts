// MCP servers while their tools run: open questions (shown on the card of the
// call that asked) and the latest progress of each running call.
import { create } from 'zustand'
import { mcpLiveApi, mcpLiveEvents, toApiError, type McpAnswerAction, type McpProgress, type McpQuestion } from '../api'

export type McpLiveState = {
  questions: McpQuestion[]
  /** The latest progress by call id. */
  progress: Record<string, McpProgress>
  /** Answers in flight, and why the last one failed, by question id. */
  busy: Record<string, boolean>
  errors: Record<string, string>
}

const initial = (): McpLiveState => ({ questions: [], progress: {}, busy: {}, errors: {} })

export const useMcpLive = create<McpLiveState>()(() => initial())

const drop = (id: string) =>
  useMcpLive.setState((s) => {
    const busy = { ...s.busy }
    const errors = { ...s.errors }
    delete busy[id]
    delete errors[id]
    return { questions: s.questions.filter((q) => q.id !== id), busy, errors }
  })

/** Answers a question; on success it leaves the card (the mcp:question-ended event confirms it). */
export async function answerQuestion(id: string, action: McpAnswerAction, content: Record<string, unknown> | null): Promise<void> {
  useMcpLive.setState((s) => ({ busy: { ...s.busy, [id]: true }, errors: { ...s.errors, [id]: '' } }))
  try {
    await mcpLiveApi.answerMcpQuestion(id, action, content)
    drop(id)
  } catch (err) {
    const e = toApiError(err)
    if (e.code === 'question_gone') return drop(id)
    useMcpLive.setState((s) => ({ busy: { ...s.busy, [id]: false }, errors: { ...s.errors, [id]: e.message } }))
  }
}

export const selectQuestions = (callId: string) => (s: McpLiveState) => s.questions.filter((q) => q.callId === callId)
export const selectProgress = (callId: string) => (s: McpLiveState) => s.progress[callId]

/** Questions and progress events; the questions already open are read once. */
export function subscribeMcpLive(): () => void {
  const offs = [
    mcpLiveEvents.onMcpQuestion((q) =>
      useMcpLive.setState((s) => (s.questions.some((x) => x.id === q.id) ? s : { questions: [...s.questions, q] })),
    ),
    mcpLiveEvents.onMcpQuestionEnded(({ id }) => drop(id)),
    mcpLiveEvents.onMcpProgress((p) => useMcpLive.setState((s) => ({ progress: { ...s.progress, [p.callId]: p } }))),
  ]
  void mcpLiveApi
    .pendingMcpQuestions()
    .then((qs) => useMcpLive.setState((s) => ({ questions: [...s.questions, ...qs.filter((q) => !s.questions.some((x) => x.id === q.id))] })))
    .catch(() => {})
  return () => offs.forEach((off) => off())
}

/** Test helper. */
export function resetMcpLive() {
  useMcpLive.setState(initial())
}
