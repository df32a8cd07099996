import './ChatView.css'
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { wantAddProvider } from '../lib/settingsIntent'
import { useTranslation } from 'react-i18next'
import { DEMO_PROVIDER_ID, type Message } from '../api'
import {
  NEW_CHAT_DRAFT,
  selectActiveChatOptions,
  selectActiveMessages,
  selectActiveProvider,
  selectActiveWorkspace,
  selectIsStreaming,
  selectWaitingCount,
  useStore,
} from '../store'
import { isUndecided } from '../store/calls'
import { ChatOptionsButton } from './ChatOptions'
import { FilesPanel } from './FilesPanel'
import { Composer, type ComposerHandle } from './Composer'
import { MessageItem } from './MessageItem'
import { FindInChat } from './FindInChat'
import { ActivityButton } from './policy/ActivityButton'
import { LoadOlder } from './LoadOlder'
import { AlertIcon, ArrowDownIcon, CloseIcon, FilesIcon, InfoIcon, LogoMark, PlayIcon, SparkIcon } from './icons'

export function ChatView() {
  const { t } = useTranslation()
  const activeChatId = useStore((s) => s.activeChatId)
  const chat = useStore((s) => s.chats.find((c) => c.id === s.activeChatId) ?? null)
  const messages = useStore(selectActiveMessages)
  const loading = useStore((s) => (s.activeChatId ? !!s.loadingChat[s.activeChatId] : false))
  const streaming = useStore((s) => selectIsStreaming(s, s.activeChatId))
  const provider = useStore(selectActiveProvider)
  const draft = useStore((s) => s.drafts[s.activeChatId ?? NEW_CHAT_DRAFT] ?? '')
  const focusTick = useStore((s) => s.focusComposerTick)
  const send = useStore((s) => s.send)
  const stop = useStore((s) => s.stop)
  const retry = useStore((s) => s.retry)
  const setDraft = useStore((s) => s.setDraft)
  const waiting = useStore(selectWaitingCount)
  const paradigm = useStore((s) => selectActiveChatOptions(s).paradigm)
  const filesOpen = useStore((s) => s.filesOpen)
  const composer = useRef<ComposerHandle>(null)

  useEffect(() => {
    composer.current?.focus()
  }, [focusTick])

  const onSend = useCallback((text: string) => send(text), [send])
  const onStop = useCallback(() => void stop(), [stop])
  const onRetry = useCallback(() => void retry(), [retry])
  const draftKey = activeChatId ?? NEW_CHAT_DRAFT
  const onDraftChange = useCallback((text: string) => setDraft(draftKey, text), [setDraft, draftKey])

  const isEmpty = messages.length === 0 && !loading
  const modelLabel = provider ? provider.model || provider.name : ''

  return (
    <div className={`chat-area ${filesOpen ? 'has-files' : ''}`}>
      <main className="chat" aria-label={t('chat.label')}>
        <header className="chat__header">
          <div className="chat__heading">
            <h1 className="chat__title" title={chat?.title || undefined}>
              {chat ? chat.title || t('chat.untitled') : t('chat.newChat')}
            </h1>
            {provider && (
              <span className="chat__model" title={provider.baseUrl || undefined}>
                <span className="chat__model-dot" aria-hidden="true" />
                {modelLabel}
                {provider.id === DEMO_PROVIDER_ID && <span className="badge badge--demo">{t('provider.demoBadge')}</span>}
              </span>
            )}
          </div>
          <div className="chat__header-end">
            {streaming ? (
              <span className="chat__status" role="status">
                <span className="live-dot" aria-hidden="true" />
                {t('chat.generating')}
              </span>
            ) : waiting > 0 ? (
              <span className="chat__status chat__status--waiting" role="status" data-testid="waiting-status">
                <span className="waiting-dot" aria-hidden="true" />
                {t('chat.waitingForYou', { count: waiting })}
              </span>
            ) : null}
            <FindInChat />
            <ActivityButton />
            <ChatOptionsButton />
            <FilesToggle />
          </div>
        </header>

        {isEmpty ? (
          <EmptyState onPick={onSend} disabled={streaming} />
        ) : (
          <MessageList
            messages={messages}
            streaming={streaming}
            onRetry={onRetry}
            chatId={activeChatId}
            paradigm={paradigm}
            composerEmpty={draft.trim() === ''}
          />
        )}

        <div className="chat__composer">
          <Composer
            ref={composer}
            value={draft}
            onChange={onDraftChange}
            streaming={streaming}
            onSend={onSend}
            onStop={onStop}
            hint={waiting > 0 ? t('composer.hintWaiting', { count: waiting }) : undefined}
          />
        </div>
      </main>
      {filesOpen && <FilesPanel />}
    </div>
  )
}

