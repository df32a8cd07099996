import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from '../i18n'
import { Virtuoso, VirtuosoMockContext, type VirtuosoHandle } from 'react-virtuoso'
import type { Message } from '../api'
import { useStore } from '../store'
import { isUndecided } from '../store/calls'
import { loadOlder } from '../store/history'
import { registerMessageScroller } from '../lib/scrollToMessage'
import { MessageItem } from './MessageItem'
import { SummaryMark } from './SummaryMark'
import { LoadOlder } from './LoadOlder'
import { ChatNoticeBar } from './ChatNoticeBar'
import { ArrowDownIcon } from './icons'
import './MessageList.css'

// Virtuoso numbers items from firstItemIndex; it goes down as older pages are
// prepended, which is how Virtuoso keeps what is on screen in place.
const BASE_INDEX = 1_000_000_000
// Pixels rendered beyond the viewport: enough that short chats are mounted
// whole, few enough that a 10,000-message chat mounts a few dozen messages.
const OVERSCAN = { top: 4000, bottom: 800 }
// Opening a chat mounts only what is on screen (each message is markdown to
// render: dozens of them made opening a long chat slow); the margin above
// widens step by step to OVERSCAN while the browser is idle after the chat is
// shown: a few messages a step, none while an answer streams (a step is a
// task a delta would wait behind).
const WIDENING = [
  { top: 0, bottom: 0 },
  { top: 600, bottom: 200 },
  { top: 1200, bottom: 400 },
  { top: 2000, bottom: 600 },
  { top: 3000, bottom: 800 },
  OVERSCAN,
]
// Where nothing can be measured (jsdom in unit tests), Virtuoso is told of a
// tall viewport so it mounts every message, as the page did before.
const NO_LAYOUT = typeof ResizeObserver === 'undefined' ? { viewportHeight: 1_000_000, itemHeight: 100 } : undefined

type Props = {
  messages: Message[]
  streaming: boolean
  onRetry: () => void
  chatId: string | null
  paradigm: string
  composerEmpty: boolean
}

/** Keeps Virtuoso's first index stable across appends and moving down by the number of messages prepended. */
function useFirstItemIndex(chatId: string | null, messages: Message[]): number {
  const anchor = useRef<{ chatId: string | null; firstId?: string; index: number }>({ chatId, index: BASE_INDEX })
  const a = anchor.current
  let index = BASE_INDEX
  if (a.chatId === chatId && messages.length > 0) {
    if (messages[0].id === a.firstId) index = a.index
    else {
      const k = messages.findIndex((m) => m.id === a.firstId)
      index = k > 0 ? a.index - k : a.index
    }
  }
  anchor.current = { chatId, firstId: messages[0]?.id, index }
  return index
}

/**
 * The open chat's messages, virtualized (react-virtuoso): only those near the
 * viewport are mounted. Follows the stream while at the bottom, loads older
 * pages at the top, and scrolls to a message by id (scrollToMessage).
 */
export function MessageList(props: Props) {
  // A chat of its own list: it opens at its newest message.
  return <ChatMessages key={props.chatId ?? ''} {...props} />
}

