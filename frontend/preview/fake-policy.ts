// The fake backend's rules and audit trail (preview/tests only): a small
// copy of backend/approval's matching (any, paths under a folder, an exact
// value; never beats allow; narrowest scope first), the trail of every
// decision, and the bindings the policy UI calls.
import type { AuditEntry, AuditFormat, AuditQuery, Call, Rule, RuleDraft, RuleScope } from '../src/api'
import { apiErr, clone, wait } from './fake-common'


/** Arguments that are workspace paths, per tool (as the real tools declare them). */
const PATH_ARGS: Record<string, string[]> = {
  read_file: ['path'],
  write_file: ['path'],
  edit_file: ['path'],
  list_directory: ['path'],
  find_files: ['path'],
  make_directory: ['path'],
  delete_path: ['path'],
  move_path: ['source', 'destination'],
}
const FOLDER_TOOLS = new Set(['list_directory', 'find_files', 'make_directory'])
const SCOPES: RuleScope[] = ['call', 'chat', 'hour', 'session', 'always']
const HOUR = 3600_000

const clean = (p: string) => {
  const out: string[] = []
  for (const part of p.replace(/\\/g, '/').split('/')) {
    if (!part || part === '.') continue
    if (part === '..') out.pop()
    else out.push(part)
  }
  return out.join('/') || '.'
}
const parent = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.')
const argsOf = (c: Call) => (c.arguments && typeof c.arguments === 'object' ? (c.arguments as Record<string, unknown>) : {})