/** The header button that shows/hides the files panel (Ctrl+Shift+E); counts an overlay's pending changes. */
function FilesToggle() {
  const { t } = useTranslation()
  const open = useStore((s) => s.filesOpen)
  const toggle = useStore((s) => s.toggleFiles)
  const kind = useStore((s) => selectActiveWorkspace(s).kind)
  const pending = useStore((s) => (s.activeChatId ? s.workspaces[s.activeChatId]?.changes.length ?? 0 : 0))
  const label = open ? t('files.hide') : t('files.show')
  return (
    <button
      type="button"
      className={`files-toggle ${open ? 'is-open' : ''}`}
      data-testid="files-toggle"
      aria-pressed={open}
      aria-keyshortcuts="Control+Shift+E"
      title={`${label} (Ctrl+Shift+E)`}
      onClick={() => toggle()}
    >
      <FilesIcon size={15} />
      <span className="files-toggle__label">{t('files.title')}</span>
      {kind === 'overlay' && pending > 0 && (
        <span className="files-toggle__count" data-testid="files-pending" aria-label={t('files.pending', { count: pending })}>
          {pending}
        </span>
      )}
    </button>
  )
}

function MessageList({
  messages,
  streaming,
  onRetry,
  chatId,
  paradigm,
  composerEmpty,
}: {
  messages: Message[]
  streaming: boolean
  onRetry: () => void
  chatId: string | null
  paradigm: string
  composerEmpty: boolean
}) {
  const { t } = useTranslation()
  const scroller = useRef<HTMLDivElement>(null)
  const callsByMessage = useStore((s) => s.callsByMessage)
  const stick = useRef(true)
  const [atBottom, setAtBottom] = useState(true)

  // A new chat starts at the bottom.
  useLayoutEffect(() => {
    stick.current = true
    const el = scroller.current
    if (el) el.scrollTop = el.scrollHeight
  }, [chatId])

  // Follow the stream unless the person scrolled up.
  useLayoutEffect(() => {
    const el = scroller.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }, [messages])

  // Sending a message always brings us back down.
  const lastUserId = [...messages].reverse().find((m) => m.role === 'user')?.id
  useLayoutEffect(() => {
    stick.current = true
    setAtBottom(true)
    const el = scroller.current
    if (el) el.scrollTop = el.scrollHeight
  }, [lastUserId])

  const onScroll = () => {
    const el = scroller.current
    if (!el) return
    const gap = el.scrollHeight - el.scrollTop - el.clientHeight
    const bottom = gap < 48
    stick.current = bottom
    if (bottom !== atBottom) setAtBottom(bottom)
  }

  const jump = () => {
    const el = scroller.current
    if (!el) return
    stick.current = true
    el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' })
  }

  let lastAssistant = -1
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'assistant') {
      lastAssistant = i
      break
    }
  }

  // Cards forming while the model writes grow the answer without a delta: keep following it.
  useEffect(() => {
    const el = scroller.current
    const inner = el?.firstElementChild
    if (!streaming || !el || !inner || typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight
    })
    ro.observe(inner)
    return () => ro.disconnect()
  }, [streaming])

  // New cards grow the list: stay at the bottom if we were there.
  const lastCalls = lastAssistant >= 0 ? callsByMessage[messages[lastAssistant].id] : undefined
  useLayoutEffect(() => {
    const el = scroller.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }, [lastCalls])

  // When the latest answer gets cards waiting for a decision, focus the first
  // one (Enter runs it) — unless the person is typing somewhere.
  const firstWaiting = lastCalls?.find(isUndecided)?.id
  const autoFocused = useRef<string | null>(null)
  useEffect(() => {
    if (!firstWaiting || lastAssistant !== messages.length - 1) return
    const msgId = messages[lastAssistant].id
    if (autoFocused.current === msgId) return
    autoFocused.current = msgId
    const active = document.activeElement as HTMLElement | null
    const isComposer = active?.getAttribute('data-testid') === 'composer'
    const typing =
      !!active &&
      active !== document.body &&
      ((isComposer && !composerEmpty) ||
        (!isComposer && (active.tagName === 'INPUT' || active.tagName === 'TEXTAREA' || active.tagName === 'SELECT' || active.isContentEditable)))
    if (typing || document.querySelector('[role="dialog"][aria-modal="true"]')) return
    const card = scroller.current?.querySelector<HTMLElement>(`[data-testid="tool-card"][data-call-id="${CSS.escape(firstWaiting)}"]`)
    card?.focus({ preventScroll: !stick.current })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstWaiting])

  const last = messages[messages.length - 1]
  const showContinue = !!last && last.role === 'user' && last.kind === 'tool_results' && !streaming

  return (
    <div className="messages" ref={scroller} onScroll={onScroll} role="log" aria-live="off" aria-label={t('chat.messages')}>
      <div className="messages__inner">
        {chatId && <LoadOlder chatId={chatId} scroller={scroller} />}
        {messages.map((m, i) => (
          <MessageItem
            key={m.id}
            message={m}
            canRetry={i === lastAssistant && !streaming}
            onRetry={onRetry}
            paradigm={paradigm}
          />
        ))}
        {chatId && <ChatNoticeBar chatId={chatId} canContinue={showContinue} />}
      </div>
      {!atBottom && (
        <button type="button" className="jump-btn" onClick={jump} aria-label={t('chat.jumpToLatest')}>
          <ArrowDownIcon size={16} />
          {streaming && last?.status === 'streaming' ? t('chat.following') : t('chat.jumpToLatest')}
        </button>
      )}
    </div>
  )
}

