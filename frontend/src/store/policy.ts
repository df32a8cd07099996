// Rules and the audit trail, on top of the main store: the rules that hold
// now (Settings → Permissions, the cards a rule decided), rules made from a
// card, and the Activity view's paged trail.
//
// Kept apart from store/index.ts (like store/undo.ts): it reads the main
// store through its public actions and keeps its own state here.
import { create } from 'zustand'
import {
  ApiError,
  events,
  policyApi,
  policyEvents,
  ruleIdOf,
  toApiError,
  type AuditEntry,
  type AuditFormat,
  type Rule,
  type RuleDraft,
  type RuleTest,
} from '../api'
import { useStore } from './index'
import { revealMessage } from './history'

/** The trail rows asked for at a time (ListAudit caps a page at 500). */
export const AUDIT_PAGE = 50

export type ActivityFilter = {
  /** '' = every chat. */
  chatId: string
  tool: string
  decision: string
}

export type PolicyState = {
  rules: Rule[]
  rulesLoaded: boolean
  rulesError: string
  /** Ids of rules made in this session: a card decided by one that is gone says "revoked". */
  known: Record<number, Rule>
  filter: ActivityFilter
  entries: AuditEntry[]
  /** The `before` of the next page; 0 = no more. */
  next: number
  loading: boolean
  activityError: string
  /** The card the Activity view opened (highlighted once it is on screen). */
  highlight: string | null
}

const initial = (): PolicyState => ({
  rules: [],
  rulesLoaded: false,
  rulesError: '',
  known: {},
  filter: { chatId: '', tool: '', decision: '' },
  entries: [],
  next: 0,
  loading: false,
  activityError: '',
  highlight: null,
})

export const usePolicy = create<PolicyState>()(() => initial())

export const resetPolicy = () => usePolicy.setState(initial(), true)

const remember = (known: Record<number, Rule>, rules: Rule[]) => {
  const out = { ...known }
  for (const r of rules) out[r.id] = r
  return out
}

let rulesFlight: Promise<void> | null = null

/** (Re)reads the rules that hold now, oldest first. */
/** What a card can make a rule of (a one-shot request; the menu keeps it). */
export const ruleOptions = (callId: string) => policyApi.ruleOptions(callId)

export function loadRules(): Promise<void> {
  rulesFlight ??= (async () => {
    try {
      const rules = await policyApi.listRules()
      usePolicy.setState((s) => ({ rules, rulesLoaded: true, rulesError: '', known: remember(s.known, rules) }))
    } catch (err) {
      usePolicy.setState({ rulesLoaded: true, rulesError: toApiError(err).message })
    } finally {
      rulesFlight = null
    }
  })()
  return rulesFlight
}

export async function revokeRule(id: number): Promise<boolean> {
  try {
    await policyApi.deleteRule(id)
    usePolicy.setState((s) => ({ rules: s.rules.filter((r) => r.id !== id) }))
    return true
  } catch (err) {
    useStore.getState().toastError('errors.revokeRule', err)
    return false
  }
}

/**
 * Makes a rule from a card: the card (and its answer's waiting calls the
 * rule covers) are decided at once. Returns the rule, or the error to show
 * beside the form (nothing is lost: the card still waits).
 */
export async function addRuleFromCall(callId: string, draft: RuleDraft): Promise<Rule | ApiError> {
  try {
    const { rule, call } = await policyApi.addRuleFromCall(callId, draft)
    useStore.getState().handleCallUpdated(call)
    usePolicy.setState((s) => ({ known: remember(s.known, [rule]) }))
    void loadRules()
    return rule
  } catch (err) {
    return toApiError(err)
  }
}

export async function testRule(callId: string, draft: RuleDraft): Promise<RuleTest | ApiError> {
  try {
    return await policyApi.testRule(callId, draft)
  } catch (err) {
    return toApiError(err)
  }
}

/** The card's shortcut kept for Always allow → in this chat / everywhere. */
export async function alwaysAllow(callId: string, everywhere: boolean): Promise<Rule | ApiError> {
  return addRuleFromCall(callId, { effect: 'allow', match: 'any', scope: everywhere ? 'always' : 'chat' })
}

// ─── Activity ───

let activitySeq = 0

/** Reads the trail from the newest row, for the filter (merged with the current one). */
export async function loadActivity(change: Partial<ActivityFilter> = {}): Promise<void> {
  const filter = { ...usePolicy.getState().filter, ...change }
  const seq = ++activitySeq
  usePolicy.setState({ filter, loading: true, activityError: '' })
  try {
    const page = await policyApi.listAudit({ ...filter, before: 0, limit: AUDIT_PAGE })
    if (seq !== activitySeq) return
    usePolicy.setState({ entries: page.entries, next: page.next, loading: false })
  } catch (err) {
    if (seq !== activitySeq) return
    usePolicy.setState({ entries: [], next: 0, loading: false, activityError: toApiError(err).message })
  }
}

