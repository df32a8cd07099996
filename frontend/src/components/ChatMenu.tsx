import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from '../i18n'
import type { Chat, ExportFormat } from '../api'
import { duplicateChat, exportChats, togglePin } from '../store/history'
import { KeyboardMenu } from './KeyboardMenu'
import { ActivityIcon } from './policy/ActivityIcon'
import { openActivity } from '../store/policy'
import { DownloadIcon, DuplicateIcon, MoreIcon, PencilIcon, PinIcon, TrashIcon } from './icons'
import '../styles/history.css'

export const EXPORT_FORMATS: ExportFormat[] = ['md', 'html', 'json']

/**
 * The "⋯" menu of a sidebar chat: rename, pin, duplicate, export, delete.
 * Controlled by the sidebar (so Shift+F10 / the context-menu key on the chat
 * can open it too). The keys are KeyboardMenu's.
 */
export function ChatMenu({
  chat,
  title,
  open,
  onOpenChange,
  onRename,
  onDelete,
}: {
  chat: Chat
  title: string
  open: boolean
  onOpenChange: (open: boolean) => void
  onRename: () => void
  onDelete: () => void
}) {
  const { t } = useTranslation()
  const trigger = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement | null>(null)
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null)

  useLayoutEffect(() => {
    if (!open) return
    const r = trigger.current?.getBoundingClientRect()
    if (!r) return
    const h = menu.current?.offsetHeight ?? 280
    const w = menu.current?.offsetWidth ?? 220
    const top = r.bottom + 4 + h > window.innerHeight ? Math.max(8, r.top - 4 - h) : r.bottom + 4
    setPos({ top, left: Math.max(8, Math.min(r.right - w, window.innerWidth - w - 8)) })
  }, [open])

  const close = (focusBack = true) => {
    onOpenChange(false)
    if (focusBack) requestAnimationFrame(() => trigger.current?.focus())
  }
  const run = (fn: () => void) => () => {
    close(false)
    fn()
  }

  const item = (testId: string, label: ReactNode, icon: ReactNode, onClick: () => void, extra?: { danger?: boolean; aria?: string }) => (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={`cmenu__item ${extra?.danger ? 'cmenu__item--danger' : ''}`}
      data-testid={testId}
      aria-label={extra?.aria}
      onClick={run(onClick)}
    >
      <span className="cmenu__icon">{icon}</span>
      <span className="cmenu__label">{label}</span>
    </button>
  )

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="icon-btn icon-btn--sm"
        data-testid="chat-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('history.menu.open', { title })}
        title={t('history.menu.open', { title })}
        onClick={() => onOpenChange(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault()
            onOpenChange(true)
          }
        }}
      >
        <MoreIcon size={14} />
      </button>
      {open &&
        createPortal(
          <KeyboardMenu
            menuRef={menu}
            trigger={trigger}
            className="cmenu"
            testId="chat-menu-list"
            label={t('history.menu.open', { title })}
            style={pos ? { top: pos.top, left: pos.left } : { visibility: 'hidden', top: 0, left: 0 }}
            onClose={close}
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
            {item('chat-menu-delete', t('history.menu.delete'), <TrashIcon size={14} />, onDelete, { danger: true })}
          </KeyboardMenu>,
          document.body,
        )}
    </>
  )
}