function ChatMessages({ messages, streaming, onRetry, chatId, paradigm, composerEmpty }: Props) {
  const { t } = useTranslation()
  const virtuoso = useRef<VirtuosoHandle>(null)
  const scroller = useRef<HTMLElement | null>(null)
  const callsByMessage = useStore((s) => s.callsByMessage)
  const stick = useRef(true)
  const [atBottom, setAtBottom] = useState(true)
  const firstItemIndex = useFirstItemIndex(chatId, messages)
  const list = useRef(messages)
  list.current = messages
  const [step, setStep] = useState(NO_LAYOUT ? WIDENING.length - 1 : 0)
  const overscan = WIDENING[step]
  useEffect(() => {
    if (overscan === OVERSCAN || streaming) return
    const next = () => setStep((n) => Math.min(n + 1, WIDENING.length - 1))
    let idle = 0
    const frame = requestAnimationFrame(() => {
      idle = typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(next, { timeout: 1000 })
        : window.setTimeout(next, 100)
    })
    return () => {
      cancelAnimationFrame(frame)
      if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle)
      else window.clearTimeout(idle)
    }
  }, [overscan, streaming])

  const toBottom = useCallback(() => {
    const el = scroller.current
    if (el) el.scrollTop = el.scrollHeight
  }, [])

  // Only the person scrolling changes whether we follow (growing content fires no scroll event).
  const onScroll = useCallback(() => {
    const el = scroller.current
    if (!el) return
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < 48
    stick.current = bottom
    setAtBottom(bottom)
  }, [])
  const setScroller = useCallback(
    (el: HTMLElement | Window | null) => {
      scroller.current?.removeEventListener('scroll', onScroll)
      scroller.current = el instanceof HTMLElement ? el : null
      scroller.current?.addEventListener('scroll', onScroll, { passive: true })
    },
    [onScroll],
  )

  // Follow the stream (text, forming cards, new cards) unless the person scrolled up.
  useLayoutEffect(() => {
    if (stick.current) toBottom()
  }, [messages, toBottom])
  const onHeight = useCallback(() => {
    if (stick.current) toBottom()
  }, [toBottom])

  // Sending a message always brings us back down.
  const lastUserId = [...messages].reverse().find((m) => m.role === 'user')?.id
  const firstRender = useRef(true)
  useLayoutEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    stick.current = true
    setAtBottom(true)
    virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' })
    toBottom()
  }, [lastUserId, toBottom])

  // Scroll to a message by id (search hits, find in chat, the activity view).
  useEffect(
    () =>
      registerMessageScroller((id) => {
        const index = list.current.findIndex((m) => m.id === id)
        if (index < 0 || !virtuoso.current) return false
        stick.current = false
        setAtBottom(false)
        virtuoso.current.scrollToIndex({ index, align: 'center' })
        return true
      }),
    [],
  )

  const jump = () => {
    stick.current = true
    setAtBottom(true)
    virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'smooth' })
  }

  let lastAssistant = -1
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'assistant') {
      lastAssistant = i
      break
    }
  }
  const lastAssistantId = lastAssistant >= 0 ? messages[lastAssistant].id : null

  // New cards grow the list: stay at the bottom if we were there.
  const lastCalls = lastAssistantId ? callsByMessage[lastAssistantId] : undefined
  useLayoutEffect(() => {
    if (stick.current) toBottom()
  }, [lastCalls, toBottom])

  // When the latest answer gets cards waiting for a decision, focus the first
  // one (Enter runs it) — unless the person is typing somewhere.
  const firstWaiting = lastCalls?.find(isUndecided)?.id
  const autoFocused = useRef<string | null>(null)
  useEffect(() => {
    if (!firstWaiting || lastAssistant !== messages.length - 1 || !lastAssistantId) return
    if (autoFocused.current === lastAssistantId) return
    autoFocused.current = lastAssistantId
    // Someone typing (or a dialog open) keeps their focus: asked again when the card is there.
    const busy = () => {
      const active = document.activeElement as HTMLElement | null
      const isComposer = active?.getAttribute('data-testid') === 'composer'
      const typing =
        !!active &&
        active !== document.body &&
        ((isComposer && !composerEmpty) ||
          (!isComposer && (active.tagName === 'INPUT' || active.tagName === 'TEXTAREA' || active.tagName === 'SELECT' || active.isContentEditable)))
      return typing || !!document.querySelector('[role="dialog"][aria-modal="true"]')
    }
    if (busy()) return
    // The card may still be arriving (its lazy chunk on a slow first load) or not yet
    // focusable (the list shows a new item once measured): try for up to 3 s.
    const started = performance.now()
    let frame = 0
    const focus = () => {
      if (busy()) return
      const card = scroller.current?.querySelector<HTMLElement>(`[data-testid="tool-card"][data-call-id="${CSS.escape(firstWaiting)}"]`)
      card?.focus({ preventScroll: !stick.current })
      if (document.activeElement !== card && performance.now() - started < 3000) frame = requestAnimationFrame(focus)
    }
    focus()
    return () => cancelAnimationFrame(frame)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstWaiting])

  const last = messages[messages.length - 1]
  const showContinue = !!last && last.role === 'user' && last.kind === 'tool_results' && !streaming

  const itemContent = useCallback(
    (_: number, m: Message) => (
      <div className="messages__item">
        <MessageItem message={m} canRetry={m.id === lastAssistantId && !streaming} onRetry={onRetry} paradigm={paradigm} />
        <SummaryMark chatId={chatId} messageId={m.id} />
      </div>
    ),
    [lastAssistantId, streaming, onRetry, paradigm, chatId],
  )
  const Header = useCallback(() => <div className="messages__head">{chatId && <LoadOlder chatId={chatId} />}</div>, [chatId])
  const Footer = useCallback(
    () => <div className="messages__foot">{chatId && <ChatNoticeBar chatId={chatId} canContinue={showContinue} />}</div>,
    [chatId, showContinue],
  )

  return (
    <div className="messages-frame">
      <VirtuosoMockContext.Provider value={NO_LAYOUT}>
      <Virtuoso
        ref={virtuoso}
        className="messages"
        role="log"
        aria-live="off"
        aria-label={t('chat.messages')}
        scrollerRef={setScroller}
        data={messages}
        firstItemIndex={firstItemIndex}
        // No initialTopMostItemIndex: Virtuoso keeps the list hidden for four
        // frames and until its scroll lands (up to 1.2 s when nothing scrolls),
        // which made opening a chat slow and hid a fresh chat's first answer.
        // The list starts at the end through our stick-to-bottom (toBottom in
        // a layout effect), which a jump to a message turns off first.
        computeItemKey={(_: number, m: Message) => m.id}
        itemContent={itemContent}
        components={{ Header, Footer }}
        increaseViewportBy={overscan}
        defaultItemHeight={120}
        followOutput={() => (stick.current ? 'auto' : false)}
        totalListHeightChanged={onHeight}
        startReached={() => {
          if (chatId) void loadOlder(chatId)
        }}
      />
      </VirtuosoMockContext.Provider>
      {!atBottom && (
        <button type="button" className="jump-btn" onClick={jump} aria-label={t('chat.jumpToLatest')}>
          <ArrowDownIcon size={16} />
          {streaming && last?.status === 'streaming' ? t('chat.following') : t('chat.jumpToLatest')}
        </button>
      )}
    </div>
  )
}
