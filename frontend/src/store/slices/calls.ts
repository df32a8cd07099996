// Tool calls and chat notices in the main store: loading a chat's calls,
// call:updated / chat:notice events, and the actions on a card.
import { api, toApiError, type ApiError, type Call, type Message } from '../../api'
import { needsDecision, upsertCall, upsertCalls, type CallsByMessage } from '../calls'
import type { Store } from '../types'
import { isPlainObject, omit, type ActionOpts, type Slice } from './util'
import type { CallsState, CallsSlice } from '../types'

export const callsInitial = (): CallsState => ({ callsByMessage: {}, notices: {} })

/** Finds a call we know by id. */
export function findCall(map: CallsByMessage, id: string): Call | undefined {
  for (const list of Object.values(map)) {
    const c = list.find((x) => x.id === id)
    if (c) return c
  }
  return undefined
}

export const createCallsSlice: Slice<CallsSlice> = (set, get) => {
  /** Runs a call action: the returned call (if any) is upserted; errors are toasted unless quiet. */
  const callAction = async (
    title: string,
    fn: () => Promise<Call | void>,
    opts: ActionOpts = {},
  ): Promise<ApiError | null> => {
    try {
      const c = await fn()
      if (c && c.id) set((s) => ({ callsByMessage: upsertCall(s.callsByMessage, c) }))
      return null
    } catch (err) {
      const e = toApiError(err)
      if (!opts.quiet) get().toastError(title, e)
      return e
    }
  }

  return {
    ...callsInitial(),

    loadCalls: async (chatId) => {
      try {
        const calls = await api.listCalls(chatId)
        // Merge: call:updated events may have raced ahead of this reply.
        set((s) => ({ callsByMessage: upsertCalls(s.callsByMessage, calls) }))
      } catch (err) {
        get().toastError('errors.loadCalls', err)
      }
    },

    handleCallUpdated: (c) => {
      if (!c || !c.id || !c.messageId) return
      set((s) => {
        const callsByMessage = upsertCall(s.callsByMessage, c)
        return callsByMessage === s.callsByMessage ? {} : { callsByMessage }
      })
    },

    handleNotice: (n) => {
      if (!n || !n.chatId) return
      set((s) => ({ notices: { ...s.notices, [n.chatId]: n } }))
      const learned = n.code === 'tool_mode_learned' // Auto now calls tools another way with this model
      const provider = n.code === 'provider_notice' // the provider is overloaded (asked again), the answer was cut off…
      get().toast({
        kind: n.code === 'turn_cap' || learned || provider ? 'info' : 'error',
        title: n.code === 'turn_cap' ? 'notices.turnCapTitle' : learned ? 'notices.toolModeTitle' : provider ? 'notices.providerTitle' : 'notices.title',
        message: n.message,
      })
    },

    dismissNotice: (chatId) => set((s) => ({ notices: omit(s.notices, chatId) })),

    approveCall: (callId, edited, opts) =>
      callAction(
        'errors.approveCall',
        () => {
          // The backend reads a JSON null as an (invalid) edit: without an edit, send the
          // proposed arguments, which it recognises as unchanged.
          const proposed = findCall(get().callsByMessage, callId)?.arguments
          const args = edited ?? (isPlainObject(proposed) ? proposed : null)
          return api.approveCall(callId, args)
        },
        opts,
      ),
    denyCall: (callId, reason, opts) => callAction('errors.denyCall', () => api.denyCall(callId, reason.trim()), opts),
    alwaysAllowCall: (callId, everywhere, opts) =>
      callAction(
        'errors.alwaysAllow',
        () => api.alwaysAllowCall(callId, everywhere), // the rules reload on rules:changed (store/policy)
        opts,
      ),
    tellModel: (callId, opts) => callAction('errors.tellModel', () => api.tellModel(callId), opts),
    fixAndRun: (callId, name, args, opts) =>
      callAction('errors.fixAndRun', () => api.fixAndRun(callId, name.trim(), args), opts),
    cancelCall: async (callId) => {
      await callAction('errors.cancelCall', () => api.cancelCall(callId))
    },
    runAll: async (messageId) => {
      await callAction('errors.runAll', () => api.runAll(messageId))
    },
    denyAll: async (messageId, reason) => {
      await callAction('errors.denyAll', () => api.denyAll(messageId, reason.trim()))
    },
  }
}

/** The calls an assistant message proposed, ordered (stable empty array otherwise). */
const NO_CALLS: Call[] = []
export const selectMessageCalls = (s: Store, messageId: string) => s.callsByMessage[messageId] ?? NO_CALLS

/** How many calls in the active chat wait for a decision or a fix. */
const NO_MESSAGES: Message[] = []
export const selectWaitingCount = (s: Store) => {
  if (!s.activeChatId) return 0
  let n = 0
  for (const m of s.messages[s.activeChatId] ?? NO_MESSAGES) for (const c of s.callsByMessage[m.id] ?? NO_CALLS) if (needsDecision(c)) n++
  return n
}
