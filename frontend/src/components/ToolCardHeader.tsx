// A tool card's state badge, elapsed time and decision line.
import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from '../i18n'
import type { Call, CallState } from '../api'
import { RuleDecision, decidedByPolicy } from './policy/RuleDecision'
import { whoText } from './policy/describe'
import { clockTime, formatDuration } from '../lib/calls'
import { AlertIcon, BanIcon, CheckIcon, StopIcon } from './icons'

const BADGE_ICON: Partial<Record<CallState, ReactNode>> = {
  done: <CheckIcon size={12} />,
  error: <AlertIcon size={12} />,
  denied: <BanIcon size={12} />,
  interrupted: <StopIcon size={10} />,
  problem: <AlertIcon size={12} />,
}

export function StateBadge({ call: c }: { call: Call }) {
  const { t } = useTranslation()
  const spinning = c.state === 'running' || c.state === 'approved'
  const label = c.state === 'problem' && c.resultStatus ? t('calls.state.problemSent') : t(`calls.state.${c.state}`)
  return (
    <span className={`call-badge call-badge--${c.state}`} data-testid="call-state">
      {spinning ? <span className="spinner spinner--xs" aria-hidden="true" /> : BADGE_ICON[c.state] ?? <span className="call-badge__dot" aria-hidden="true" />}
      {label}
    </span>
  )
}

/** Live elapsed time, ticking every 100 ms. */
export function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 100)
    return () => window.clearInterval(id)
  }, [])
  return (
    <span className="tool-card__elapsed" data-testid="call-elapsed" aria-live="off">
      {formatDuration(Math.max(0, now - since))}
    </span>
  )
}

/** Who decided what, and when. */
export function Decision({ call: c, locale }: { call: Call; locale: string }) {
  const { t } = useTranslation()
  if (!c.decidedBy || c.state === 'pending') return null
  if (decidedByPolicy(c)) return <RuleDecision call={c} />
  const when = c.decidedAt ? clockTime(c.decidedAt, locale) : ''
  let text: string
  if (c.state === 'denied') {
    text = c.reason ? t('calls.deniedByYouReason', { reason: c.reason }) : t('calls.deniedByYou')
  } else if (c.state === 'problem') {
    text = c.reason ? t('calls.sentToModelReason', { reason: c.reason }) : t('calls.sentToModel')
  } else if (c.state === 'interrupted') {
    text = t('calls.interruptedBy')
  } else if (c.decidedBy === 'rule:chat') {
    text = t('calls.autoChat')
  } else if (c.decidedBy === 'rule:global') {
    text = t('calls.autoGlobal')
  } else if (c.decidedBy.startsWith('agent:')) {
    text = t('agentApproval.ranBy', { who: whoText(c.decidedBy, t) })
  } else if (c.decidedBy === 'system') {
    text = t('calls.bySystem')
  } else {
    text = t('calls.approvedByYou')
  }
  const edited = c.edited !== undefined && c.edited !== null
  return (
    <p className="tool-card__decision" data-testid="call-decision">
      <span>{text}</span>
      {when && (
        <>
          {' '}
          <span aria-hidden="true">·</span>{' '}
          <time dateTime={new Date(c.decidedAt!).toISOString()}>{when}</time>
        </>
      )}
      {edited && (
        <>
          {' '}
          <span className="tool-card__edited-tag">{t('calls.editedBeforeRunning')}</span>
        </>
      )}
    </p>
  )
}
