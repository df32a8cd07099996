import type { TFunction } from '../i18n'

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

const startOfDay = (ts: number) => {
  const d = new Date(ts)
  d.setHours(0, 0, 0, 0)
  return d.getTime()
}

/** "just now", "5 min ago", "3 hr ago", "yesterday", "Mar 4" — localized. */
export function relativeTime(ts: number, now: number, locale: string, t: TFunction): string {
  const diff = now - ts
  if (diff < MIN) return t('time.justNow')
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' })
  if (diff < HOUR) return rtf.format(-Math.floor(diff / MIN), 'minute')
  if (diff < DAY && startOfDay(ts) === startOfDay(now)) return rtf.format(-Math.floor(diff / HOUR), 'hour')
  const days = Math.round((startOfDay(now) - startOfDay(ts)) / DAY)
  if (days < 7) return rtf.format(-Math.max(days, 1), 'day')
  const sameYear = new Date(ts).getFullYear() === new Date(now).getFullYear()
  return new Intl.DateTimeFormat(locale, sameYear ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' }).format(ts)
}

export type ChatGroup = 'today' | 'yesterday' | 'week' | 'month' | 'older'

export function chatGroup(ts: number, now: number): ChatGroup {
  const days = Math.round((startOfDay(now) - startOfDay(ts)) / DAY)
  if (days <= 0) return 'today'
  if (days === 1) return 'yesterday'
  if (days < 7) return 'week'
  if (days < 30) return 'month'
  return 'older'
}

export function fullDate(ts: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(ts)
}