export function createFakePolicy() {
  const rules: Rule[] = []
  const audit: AuditEntry[] = []
  let ruleSeq = 0
  let auditSeq = 0

  const suggestFolder = (c: Call) => {
    for (const name of PATH_ARGS[c.name] ?? []) {
      const v = argsOf(c)[name]
      if (typeof v !== 'string') continue
      const p = clean(v)
      return FOLDER_TOOLS.has(c.name) ? p : parent(p)
    }
    return '.'
  }

  const matches = (r: Rule, c: Call) => {
    if (r.tool !== c.name) return false
    if (r.match.kind === 'path') {
      const names = PATH_ARGS[c.name] ?? []
      const paths = names.map((n) => argsOf(c)[n]).filter((v): v is string => typeof v === 'string')
      const f = r.match.path ?? '.'
      return paths.length > 0 && paths.every((p) => f === '.' || clean(p) === f || clean(p).startsWith(`${f}/`))
    }
    if (r.match.kind === 'exact') return JSON.stringify(argsOf(c)[r.match.arg ?? '']) === JSON.stringify(r.match.value)
    return true
  }
  const active = (r: Rule, c: Call, now = Date.now()) =>
    (!r.expiresAt || now < r.expiresAt) && (!r.chatId || r.chatId === c.chatId) && (r.scope !== 'call' || r.messageId === c.messageId)

  /** The rule that decides a pending call: a never rule first, then the narrowest allow rule. */
  const decide = (c: Call): Rule | undefined => {
    const hit = rules.filter((r) => active(r, c) && matches(r, c))
    const order = (a: Rule, b: Rule) => SCOPES.indexOf(a.scope) - SCOPES.indexOf(b.scope) || a.id - b.id
    return hit.filter((r) => r.effect === 'deny').sort(order)[0] ?? hit.filter((r) => r.effect === 'allow').sort(order)[0]
  }

  const newRule = (d: RuleDraft, from: Call | null): Rule => {
    const tool = (d.tool ?? '').trim() || from?.name || ''
    if (!tool) throw apiErr('invalid_rule', 'say which tool the rule is for')
    const kind = d.match || 'any'
    const r: Rule = { id: 0, effect: d.effect || 'allow', tool, match: { kind }, scope: d.scope, chatId: d.chatId ?? '', createdAt: Date.now(), uses: 0 }
    if (kind === 'path') {
      if (!PATH_ARGS[tool]) throw apiErr('invalid_rule', `${tool} takes no paths in the workspace; allow it for any arguments or for an exact value`)
      const f = (d.path ?? '').trim() || (from ? suggestFolder(from) : '')
      if (!f) throw apiErr('invalid_rule', 'say which folder (relative to the workspace root; "." for all of it)')
      if (f.startsWith('/') || clean(f).startsWith('..')) throw apiErr('invalid_rule', `${f} is outside the workspace`)
      r.match.path = clean(f)
    } else if (kind === 'exact') {
      if (!d.arg) throw apiErr('invalid_rule', 'say which argument must have the exact value')
      r.match.arg = d.arg
      r.match.value = d.value !== undefined && d.value !== null ? d.value : from ? argsOf(from)[d.arg] : undefined
      if (r.match.value === undefined) throw apiErr('invalid_rule', `this call has no argument "${d.arg}"`)
    }
    if (!SCOPES.includes(d.scope)) throw apiErr('invalid_rule', `a rule holds for this call, this chat, an hour, until Airlock quits, or always; not "${d.scope}"`)
    if (d.scope === 'call') {
      if (!from) throw apiErr('invalid_rule', 'a rule for this call is made from its card')
      r.chatId = from.chatId
      r.messageId = from.messageId
    } else if (d.scope === 'chat') {
      r.chatId = d.chatId || from?.chatId || ''
      if (!r.chatId) throw apiErr('invalid_rule', 'say which chat the rule is for')
    } else if (d.scope === 'hour') r.expiresAt = r.createdAt + HOUR
    if (r.effect === 'deny') r.message = (d.message ?? '').trim() || undefined
    if (from) r.fromCall = from.id
    return r
  }
  const store = (r: Rule) => {
    r.id = ++ruleSeq
    rules.push(r)
    return r
  }
  const used = (r: Rule) => {
    r.uses++
    r.lastUsedAt = Date.now()
  }
  const describe = (r: Rule) =>
    `${r.effect === 'deny' ? 'never allow' : 'allow'} ${r.tool}${
      r.match.kind === 'path' ? ` with paths under ${r.match.path}` : r.match.kind === 'exact' ? ` when ${r.match.arg} = ${JSON.stringify(r.match.value)}` : ' for any arguments'
    } · ${{ call: "this answer's calls", chat: 'this chat', hour: 'for an hour', session: 'until Airlock quits', always: 'always' }[r.scope]}`
  const neverText = (r: Rule) =>
    `The user does not allow this call (rule ${r.id}: ${describe(r)}).${r.message ? ` The user says: ${r.message}` : ' Do not retry it; ask the user or do something else.'}`

  /** Appends a row to the trail. */
  const record = (c: Call, decision: AuditEntry['decision'], by: string, extra: Partial<AuditEntry> = {}) => {
    const rid = /^rule:(\d+)$/.exec(by)
    const r = rid ? rules.find((x) => x.id === Number(rid[1])) : undefined
    audit.push({
      id: ++auditSeq,
      uid: `a${auditSeq}`,
      chatId: c.chatId,
      callId: c.id,
      messageId: c.messageId,
      tool: c.name,
      decision,
      decidedBy: by,
      ruleId: r?.id,
      rule: r ? describe(r) : undefined,
      at: Date.now(),
      arguments: c.arguments,
      runArguments: decision === 'denied' || decision === 'superseded' ? null : (c.edited ?? c.arguments),
      preview: null,
      resultStatus: c.resultStatus ?? '',
      durationMs: c.startedAt && c.finishedAt ? c.finishedAt - c.startedAt : 0,
      imported: false,
      ...extra,
    })
  }

  const listAudit = (q: AuditQuery) => {
    const limit = q.limit > 0 && q.limit <= 500 ? q.limit : 100
    const rows = audit
      .filter((e) => (!q.chatId || e.chatId === q.chatId) && (!q.tool || e.tool === q.tool) && (!q.decision || e.decision === q.decision) && (!q.before || e.id < q.before))
      .sort((a, b) => b.id - a.id)
      .slice(0, limit)
    return { entries: rows, next: rows.length === limit ? rows[rows.length - 1].id : 0 }
  }

  return {
    rules,
    audit,
    /** What each Activity export asked for (tests look). */
    exported: [] as { chatId: string; tool: string; decision: string; format: string }[],
    decide,
    newRule,
    store,
    used,
    record,
    matches,
    active,
    neverText,
    suggestFolder,
    listAudit,
    /** An allow rule for any arguments: in one chat, or ('') always. */
    anyRule: (tool: string, chatId: string) => store(newRule({ effect: 'allow', tool, match: 'any', scope: chatId ? 'chat' : 'always', chatId }, null)),
    ruleOptions: (c: Call, covering: Rule[]) => ({
      tool: c.name,
      folder: PATH_ARGS[c.name] ? suggestFolder(c) : '',
      pathArgs: PATH_ARGS[c.name] ?? [],
      args: Object.entries(argsOf(c))
        .map(([name, value]) => ({ name, value, path: (PATH_ARGS[c.name] ?? []).includes(name) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      scopes: SCOPES,
      covering,
    }),
  }
}

export type FakePolicy = ReturnType<typeof createFakePolicy>

/** The bound methods of rules and the audit trail, over the fake policy and the backend's calls. */
export function policyBindings(
  policy: ReturnType<typeof createFakePolicy>,
  { emit, calls, getCall, applyRule }: { emit: (name: string, data: unknown) => void; calls: Call[]; getCall: (id: string) => Call; applyRule: (c: Call, r: Rule) => void },
) {
  const rules = policy.rules
  return {
    ListRules: async () => clone(rules),
    DeleteRule: async (id: number) => {
      const i = rules.findIndex((r) => r.id === id)
      if (i >= 0) rules.splice(i, 1)
      emit('rules:changed', null)
    },
    RuleOptions: async (id: string) => {
      const c = getCall(id)
      return clone(policy.ruleOptions(c, rules.filter((r) => policy.active(r, c) && policy.matches(r, c))))
    },
    AddRuleFromCall: async (id: string, d: RuleDraft) => {
      await wait(10)
      const c = getCall(id)
      if (c.state === 'problem') throw apiErr('bad_state', 'A problem card cannot make a rule; fix it first.')
      const rule = policy.store(policy.newRule(d, c))
      applyRule(c, rule)
      return clone({ rule, call: c })
    },
    AddRule: async (d: RuleDraft) => {
      const rule = policy.store(policy.newRule(d, null))
      emit('rules:changed', null)
      return clone(rule)
    },
    TestRule: async (id: string, d: RuleDraft, chatId: string) => {
      const from = getCall(id)
      const rule = policy.newRule(d, from)
      const mine = calls.filter((x) => x.chatId === (chatId || from.chatId))
      const matched = mine.filter((x) => x.state !== 'problem' && policy.matches(rule, x) && (rule.scope !== 'call' || x.messageId === from.messageId))
      const summary = `${rule.effect === 'deny' ? 'never allow' : 'allow'} ${rule.tool}`
      return clone({ rule, summary, matched, total: mine.length })
    },
    ListAudit: async (q: AuditQuery) => clone(policy.listAudit(q)),
    ExportAudit: async (q: { chatId: string; tool: string; decision: string }, format: AuditFormat) => {
      await wait(10)
      if (format !== 'jsonl' && format !== 'csv') throw apiErr('invalid', `unknown format "${format}"`)
      policy.exported.push({ ...q, format })
      return `/home/you/Downloads/${q.chatId ? 'chat' : 'airlock'}-activity.${format}`
    },
  }
}
