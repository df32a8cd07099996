import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from '../../i18n'
import { AUDIT_DECISIONS, ruleIdOf, type AuditEntry, type AuditFormat } from '../../api'
import { callSummary, clip, clockTime, formatDuration, prettyJSON } from '../../lib/calls'
import { fullDate } from '../../lib/time'
import { useStore } from '../../store'
import { exportActivity, loadActivity, loadMoreActivity, openCard, usePolicy } from '../../store/policy'
import { AlertIcon, DownloadIcon, RetryIcon } from '../icons'
import { ActivityIcon } from './ActivityIcon'
import { whoText } from './describe'
import './policy.css'
import { ViewHeading } from '../ViewHeading'

const FORMATS: AuditFormat[] = ['jsonl', 'csv']
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * Activity: the audit trail, newest first — for one chat or every chat,
 * filtered by tool and decision, a page at a time. Each row says when,
 * which tool, what was decided and by whom (you, a rule, the loop guard,
 * the turn cap, a new message), the arguments as proposed and as run, the
 * result and how long it took; it opens its card. Export writes the chat's
 * (or every chat's) trail as JSON Lines or CSV.
 */
export function ActivityView() {
  const { t, i18n } = useTranslation()
  const ids = useId()
  const filter = usePolicy((s) => s.filter)
  const entries = usePolicy((s) => s.entries)
  const next = usePolicy((s) => s.next)
  const loading = usePolicy((s) => s.loading)
  const error = usePolicy((s) => s.activityError)
  const chats = useStore((s) => s.chats)
  const tools = useStore((s) => s.tools)

  useEffect(() => {
    void loadActivity()
  }, [])

  const toolNames = useMemo(() => {
    const names = new Set(tools.map((x) => x.name))
    for (const e of entries) names.add(e.tool)
    if (filter.tool) names.add(filter.tool)
    return [...names].filter(Boolean).sort()
  }, [tools, entries, filter.tool])
  const titleOf = (chatId: string) => {
    const c = chats.find((x) => x.id === chatId)
    return c ? c.title || t('chat.untitled') : t('policy.activity.deletedChat')
  }

  return (
    <main className="chat lab activity" aria-label={t('policy.activity.title')} data-testid="activity">
      <header className="chat__header lab__header">
        <ViewHeading icon={<ActivityIcon size={16} />} title={t('policy.activity.title')} backLabel={t('policy.activity.back')} closeTestId="activity-close" />
        <div className="activity__export" role="group" aria-label={t('policy.activity.export')}>
          {FORMATS.map((f) => (
            <button
              key={f}
              type="button"
              className="btn btn--sm btn--secondary"
              data-testid={`activity-export-${f}`}
              onClick={() => void exportActivity(f)}
            >
              <DownloadIcon size={13} />
              {t(`policy.activity.formats.${f}`)}
            </button>
          ))}
        </div>
      </header>
      <div className="lab__scroll">
        <div className="lab__inner activity__inner">
          <div className="activity__filters">
            <label htmlFor={`${ids}-chat`}>{t('policy.activity.chat')}</label>
            <select
              id={`${ids}-chat`}
              className="input input--sm"
              value={filter.chatId}
              data-testid="activity-chat"
              onChange={(e) => void loadActivity({ chatId: e.target.value })}
            >
              <option value="">{t('policy.activity.allChats')}</option>
              {filter.chatId && !chats.some((c) => c.id === filter.chatId) && <option value={filter.chatId}>{titleOf(filter.chatId)}</option>}
              {chats.map((c) => (
                <option key={c.id} value={c.id}>
                  {clip(c.title || t('chat.untitled'), 48)}
                </option>
              ))}
            </select>
            <label htmlFor={`${ids}-tool`}>{t('policy.activity.tool')}</label>
            <select
              id={`${ids}-tool`}
              className="input input--sm"
              value={filter.tool}
              data-testid="activity-tool"
              onChange={(e) => void loadActivity({ tool: e.target.value })}
            >
              <option value="">{t('policy.activity.anyTool')}</option>
              {toolNames.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            <label htmlFor={`${ids}-decision`}>{t('policy.activity.decision')}</label>
            <select
              id={`${ids}-decision`}
              className="input input--sm"
              value={filter.decision}
              data-testid="activity-decision"
              onChange={(e) => void loadActivity({ decision: e.target.value })}
            >
              <option value="">{t('policy.activity.anyDecision')}</option>
              {AUDIT_DECISIONS.map((d) => (
                <option key={d} value={d}>
                  {t(`policy.decisions.${d}`)}
                </option>
              ))}
            </select>
            <button type="button" className="icon-btn icon-btn--sm" onClick={() => void loadActivity()} aria-label={t('policy.activity.refresh')} title={t('policy.activity.refresh')}>
              <RetryIcon size={14} />
            </button>
          </div>

          {error && (
            <div className="status-line status-line--error" role="alert">
              <AlertIcon size={15} />
              <span>{error}</span>
            </div>
          )}

          {!error && entries.length === 0 ? (
            <p className="activity__empty" data-testid="activity-empty">
              {loading
                ? t('common.loading')
                : filter.tool || filter.decision
                  ? t('policy.activity.emptyFiltered')
                  : t('policy.activity.empty')}
            </p>
          ) : (
            <ol className="activity__list" aria-label={t('policy.activity.listLabel')}>
              {entries.map((e) => (
                <ActivityRow key={e.id} entry={e} chatTitle={filter.chatId ? '' : titleOf(e.chatId)} locale={i18n.language} />
              ))}
            </ol>
          )}

          {next > 0 && (
            <button type="button" className="btn btn--sm btn--secondary activity__more" data-testid="activity-more" disabled={loading} onClick={() => void loadMoreActivity()}>
              {loading ? t('common.loading') : t('policy.activity.more')}
            </button>
          )}
        </div>
      </div>
    </main>
  )
}

export function ActivityRow({ entry: e, chatTitle, locale }: { entry: AuditEntry; chatTitle: string; locale: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const edited = e.runArguments != null && !same(e.arguments, e.runArguments)
  const args = e.runArguments ?? e.arguments
  const rid = ruleIdOf(e.decidedBy)
  const tone =
    e.decision === 'denied' || e.decision === 'superseded'
      ? 'deny'
      : e.decision === 'held'
        ? 'held'
        : e.resultStatus === 'error' || e.decision === 'timed_out' || e.decision === 'cancelled' || e.decision === 'interrupted'
          ? 'error'
          : 'ok'
  const canOpen = !!e.chatId && !!e.callId
  return (
    <li
      className={`arow arow--${tone}`}
      data-testid="activity-row"
      data-tool={e.tool}
      data-decision={e.decision}
      data-decided-by={e.decidedBy}
      data-call-id={e.callId}
      data-imported={e.imported ? 'true' : undefined}
    >
      <div className="arow__line">
        <time className="arow__time" dateTime={new Date(e.at).toISOString()} title={fullDate(e.at, locale)}>
          {clockTime(e.at, locale)}
        </time>
        <code className="arow__tool">{e.tool || '—'}</code>
        <span className={`arow__decision arow__decision--${tone}`}>{t(`policy.decisions.${e.decision}`)}</span>
        <span className="arow__who" data-testid="activity-who">
          {t('policy.activity.by', { who: whoText(e.decidedBy, t) })}
        </span>
        {e.imported && (
          <span className="arow__imported" data-testid="activity-imported" title={t('policy.activity.importedHint')}>
            {t('policy.activity.imported')}
          </span>
        )}
        {e.resultStatus && <span className={`arow__status arow__status--${e.resultStatus}`}>{t(`policy.status.${e.resultStatus}`)}</span>}
        {e.decision === 'ran' || e.durationMs > 0 ? <span className="arow__dur">{formatDuration(e.durationMs)}</span> : null}
        <span className="arow__spacer" />
        {chatTitle && <span className="arow__chat" title={chatTitle}>{clip(chatTitle, 32)}</span>}
        {canOpen ? (
          <button type="button" className="btn btn--xs btn--ghost" data-testid="activity-open" onClick={() => void openCard(e)}>
            {t('policy.activity.openCard')}
          </button>
        ) : (
          <span className="arow__hand">{e.callId ? '' : t('policy.activity.byHand')}</span>
        )}
      </div>
      <div className="arow__args">
        <button type="button" className="tool-card__toggle" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          {callSummary(e.tool, args, 90) || t('policy.activity.noArgs')}
          {edited && <span className="tool-card__edited-tag">{t('policy.activity.edited')}</span>}
        </button>
        {(e.rule || e.detail) && (
          <span className="arow__detail">
            {e.rule && (rid ? `#${rid} ${e.rule}` : e.rule)}
            {e.rule && e.detail ? ' — ' : ''}
            {e.detail && clip(e.detail, 200)}
          </span>
        )}
      </div>
      {open && (
        <div className={`arow__json ${edited ? 'arow__json--pair' : ''}`}>
          <div>
            <p className="arow__json-label">{t('policy.activity.proposed')}</p>
            <pre>{prettyJSON(e.arguments)}</pre>
          </div>
          {edited && (
            <div>
              <p className="arow__json-label">{t('policy.activity.ran')}</p>
              <pre>{prettyJSON(e.runArguments)}</pre>
            </div>
          )}
        </div>
      )}
    </li>
  )
}
