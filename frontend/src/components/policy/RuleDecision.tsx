import { useEffect } from 'react'
import { useTranslation } from '../../i18n'
import { ruleIdOf, type Call } from '../../api'
import { clockTime } from '../../lib/calls'
import { useStore } from '../../store'
import { loadRules, usePolicy } from '../../store/policy'
import { matchText } from './describe'
import './policy.css'

/** Deciders this line speaks for (ToolCard's own line covers you and the legacy rules). */
export function decidedByPolicy(c: Call): boolean {
  return ruleIdOf(c.decidedBy) > 0 || c.decidedBy === 'new_message' || c.decidedBy === 'timeout'
}

/**
 * Who decided a card when it was not you: "Allowed by rule #3 · paths under
 * docs · this chat · expires 23:10 · Permissions", "Denied by rule #4", or
 * settled by your new message. The rule is read from the rules that hold
 * (loaded on first need); a rule since revoked says so.
 */
export function RuleDecision({ call: c }: { call: Call }) {
  const { t, i18n } = useTranslation()
  const id = ruleIdOf(c.decidedBy)
  const rule = usePolicy((s) => (id ? s.rules.find((r) => r.id === id) : undefined))
  const old = usePolicy((s) => (id ? s.known[id] : undefined))
  const loaded = usePolicy((s) => s.rulesLoaded)
  const openSettings = useStore((s) => s.openSettings)

  useEffect(() => {
    if (id && !loaded) void loadRules()
  }, [id, loaded])

  const when = c.decidedAt ? clockTime(c.decidedAt, i18n.language) : ''
  if (!id) {
    return (
      <p className="tool-card__decision" data-testid="call-decision" data-decided-by={c.decidedBy}>
        <span>{t(c.decidedBy === 'timeout' ? 'policy.decision.timeout' : 'policy.decision.newMessage')}</span>
        {when && <> · <time dateTime={new Date(c.decidedAt!).toISOString()}>{when}</time></>}
      </p>
    )
  }
  const r = rule ?? old
  const denied = c.state === 'denied'
  const parts: string[] = []
  if (r) parts.push(matchText(r, t), t(`policy.scopeShort.${r.scope}`))
  if (rule?.expiresAt) parts.push(t('policy.decision.expires', { time: clockTime(rule.expiresAt, i18n.language) }))
  if (loaded && !rule) parts.push(t('policy.decision.revoked'))
  return (
    <p className="tool-card__decision rule-decision" data-testid="call-decision" data-decided-by={c.decidedBy} data-rule-id={id}>
      <span className={`rule-decision__who ${denied ? 'is-deny' : ''}`} data-testid="rule-decision">
        {t(denied ? 'policy.decision.deniedBy' : 'policy.decision.allowedBy', { id })}
      </span>
      {parts.map((p, i) => (
        <span key={i}> · {p}</span>
      ))}
      {when && (
        <>
          {' '}
          · <time dateTime={new Date(c.decidedAt!).toISOString()}>{when}</time>
        </>
      )}{' '}
      ·{' '}
      <button
        type="button"
        className="link-btn"
        data-testid="rule-link"
        aria-label={t('policy.decision.permissionsLabel')}
        onClick={() => openSettings('permissions')}
      >
        {t('policy.decision.permissions')}
      </button>
      {denied && r?.message && (
        <span className="rule-decision__told" data-testid="rule-told">
          {t('policy.decision.told', { message: r.message })}
        </span>
      )}
    </p>
  )
}