/** The next (older) page. */
export async function loadMoreActivity(): Promise<void> {
  const { filter, next, loading } = usePolicy.getState()
  if (!next || loading) return
  const seq = ++activitySeq
  usePolicy.setState({ loading: true })
  try {
    const page = await policyApi.listAudit({ ...filter, before: next, limit: AUDIT_PAGE })
    if (seq !== activitySeq) return
    usePolicy.setState((s) => ({ entries: [...s.entries, ...page.entries], next: page.next, loading: false }))
  } catch (err) {
    if (seq !== activitySeq) return
    usePolicy.setState({ loading: false, activityError: toApiError(err).message })
  }
}

/** Shows the Activity view: one chat's trail, or ('') every chat's. */
export function openActivity(chatId: string): void {
  const s = useStore.getState()
  if (s.settingsOpen) s.closeSettings()
  s.setView('activity')
  void loadActivity({ chatId, tool: '', decision: '' })
}

export async function exportActivity(format: AuditFormat): Promise<void> {
  const s = useStore.getState()
  try {
    const path = await policyApi.exportAudit(usePolicy.getState().filter, format)
    if (path) s.toast({ kind: 'success', title: 'policy.activity.exported', message: path })
  } catch (err) {
    s.toastError('policy.activity.exportFailed', err)
  }
}

/** Opens a row's card: its chat, scrolled to the card, highlighted. */
export async function openCard(e: AuditEntry): Promise<void> {
  if (!e.chatId) return
  const s = useStore.getState()
  usePolicy.setState({ highlight: e.callId || null })
  // revealMessage loads older pages or the version the card is on and scrolls
  // the (virtualized) list to it, so the card is mounted before we look for it.
  if (e.messageId) await revealMessage(e.chatId, e.messageId, e.callId || undefined)
  else if (s.activeChatId !== e.chatId) await s.selectChat(e.chatId)
  else s.setView('chat')
  if (e.callId) revealCard(e.callId, 40)
}

/** Scrolls to a card once it is rendered (the chat may still be loading), then focuses it. */
function revealCard(callId: string, tries: number) {
  requestAnimationFrame(() => {
    const el = findCard(callId)
    if (!el) {
      if (tries > 0) window.setTimeout(() => revealCard(callId, tries - 1), 50)
      // Not on screen after 2 s: in an older part of a long chat (paged), or its message is gone.
      else useStore.getState().toast({ kind: 'info', title: 'policy.activity.cardNotShown' })
      return
    }
    el.scrollIntoView?.({ block: 'center' })
    el.focus({ preventScroll: true })
    el.classList.add('is-highlighted')
    holdFocus(callId, 10)
    window.setTimeout(() => {
      findCard(callId)?.classList.remove('is-highlighted')
      if (usePolicy.getState().highlight === callId) usePolicy.setState({ highlight: null })
    }, 2400)
  })
}

function findCard(callId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="tool-card"][data-call-id="${CSS.escape(callId)}"]`)
}

/**
 * Opening a chat focuses its composer a render later, and the virtualized list
 * may mount the card anew while it settles: for a few frames, focus that went
 * to the composer or the page comes back to the card. Focus the person moved
 * anywhere else is left alone.
 */
function holdFocus(callId: string, frames: number) {
  if (frames <= 0) return
  window.setTimeout(() => {
    const el = findCard(callId)
    const active = document.activeElement as HTMLElement | null
    const stolen = !active || active === document.body || active.dataset.testid === 'composer'
    if (el && stolen && active !== el) {
      el.focus({ preventScroll: true })
      el.classList.add('is-highlighted')
    }
    holdFocus(callId, frames - 1)
  }, 50)
}

/** Keeps the rules fresh (rules:changed) and the Activity view live while it shows. */
export function subscribePolicy(): () => void {
  let timer: number | undefined
  const offRules = policyEvents.onRulesChanged(() => {
    if (usePolicy.getState().rulesLoaded) void loadRules()
  })
  const offCalls = events.onCallUpdated((c) => {
    // A rule decided a call: its uses and last use changed.
    if (ruleIdOf(c.decidedBy) && usePolicy.getState().rulesLoaded) void loadRules()
    if (useStore.getState().view !== 'activity') return
    window.clearTimeout(timer)
    timer = window.setTimeout(() => void loadActivity(), 300)
  })
  return () => {
    window.clearTimeout(timer)
    offRules()
    offCalls()
  }
}
