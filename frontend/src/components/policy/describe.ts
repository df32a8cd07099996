// Rules and deciders in words, for the card, Permissions and Activity.
import type { TFunction } from '../../i18n'
import { ruleIdOf, type Rule } from '../../api'
import { clip } from '../../lib/calls'
import { agentLabel } from '../../lib/agentLabel'
import { useAgents } from '../../store/agents'

/** What a rule asks of the arguments: "any arguments", "paths under docs", "path = "a.md"". */
export function matchText(r: Pick<Rule, 'match'>, t: TFunction): string {
  const m = r.match
  if (m.kind === 'path') return m.path && m.path !== '.' ? t('policy.match.path', { path: m.path }) : t('policy.match.pathRoot')
  if (m.kind === 'readonly') return t('rulesReadOnly.match')
  if (m.kind === 'exact') return t('policy.match.exact', { arg: m.arg ?? '', value: clip(JSON.stringify(m.value ?? null), 60) })
  return t('policy.match.any')
}

/** A rule in one line: "Allow read_file · paths under docs · this chat". */
export function ruleText(r: Rule, t: TFunction): string {
  return [`${t(`policy.effect.${r.effect}`)} ${r.tool}`, matchText(r, t), t(`policy.scopeShort.${r.scope}`)].join(' · ')
}

/** Who decided, in a word or two: you · rule #3 · loop guard · agent File reviewer · … */
export function whoText(by: string | undefined, t: TFunction): string {
  const id = ruleIdOf(by)
  if (id) return t('policy.who.rule', { id })
  if (by?.startsWith('agent:')) {
    const agentId = by.slice('agent:'.length)
    const a = useAgents.getState().agents.find((x) => x.id === agentId)
    return t('agentApproval.who', { id: a ? agentLabel(a, t).name : agentId })
  }
  switch (by) {
    case 'user':
    case 'loop_guard':
    case 'turn_cap':
    case 'repaired':
    case 'recheck':
    case 'new_message':
    case 'timeout':
    case 'system':
      return t(`policy.who.${by}`)
    case 'rule:chat':
      return t('policy.who.ruleChat')
    case 'rule:global':
      return t('policy.who.ruleGlobal')
  }
  return by || '—'
}

/** The folders a path rule can offer for a card: its folder, then each parent, then the whole workspace. */
export function folderChoices(folder: string): string[] {
  const out: string[] = []
  let f = folder.replace(/\/+$/, '')
  while (f && f !== '.') {
    out.push(f)
    const i = f.lastIndexOf('/')
    f = i > 0 ? f.slice(0, i) : ''
  }
  out.push('.')
  return out
}

/** The server of an MCP tool whose server says, in the list it gives now, that it is read-only and not destructive; '' otherwise. */
export function readOnlyServer(tool: { server?: string; hints?: { readOnly?: boolean; destructive?: boolean } | null } | undefined): string {
  return tool?.server && tool.hints?.readOnly && !tool.hints.destructive ? tool.server : ''
}
