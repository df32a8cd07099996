import './PermissionsPanel.css'
import { useEffect, useState } from 'react'
import { useTranslation } from '../../i18n'
import type { Rule } from '../../api'
import { clockTime } from '../../lib/calls'
import { fullDate } from '../../lib/time'
import { useStore } from '../../store'
import { loadRules, openActivity, revokeRule, usePolicy } from '../../store/policy'
import { matchText } from '../policy/describe'
import { ActivityIcon } from '../policy/ActivityIcon'
import { BanIcon, ShieldIcon } from '../icons'
import { ConfirmDialog } from '../Dialog'
import '../policy/policy.css'

/**
 * Settings → Permissions: every rule that holds now — allow or never (with
 * what the model is told), the tool, which arguments, where and how long,
 * when it ends, how many calls it decided and when it last did — each one
 * revocable. Newest first.
 */
export function PermissionsPanel() {
  const { t, i18n } = useTranslation()
  const rules = usePolicy((s) => s.rules)
  const loaded = usePolicy((s) => s.rulesLoaded)
  const error = usePolicy((s) => s.rulesError)
  const chats = useStore((s) => s.chats)
  const [busy, setBusy] = useState<number | null>(null)
  const [asking, setAsking] = useState<Rule | null>(null)

  useEffect(() => {
    void loadRules()
  }, [])

  const where = (r: Rule) => {
    if (r.scope === 'call' || r.scope === 'chat' || r.chatId) {
      const chat = chats.find((c) => c.id === r.chatId)
      const title = chat ? t('permissions.inChat', { title: chat.title || t('chat.untitled') }) : t('permissions.deletedChat')
      return r.scope === 'call' ? `${t('policy.scope.call')} · ${title}` : title
    }
    return t('permissions.everywhere')
  }
  const until = (r: Rule) =>
    r.expiresAt
      ? t('policy.permissions.until', { time: clockTime(r.expiresAt, i18n.language) })
      : r.scope === 'session'
        ? t('policy.scope.session')
        : r.scope === 'call'
          ? t('policy.permissions.thisAnswer')
          : t('policy.permissions.noEnd')

  const sorted = [...rules].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)

  return (
    <div className="permissions" data-testid="permissions">
      <div className="permissions__intro">
        <ShieldIcon size={18} />
        <p>{t('policy.permissions.intro')}</p>
        <button type="button" className="btn btn--sm btn--secondary perm__activity" data-testid="open-activity-all" onClick={() => openActivity('')}>
          <ActivityIcon size={14} />
          {t('policy.activity.open')}
        </button>
      </div>
      {error ? (
        <p className="form__error" role="alert">
          {t('errors.loadRules')}: {error}
        </p>
      ) : !loaded ? (
        <p className="form__note">{t('common.loading')}</p>
      ) : rules.length === 0 ? (
        <div className="permissions__empty" data-testid="rules-empty">
          <p className="permissions__empty-title">{t('permissions.emptyTitle')}</p>
          <p>{t('policy.permissions.emptyBody')}</p>
        </div>
      ) : (
        <ul className="perm-list" aria-label={t('permissions.listLabel')}>
          {sorted.map((r) => (
            <li
              key={r.id}
              className={`perm ${r.effect === 'deny' ? 'perm--deny' : ''}`}
              data-testid="rule-row"
              data-rule-id={r.id}
              data-tool={r.tool}
              data-effect={r.effect}
              data-scope={r.scope}
            >
              <div className="perm__main">
                <span className={`perm__effect ${r.effect === 'deny' ? 'is-deny' : ''}`}>
                  {r.effect === 'deny' ? <BanIcon size={12} /> : <ShieldIcon size={12} />}
                  {t(`policy.effect.${r.effect}`)}
                </span>
                <code className="perm__tool">{r.tool}</code>
                <span className="perm__match">{matchText(r, t)}</span>
                <span className="perm__id">#{r.id}</span>
              </div>
              <div className="perm__meta">
                <span className={`perm__scope ${r.chatId || r.scope === 'chat' || r.scope === 'call' ? '' : 'is-global'}`}>
                  {t(`policy.scope.${r.scope}`)} · {where(r)}
                </span>
                <span data-testid="rule-expiry">{until(r)}</span>
                <span data-testid="rule-uses">{t('policy.permissions.uses', { count: r.uses })}</span>
                <span>
                  {r.lastUsedAt
                    ? t('policy.permissions.lastUsed', { when: fullDate(r.lastUsedAt, i18n.language) })
                    : t('policy.permissions.neverUsed')}
                </span>
              </div>
              {r.effect === 'deny' && (
                <p className="perm__message" data-testid="rule-message">
                  {r.message ? t('policy.decision.told', { message: r.message }) : t('policy.permissions.noMessage')}
                </p>
              )}
              <button
                type="button"
                className="btn btn--xs btn--ghost btn--danger-text perm__revoke"
                data-testid="revoke-rule"
                disabled={busy === r.id}
                aria-label={t('policy.permissions.revokeLabel', { id: r.id, tool: r.tool })}
                onClick={() => setAsking(r)}
              >
                {t('permissions.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={t('finish.revoke.title', { id: asking?.id ?? 0, tool: asking?.tool ?? '' })}
        message={t(asking?.effect === 'deny' ? 'finish.revoke.messageDeny' : 'finish.revoke.messageAllow', { tool: asking?.tool ?? '' })}
        confirmLabel={t('permissions.revoke')}
        busy={asking !== null && busy === asking.id}
        onConfirm={async () => {
          if (!asking) return
          setBusy(asking.id)
          await revokeRule(asking.id)
          setBusy(null)
          setAsking(null)
        }}
        onCancel={() => setAsking(null)}
        testId="confirm-revoke"
      />
    </div>
  )
}