/**
 * The bottom of the chat when the loop waits: tool results not yet sent
 * (auto-continue off, or the turn cap paused it) get a Continue button; other
 * notices (e.g. the next turn failed to start) are shown with a dismiss.
 */
function ChatNoticeBar({ chatId, canContinue }: { chatId: string; canContinue: boolean }) {
  const { t } = useTranslation()
  const notice = useStore((s) => s.notices[chatId])
  const continueChat = useStore((s) => s.continueChat)
  const dismiss = useStore((s) => s.dismissNotice)
  const [busy, setBusy] = useState(false)
  if (!canContinue && !notice) return null
  const paused = notice?.code === 'turn_cap'
  const learned = notice?.code === 'tool_mode_learned'
  const problem = !!notice && !paused && !learned
  const text = notice ? notice.message : t('continue.ready')
  return (
    <div
      className={`notice-bar ${problem ? 'notice-bar--error' : paused ? 'notice-bar--paused' : ''}`}
      data-testid="chat-notice"
      data-code={notice?.code ?? 'results_waiting'}
      role={problem ? 'alert' : 'status'}
    >
      {problem ? <AlertIcon size={16} /> : <InfoIcon size={16} />}
      <div className="notice-bar__body">
        <p className="notice-bar__title">
          {paused ? t('notices.turnCapTitle') : learned ? t('notices.toolModeTitle') : problem ? t('notices.title') : t('continue.title')}
        </p>
        <p className="notice-bar__text">{text}</p>
      </div>
      {canContinue && (
        <button
          type="button"
          className="btn btn--sm btn--primary"
          data-testid="continue"
          disabled={busy}
          onClick={async () => {
            setBusy(true)
            await continueChat(chatId)
            setBusy(false)
          }}
        >
          {busy ? <span className="spinner" aria-hidden="true" /> : <PlayIcon size={12} />}
          {t('continue.button')}
        </button>
      )}
      {notice && !canContinue && (
        <button type="button" className="icon-btn icon-btn--sm" onClick={() => dismiss(chatId)} aria-label={t('common.dismiss')}>
          <CloseIcon size={14} />
        </button>
      )}
    </div>
  )
}

const SUGGESTIONS = ['whatIs', 'tools', 'markdown', 'think', 'story', 'error'] as const

function EmptyState({ onPick, disabled }: { onPick: (text: string) => Promise<boolean>; disabled: boolean }) {
  const { t } = useTranslation()
  const provider = useStore(selectActiveProvider)
  const openSettings = useStore((s) => s.openSettings)
  const isDemo = !!provider && (provider.demo || provider.id === DEMO_PROVIDER_ID)
  return (
    <div className="empty">
      <div className="empty__inner">
        <div className="empty__mark">
          <LogoMark size={44} />
        </div>
        <h2 className="empty__title">{t('empty.title')}</h2>
        <p className="empty__sub">
          {provider ? t('empty.subtitle', { model: provider.model || provider.name }) : t('empty.noProvider')}
        </p>
        <ul className="suggestions" aria-label={t('empty.suggestions')}>
          {SUGGESTIONS.map((k) => (
            <li key={k}>
              <button
                type="button"
                className="suggestion"
                data-testid="suggestion"
                data-key={k}
                disabled={disabled}
                onClick={() => void onPick(t(`empty.prompts.${k}.prompt`))}
              >
                <span className="suggestion__title">{t(`empty.prompts.${k}.prompt`)}</span>
                <span className="suggestion__desc">{t(`empty.prompts.${k}.desc`)}</span>
              </button>
            </li>
          ))}
        </ul>
        {isDemo && (
          <p className="empty__demo">
            <SparkIcon size={14} />
            <span>{t('empty.demoNote')}</span>
            <button
              type="button"
              className="link-btn"
              data-testid="connect-real-model"
              onClick={() => {
                wantAddProvider()
                openSettings('providers')
              }}
            >
              {t('empty.addProvider')}
            </button>
          </p>
        )}
      </div>
    </div>
  )
}
