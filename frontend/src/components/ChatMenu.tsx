import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import type { Chat, ExportFormat } from '../api'
import { duplicateChat, exportChats, togglePin } from '../store/history'
import { DownloadIcon, DuplicateIcon, MoreIcon, PencilIcon, PinIcon, TrashIcon } from './icons'
import '../styles/history.css'

export const EXPORT_FORMATS: ExportFormat[] = ['md', 'html', 'json']

/**
 * The "⋯" menu of a sidebar chat: rename, pin, duplicate, export, delete.
 * Controlled by the sidebar (so Shift+F10 / the context-menu key on the chat
 * can open it too). Arrow keys move, Esc closes and gives focus back.
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
  const menu = useRef<HTMLDivElement>(null)
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

  useEffect(() => {
    if (!open) return
    requestAnimationFrame(() => menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus())
    const onDown = (e: MouseEvent) => {
      const target = e.target as Node
      if (menu.current?.contains(target) || trigger.current?.contains(target)) return
      onOpenChange(false)
    }
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open, onOpenChange])

  const close = (focusBack = true) => {
    onOpenChange(false)
    if (focusBack) requestAnimationFrame(() => trigger.current?.focus())
  }
  const run = (fn: () => void) => () => {
    close(false)
    fn()
  }

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])
    const i = items.indexOf(document.activeElement as HTMLElement)
    let next = -1
    if (e.key === 'ArrowDown') next = (i + 1) % items.length
    else if (e.key === 'ArrowUp') next = (i - 1 + items.length) % items.length
    else if (e.key === 'Home') next = 0
    else if (e.key === 'End') next = items.length - 1
    else if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      close()
      return
    } else if (e.key === 'Tab') {
      e.preventDefault()
      close()
      return
    }
    if (next >= 0) {
      e.preventDefault()
      items[next]?.focus()
    }
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
          <div
            ref={menu}
            role="menu"
            className="cmenu"
            data-testid="chat-menu-list"
            aria-label={t('history.menu.open', { title })}
            style={pos ? { top: pos.top, left: pos.left } : { visibility: 'hidden', top: 0, left: 0 }}
            onKeyDown={onMenuKey}
          >
            {item('chat-menu-rename', t('history.menu.rename'), <PencilIcon size={14} />, onRename)}
            {item('chat-pin', chat.pinned ? t('history.menu.unpin') : t('history.menu.pin'), <PinIcon size={14} />, () => void togglePin(chat))}
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
          </div>,
          document.body,
        )}
    </>
  )
}
