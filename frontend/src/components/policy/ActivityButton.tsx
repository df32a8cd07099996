import { useTranslation } from '../../i18n'
import { useStore } from '../../store'
import { openActivity } from '../../store/policy'
import { ActivityIcon } from './ActivityIcon'

/** The chat header's way to this chat's Activity (its audit trail). */
export function ActivityButton() {
  const { t } = useTranslation()
  const chatId = useStore((s) => s.activeChatId)
  if (!chatId) return null
  return (
    <button
      type="button"
      className="icon-btn icon-btn--sm"
      data-testid="chat-activity"
      aria-label={t('policy.activity.openChat')}
      title={t('policy.activity.openChat')}
      onClick={() => openActivity(chatId)}
    >
      <ActivityIcon size={16} />
    </button>
  )
}

/** The sidebar's way to every chat's Activity. */
export function ActivityNav() {
  const { t } = useTranslation()
  const view = useStore((s) => s.view)
  const setView = useStore((s) => s.setView)
  return (
    <button
      type="button"
      className={`sidebar__nav ${view === 'activity' ? 'is-active' : ''}`}
      data-testid="activity-open"
      aria-current={view === 'activity' ? 'page' : undefined}
      onClick={() => (view === 'activity' ? setView('chat') : openActivity(''))}
    >
      <ActivityIcon size={16} />
      <span>{t('policy.activity.title')}</span>
    </button>
  )
}
