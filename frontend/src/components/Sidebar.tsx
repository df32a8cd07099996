import './Sidebar.css'
import { Suspense, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import { DEMO_PROVIDER_ID, ENV_PROVIDER_ID, type Chat } from '../api'
import { selectActiveProvider, useStore } from '../store'
import { chatGroup, fullDate, relativeTime, type ChatGroup } from '../lib/time'
import { modLabel, useNow } from '../lib/hooks'
import { ChatIcon, FlaskIcon, GearIcon, LogoMark, PencilIcon, PinIcon, PlusIcon, ServerIcon, TrashIcon } from './icons'
import { deleteWithUndo, useHistory, visibleChats } from '../store/history'
import { SidebarSearch } from './SidebarSearch'
import { ChatMenu } from './ChatMenu'
import { ActivityNav } from './policy/ActivityButton'
import { twinLabels } from '../lib/twins'
import { lazyWithPreload } from '../lib/lazy'

// Search results replace the list only while searching: their own chunk, preloaded while idle after start.
const SearchResults = lazyWithPreload(() => import('./SearchResults').then((m) => ({ default: m.SearchResults })))
export const preloadSearchResults = () => void SearchResults.preload()

const GROUP_ORDER: ChatGroup[] = ['today', 'yesterday', 'week', 'month', 'older']

export function Sidebar() {
  const { t, i18n } = useTranslation()
  const chats = useStore((s) => s.chats)
  const activeChatId = useStore((s) => s.activeChatId)
  const streaming = useStore((s) => s.streaming)
  const selectChat = useStore((s) => s.selectChat)
  const newChat = useStore((s) => s.newChat)
  const renameChat = useStore((s) => s.renameChat)
  const openSettings = useStore((s) => s.openSettings)
  const view = useStore((s) => s.view)
  const setView = useStore((s) => s.setView)
  const now = useNow(30_000)
  const [editingId, setEditingId] = useState<string | null>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const hidden = useHistory((s) => s.hidden)
  const searching = useHistory((s) => s.query.trim() !== '')
  const [menuId, setMenuId] = useState<string | null>(null)
  const searchListId = useId()

  // Pinned chats first (their own group), then by date; chats inside the Undo window are hidden.
  const groups = useMemo(() => {
    const by = new Map<ChatGroup, Chat[]>()
    const pinned: Chat[] = []
    for (const c of visibleChats(chats, hidden)) {
      if (c.pinned) {
        pinned.push(c)
        continue
      }
      const g = chatGroup(c.updatedAt, now)
      by.set(g, [...(by.get(g) ?? []), c])
    }
    const dated = GROUP_ORDER.filter((g) => by.has(g)).map((g) => ({ group: g as ChatGroup | 'pinned', chats: by.get(g)! }))
    return pinned.length > 0 ? [{ group: 'pinned' as const, chats: pinned }, ...dated] : dated
  }, [chats, now, hidden])
  const ordered = useMemo(() => groups.flatMap((g) => g.chats), [groups])
  // Chats sharing a title show when each was started instead of how long ago.
  const twins = useMemo(() => twinLabels(ordered, i18n.language, t('chat.untitled')), [ordered, i18n.language, t])

  // The active chat is scrolled into view (opened from search, a new chat, a long list).
  useEffect(() => {
    if (!activeChatId || view !== 'chat' || searching) return
    requestAnimationFrame(() =>
      listRef.current
        ?.querySelector<HTMLElement>(`[data-testid="chat-item"][data-chat-id="${CSS.escape(activeChatId)}"]`)
        ?.scrollIntoView?.({ block: 'nearest' }),
    )
  }, [activeChatId, view, searching, ordered.length])

  const focusItem = (id: string) => {
    requestAnimationFrame(() => {
      listRef.current?.querySelector<HTMLElement>(`[data-testid="chat-item"][data-chat-id="${CSS.escape(id)}"]`)?.focus()
    })
  }

  const onItemKeyDown = (e: KeyboardEvent<HTMLButtonElement>, chat: Chat, index: number) => {
    if (e.key === 'F2') {
      e.preventDefault()
      setEditingId(chat.id)
    } else if (e.key === 'Delete') {
      // To the Trash (Undo in the toast); the keyboard stays on the list, on the next chat.
      e.preventDefault()
      const next = ordered[index + 1] ?? ordered[index - 1]
      void deleteWithUndo(chat).then(() => next && focusItem(next.id))
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const next = ordered[index + (e.key === 'ArrowDown' ? 1 : -1)]
      if (next) focusItem(next.id)
    } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault()
      setMenuId(chat.id)
    }
  }

  let index = -1
  return (
    <aside className="sidebar" aria-label={t('sidebar.label')}>
      <div className="sidebar__brand">
        <LogoMark size={26} />
        <span className="sidebar__name">{t('app.name')}</span>
      </div>

      <button
        type="button"
        className="btn btn--primary sidebar__new"
        onClick={() => void newChat()}
        data-testid="new-chat"
        title={`${t('sidebar.newChat')} (${modLabel()}+N)`}
      >
        <PlusIcon size={16} />
        <span>{t('sidebar.newChat')}</span>
        <kbd className="kbd kbd--on-primary">{modLabel()} N</kbd>
      </button>

      <SidebarSearch listId={searchListId} />

      <div className="sidebar__list" ref={listRef}>
        {searching ? (
          <Suspense fallback={<div className="search-state" aria-busy="true" />}>
            <SearchResults listId={searchListId} />
          </Suspense>
        ) : ordered.length === 0 ? (
          <div className="sidebar__empty">
            <ChatIcon size={20} />
            <p>{t('sidebar.empty')}</p>
          </div>
        ) : (
          <nav aria-label={t('sidebar.chats')}>
            {groups.map(({ group, chats: list }) => (
              <section
                key={group}
                className={`chat-group ${group === 'pinned' ? 'chat-group--pinned' : ''}`}
                data-testid={group === 'pinned' ? 'pinned-group' : undefined}
                aria-label={group === 'pinned' ? t('history.pinned') : t(`sidebar.groups.${group}`)}
              >
                <h3 className="chat-group__title">
                  {group === 'pinned' && <PinIcon size={12} />}
                  {group === 'pinned' ? t('history.pinned') : t(`sidebar.groups.${group}`)}
                </h3>
                <ul>
                  {list.map((chat) => {
                    index++
                    const i = index
                    const active = chat.id === activeChatId && view === 'chat'
                    const title = chat.title || t('chat.untitled')
                    return (
                      <li key={chat.id} className={`chat-row ${active ? 'is-active' : ''}`}>
                        {editingId === chat.id ? (
                          <RenameInput
                            initial={chat.title}
                            onDone={async (value) => {
                              setEditingId(null)
                              if (value !== null) await renameChat(chat.id, value)
                              focusItem(chat.id)
                            }}
                          />
                        ) : (
                          <>
                            <button
                              type="button"
                              className="chat-item"
                              data-testid="chat-item"
                              data-chat-id={chat.id}
                              data-active={active ? 'true' : 'false'}
                              aria-current={active ? 'page' : undefined}
                              onClick={() => void selectChat(chat.id)}
                              onDoubleClick={() => setEditingId(chat.id)}
                              onContextMenu={(e) => {
                                e.preventDefault()
                                setMenuId(chat.id)
                              }}
                              onKeyDown={(e) => onItemKeyDown(e, chat, i)}
                              aria-keyshortcuts="F2 Delete Shift+F10"
                              title={title}
                            >
                              {chat.pinned && (
                                <span className="chat-item__pin" data-testid="chat-pinned" title={t('history.pinnedChat')}>
                                  <PinIcon size={12} />
                                </span>
                              )}
                              <span className="chat-item__title">{title}</span>
                              <span className="chat-item__meta">
                                {streaming[chat.id] && (
                                  <span className="live-dot" role="img" aria-label={t('sidebar.streaming')} />
                                )}
                                {twins.has(chat.id) ? (
                                  <time dateTime={new Date(chat.createdAt).toISOString()} data-testid="chat-twin" title={fullDate(chat.createdAt, i18n.language)}>
                                    {twins.get(chat.id)}
                                  </time>
                                ) : (
                                  <time dateTime={new Date(chat.updatedAt).toISOString()} title={fullDate(chat.updatedAt, i18n.language)}>
                                    {relativeTime(chat.updatedAt, now, i18n.language, t)}
                                  </time>
                                )}
                              </span>
                            </button>
                            <div className="chat-row__actions">
                              <button
                                type="button"
                                className="icon-btn icon-btn--sm"
                                data-testid="chat-rename"
                                aria-label={t('sidebar.renameChat', { title })}
                                title={`${t('sidebar.rename')} (F2)`}
                                onClick={() => setEditingId(chat.id)}
                              >
                                <PencilIcon size={14} />
                              </button>
                              <ChatMenu
                                chat={chat}
                                title={title}
                                open={menuId === chat.id}
                                onOpenChange={(o) => setMenuId(o ? chat.id : null)}
                                onRename={() => setEditingId(chat.id)}
                                onDelete={() => void deleteWithUndo(chat)}
                              />
                              <button
                                type="button"
                                className="icon-btn icon-btn--sm icon-btn--danger"
                                data-testid="chat-delete"
                                aria-label={t('trash.moveChat', { title })}
                                title={`${t('trash.move')} (Del)`}
                                onClick={() => void deleteWithUndo(chat)}
                              >
                                <TrashIcon size={14} />
                              </button>
                            </div>
                          </>
                        )}
                      </li>
                    )
                  })}
                </ul>
              </section>
            ))}
          </nav>
        )}
      </div>

      <div className="sidebar__tools">
        <button
          type="button"
          className={`sidebar__nav ${view === 'lab' ? 'is-active' : ''}`}
          data-testid="tool-lab-open"
          aria-current={view === 'lab' ? 'page' : undefined}
          onClick={() => setView(view === 'lab' ? 'chat' : 'lab')}
        >
          <FlaskIcon size={16} />
          <span>{t('sidebar.toolLab')}</span>
        </button>
        <ActivityNav />
        <button type="button" className="sidebar__nav" data-testid="trash-open" onClick={() => openSettings('trash')}>
          <TrashIcon size={16} />
          <span>{t('trash.title')}</span>
        </button>
      </div>

      <div className="sidebar__footer">
        <ProviderChip onOpen={() => openSettings('providers')} />
        <button
          type="button"
          className="icon-btn sidebar__settings"
          onClick={() => openSettings()}
          data-testid="settings-open"
          aria-label={t('settings.open')}
          title={`${t('settings.title')} (${modLabel()}+,)`}
        >
          <GearIcon size={18} />
        </button>
      </div>

    </aside>
  )
}

