// Permissions: rules, testing a rule, the audit trail.
import { arr, call, onEvent, type go, type Narrow } from './core'
import { normalizeCall, type Call, type CallState } from './calls'

/** A rule: a tool (or a glob of names) allowed, or never allowed, for any arguments, paths under a folder, one argument's exact value, or (readonly) the tools of one MCP server that say they are read-only. */
export type Rule = Narrow<
  go.Rule,
  {
    effect: 'allow' | 'deny'
    match: Narrow<go.RuleMatch, { kind: 'any' | 'path' | 'exact' | 'readonly' }>
    scope: 'call' | 'chat' | 'hour' | 'session' | 'always'
  }
>

// Rules made from a card (allow for any arguments, paths under a folder, or an
// exact value; never allow with a message), tested before they are saved; the
// trail of every decision, paged, exported through the save dialog.
export type RuleEffect = Rule['effect']
export type RuleScope = Rule['scope']
export type MatchKind = Rule['match']['kind']
export const RULE_SCOPES: RuleScope[] = ['call', 'chat', 'hour', 'session', 'always']
/** A rule as a person asks for it (approval.Draft): '' / omitted fields take the card's. */
export type RuleDraft = {
  effect: RuleEffect
  tool?: string
  match: MatchKind
  /** match 'path': the folder ('' = the folder of the card's path). */
  path?: string
  /** match 'exact': the argument; value omitted = the card's value of it. */
  arg?: string
  value?: unknown
  scope: RuleScope
  chatId?: string
  /** never rules: what the model is told each time. */
  message?: string
}
export type ArgOption = go.ArgOption
/** What a card can make a rule of (RuleOptions). */
export type RuleOptions = Narrow<go.RuleOptions, { scopes: RuleScope[]; covering: Rule[] }>
export type TestedCall = Narrow<go.TestedCall, { state: CallState }>
export type RuleTest = Narrow<go.RuleTest, { rule: Rule; matched: TestedCall[] }>
export type RuleAdded = Narrow<go.RuleAdded, { rule: Rule; call: Call }>

export type AuditDecision =
  | 'approved' | 'edited' | 'fixed' | 'denied' | 'held' | 'superseded' | 'told_model' | 'ran' | 'cancelled' | 'timed_out' | 'interrupted' | 'answered'
export const AUDIT_DECISIONS: AuditDecision[] = [
  'approved', 'edited', 'fixed', 'denied', 'held', 'superseded', 'told_model', 'ran', 'cancelled', 'timed_out', 'interrupted', 'answered',
]
export type AuditEntry = Narrow<go.AuditEntry, { decision: AuditDecision; resultStatus: '' | 'success' | 'error' | 'denied' }>
export type AuditQuery = { chatId: string; tool: string; decision: string; before: number; limit: number; callId?: string }
/** Newest first; next = the `before` of the page after (0: no more). */
export type AuditPage = Narrow<go.AuditPage, { entries: AuditEntry[] }>
export type AuditFormat = 'jsonl' | 'csv'

export function normalizeRule(r: Rule): Rule {
  return { ...r, chatId: r.chatId ?? '', uses: r.uses ?? 0, match: { ...r.match, kind: r.match?.kind || 'any' } }
}

/** The rule id in a decidedBy value ("rule:12" → 12); 0 for anything else. */
export function ruleIdOf(by: string | undefined): number {
  const m = /^rule:(\d+)$/.exec(by ?? '')
  return m ? Number(m[1]) : 0
}

export const policyApi = {
  listRules: async () => arr(await call<Rule[] | null>('ListRules')).map(normalizeRule),
  deleteRule: (id: number) => call<void>('DeleteRule', id),
  ruleOptions: async (callId: string): Promise<RuleOptions> => {
    const o = await call<RuleOptions>('RuleOptions', callId)
    return {
      tool: o?.tool ?? '',
      folder: o?.folder ?? '',
      pathArgs: arr(o?.pathArgs),
      args: arr(o?.args),
      scopes: arr(o?.scopes).length ? arr(o?.scopes) : RULE_SCOPES,
      covering: arr(o?.covering).map(normalizeRule),
    }
  },
  /** Makes the rule and applies it at once to the card and its answer's waiting calls. */
  addRuleFromCall: async (callId: string, d: RuleDraft): Promise<RuleAdded> => {
    const r = await call<RuleAdded>('AddRuleFromCall', callId, d)
    return { rule: normalizeRule(r.rule), call: normalizeCall(r.call) }
  },
  addRule: async (d: RuleDraft) => normalizeRule(await call<Rule>('AddRule', d)),
  /** Which past calls of the chat ('' = the card's) the draft would have covered. */
  testRule: async (callId: string, d: RuleDraft, chatId = ''): Promise<RuleTest> => {
    const t = await call<RuleTest>('TestRule', callId, d, chatId)
    return { rule: normalizeRule(t.rule), summary: t?.summary ?? '', matched: arr(t?.matched), total: t?.total ?? 0 }
  },
  listAudit: async (q: AuditQuery): Promise<AuditPage> => {
    const p = await call<AuditPage>('ListAudit', q)
    return { entries: arr(p?.entries).map((e) => ({ ...e, resultStatus: e.resultStatus ?? '', durationMs: e.durationMs ?? 0 })), next: p?.next ?? 0 }
  },
  /** The save dialog; the path written, '' when cancelled. What the Activity view shows: chatId '' = every chat, tool and decision '' = all. */
  exportAudit: async (f: { chatId: string; tool: string; decision: string }, format: AuditFormat) =>
    (await call<string | null>('ExportAudit', { chatId: f.chatId, tool: f.tool, decision: f.decision }, format)) ?? '',
}

export const policyEvents = {
  onRulesChanged: (cb: () => void) => onEvent('rules:changed', () => cb()),
}
