import { Suspense, useRef } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from '../i18n'
import type { Chat } from '../api'
import { lazyWithPreload } from '../lib/lazy'
import { MoreIcon } from './icons'
import { useMenuPosition } from './menuPosition'
import '../styles/history.css'

// The menu's items (and KeyboardMenu) are their own chunk, preloaded while idle after start.
const ChatMenuList = lazyWithPreload(() => import('./ChatMenuList').then((m) => ({ default: m.ChatMenuList })))
export const preloadChatMenu = () => void ChatMenuList.preload()


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

  const pos = useMenuPosition(open, trigger, menu)

  const close = (focusBack = true) => {
    onOpenChange(false)
    if (focusBack) requestAnimationFrame(() => trigger.current?.focus())
  }
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
          <Suspense fallback={null}>
            <ChatMenuList
              chat={chat}
              title={title}
              trigger={trigger}
              menuRef={menu}
              style={pos ? { top: pos.top, left: pos.left } : { visibility: 'hidden', top: 0, left: 0 }}
              onClose={close}
              onRename={onRename}
              onDelete={onDelete}
            />
          </Suspense>,
          document.body,
        )}
    </>
  )
}
