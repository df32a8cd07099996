import type { CSSProperties, MutableRefObject, ReactNode, RefObject } from 'react'
import { useTranslation } from '../i18n'
import type { Chat } from '../api'
import { duplicateChat, exportChats, togglePin } from '../store/history'
import { KeyboardMenu } from './KeyboardMenu'
import { ActivityIcon } from './policy/ActivityIcon'
import { openActivity } from '../store/policy'
import { DownloadIcon, DuplicateIcon, PencilIcon, PinIcon, TrashIcon } from './icons'
import { EXPORT_FORMATS } from '../api'

/** The items of a sidebar chat's "⋯" menu (ChatMenu): their own chunk, not needed before the first paint. */
export function ChatMenuList({
  chat,
  title,
  trigger,
  menuRef,
  style,
  onClose,
  onRename,
  onDelete,
}: {
  chat: Chat
  title: string
  trigger: RefObject<HTMLButtonElement | null>
  menuRef: MutableRefObject<HTMLDivElement | null>
  style: CSSProperties
  onClose: (focusBack?: boolean) => void
  onRename: () => void
  onDelete: () => void
}) {
  const { t } = useTranslation()
  const item = (testId: string, label: ReactNode, icon: ReactNode, onClick: () => void, extra?: { danger?: boolean; aria?: string }) => (
    <button
      key={testId}
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={`cmenu__item ${extra?.danger ? 'cmenu__item--danger' : ''}`}
      data-testid={testId}
      aria-label={extra?.aria}
      onClick={() => {
        onClose(false)
        onClick()
      }}
    >
      <span className="cmenu__icon">{icon}</span>
      <span className="cmenu__label">{label}</span>
    </button>
  )

  return (
    <KeyboardMenu
      menuRef={menuRef}
      trigger={trigger}
      className="cmenu"
      testId="chat-menu-list"
      label={t('history.menu.open', { title })}
      style={style}
      onClose={onClose}
    >
      {item('chat-menu-rename', t('history.menu.rename'), <PencilIcon size={14} />, onRename)}
      {item('chat-pin', chat.pinned ? t('history.menu.unpin') : t('history.menu.pin'), <PinIcon size={14} />, () => void togglePin(chat))}
      {item('chat-menu-activity', t('policy.activity.menuItem'), <ActivityIcon size={14} />, () => openActivity(chat.id))}
      {item('chat-duplicate', t('history.menu.duplicate'), <DuplicateIcon size={14} />, () => void duplicateChat(chat))}
      <div className="cmenu__sep" role="separator" />
      <div className="cmenu__group" role="group" aria-label={t('history.menu.export')}>
        <p className="cmenu__heading" aria-hidden="true">
          {t('history.menu.export')}
        </p>
        {EXPORT_FORMATS.map((f) =>
          item(`export-${f}`, t(`history.formats.${f}`), <DownloadIcon size={14} />, () => void exportChats([chat.id], f), {
            aria: t('history.menu.exportAs', { format: t(`history.formats.${f}`) }),
          }),
        )}
      </div>
      <div className="cmenu__sep" role="separator" />
      {item('chat-menu-delete', t('trash.move'), <TrashIcon size={14} />, onDelete, { danger: true })}
    </KeyboardMenu>
  )
}