function RenameInput({ initial, onDone }: { initial: string; onDone: (value: string | null) => void }) {
  const { t } = useTranslation()
  const [value, setValue] = useState(initial)
  const ref = useRef<HTMLInputElement>(null)
  const done = useRef(false)
  useEffect(() => {
    ref.current?.focus()
    ref.current?.select()
  }, [])
  const finish = (v: string | null) => {
    if (done.current) return
    done.current = true
    onDone(v)
  }
  return (
    <input
      ref={ref}
      className="chat-rename-input"
      data-testid="chat-rename-input"
      aria-label={t('sidebar.renameLabel')}
      value={value}
      maxLength={200}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault()
          finish(value)
        } else if (e.key === 'Escape') {
          e.preventDefault()
          e.stopPropagation()
          finish(null)
        }
      }}
      onBlur={() => finish(value)}
    />
  )
}

export function ProviderChip({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation()
  const provider = useStore(selectActiveProvider)
  const isDemo = !!provider && (provider.demo || provider.id === DEMO_PROVIDER_ID)
  const isEnv = provider?.id === ENV_PROVIDER_ID
  return (
    <button
      type="button"
      className={`provider-chip ${isDemo ? 'is-demo' : ''}`}
      data-testid="provider-chip"
      onClick={onOpen}
      aria-label={t('provider.chipLabel', {
        name: provider?.name ?? t('provider.none'),
        model: provider?.model || t('provider.noModel'),
      })}
    >
      <span className="provider-chip__icon">{isDemo ? <LogoMark size={20} /> : <ServerIcon size={16} />}</span>
      <span className="provider-chip__text">
        <span className="provider-chip__name">
          {provider ? provider.name || provider.id : t('provider.none')}
          {isDemo && (
            <span className="badge badge--demo" data-testid="demo-badge">
              {t('provider.demoBadge')}
            </span>
          )}
          {isEnv && <span className="badge">{t('provider.envBadge')}</span>}
        </span>
        <span className="provider-chip__model">
          {isDemo ? t('provider.demoHint') : provider?.model || t('provider.noModel')}
        </span>
      </span>
    </button>
  )
}
