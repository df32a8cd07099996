import './ChatView.css'
import { Suspense, useCallback, useEffect, useRef } from 'react'
import { wantAddProvider } from '../lib/settingsIntent'
import { useTranslation } from '../i18n'
import { DEMO_PROVIDER_ID, type NewAttachment } from '../api'
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
import { ChatOptionsButton } from './ChatOptions'
import { AgentChip } from './AgentChip'
import { ChatToolsDialog } from './ChatTools'
import { ModelChip } from './ModelPicker'
import { ContextGauge, ContextWarning } from './ContextGauge'
import { Composer, type ComposerHandle } from './Composer'
import { FindInChat } from './FindInChat'
import { ActivityButton } from './policy/ActivityButton'
import { lazyWithPreload } from '../lib/lazy'
import { FilesIcon, LogoMark, SparkIcon } from './icons'
import { NewChatWorkspaceError } from './WorkspaceFix'
import { ChatSignIn } from './ChatSignIn'

// The files panel (tree, editor, changes) is its own chunk, loaded when first opened.
const FilesPanel = lazyWithPreload(() => import('./FilesPanel').then((m) => ({ default: m.FilesPanel })))

// The message list (virtualizer, messages, markdown) is not needed for the
// first paint of a new chat: its own chunk, preloaded while idle after start.
const MessageList = lazyWithPreload(() => import('./MessageList').then((m) => ({ default: m.MessageList })))
export const preloadMessageList = () => void MessageList.preload()

export function ChatView() {
  const { t } = useTranslation()
  const activeChatId = useStore((s) => s.activeChatId)
  const chat = useStore((s) => s.chats.find((c) => c.id === s.activeChatId) ?? null)
  const messages = useStore(selectActiveMessages)
  const loading = useStore((s) => (s.activeChatId ? !!s.loadingChat[s.activeChatId] : false))
  const streaming = useStore((s) => selectIsStreaming(s, s.activeChatId))
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

  const onSend = useCallback((text: string, files?: NewAttachment[]) => send(text, files), [send])
  const onStop = useCallback(() => void stop(), [stop])
  const onRetry = useCallback(() => void retry(), [retry])
  const draftKey = activeChatId ?? NEW_CHAT_DRAFT
  const onDraftChange = useCallback((text: string) => setDraft(draftKey, text), [setDraft, draftKey])

  const isEmpty = messages.length === 0 && !loading

  return (
    <div className={`chat-area ${filesOpen ? 'has-files' : ''}`}>
      <main
        className="chat"
        aria-label={t('chat.label')}
        onDragOver={(e) => e.dataTransfer.types.includes('Files') && e.preventDefault()}
        onDrop={(e) => {
          // Files dropped anywhere on the chat are attached to the message being written.
          const files = [...e.dataTransfer.files]
          if (!files.length) return
          e.preventDefault()
          composer.current?.addFiles(files)
        }}
      >
        <header className="chat__header">
          <div className="chat__heading">
            <h1 className="chat__title" title={chat?.title || undefined}>
              {chat ? chat.title || t('chat.untitled') : t('chat.newChat')}
            </h1>
            <AgentChip />
            <ModelChip />
          </div>
          <div className="chat__header-end">
            {streaming ? (
              <span className="chat__status" role="status">
                <span className="live-dot" aria-hidden="true" />
                {t('chat.generating')}
              </span>
            ) : waiting > 0 ? (
              <span className="chat__status chat__status--waiting" role="status" data-testid="waiting-status" title={t('chat.waitingForYou', { count: waiting })}>
                <span className="waiting-dot" aria-hidden="true" />
                <span className="chat__status-text">{t('chat.waitingForYou', { count: waiting })}</span>
                <span className="chat__status-count" aria-hidden="true">
                  {waiting}
                </span>
              </span>
            ) : null}
            <ContextGauge />
            <FindInChat />
            <ActivityButton />
            <ChatOptionsButton />
            <FilesToggle />
          </div>
        </header>

        {isEmpty ? (
          <EmptyState onPick={onSend} disabled={streaming} />
        ) : (
          <Suspense fallback={<div style={{ flex: 1 }} aria-busy="true" />}>
          <MessageList
            messages={messages}
            streaming={streaming}
            onRetry={onRetry}
            chatId={activeChatId}
            paradigm={paradigm}
            composerEmpty={draft.trim() === ''}
          />
          </Suspense>
        )}

        <div className="chat__composer">
          <ContextWarning />
          <NewChatWorkspaceError />
          <ChatSignIn />
          <Composer
            ref={composer}
            value={draft}
            onChange={onDraftChange}
            streaming={streaming}
            onSend={onSend}
            onStop={onStop}
            chatId={activeChatId}
            hint={waiting > 0 ? t('composer.hintWaiting', { count: waiting }) : undefined}
          />
        </div>
      </main>
      <ChatToolsDialog />
      {filesOpen && (
        <Suspense fallback={<aside className="files-panel lazy-fallback" aria-busy="true" />}>
          <FilesPanel />
        </Suspense>
      )}
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
