import './FilesPanel.css'
import { useEffect, useId, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import { selectActiveWorkspace, useStore, type WorkspaceState } from '../store'
import { ChangesView } from './Changes'
import { CheckpointHistory } from './Undo'
import { WorkspaceDialog } from './WorkspaceDialog'
import { CloseIcon, FilesIcon, RetryIcon, SlidersIcon } from './icons'
import { readWidth, ResizeHandle } from './FilesResize'
import { FilesEmpty, FilesTree } from './FilesTree'
import { WorkspaceChip } from './WorkspaceChip'

type Tab = 'files' | 'changes'
const NO_WS: WorkspaceState = { info: null, changes: [], loading: false, error: null, version: 0 }

/** The files panel: the chat's workspace as a tree, a read-only viewer, and an overlay's changes. */
export function FilesPanel() {
  const { t } = useTranslation()
  const chatId = useStore((s) => s.activeChatId)
  const kind = useStore((s) => selectActiveWorkspace(s).kind)
  const dir = useStore((s) => selectActiveWorkspace(s).dir)
  const ws = useStore((s) => (s.activeChatId ? s.workspaces[s.activeChatId] ?? NO_WS : NO_WS))
  const loadWorkspace = useStore((s) => s.loadWorkspace)
  const toggleFiles = useStore((s) => s.toggleFiles)
  const focusComposer = useStore((s) => s.focusComposer)
  const [tab, setTab] = useState<Tab>('files')
  const [settingsOpen, setSettingsOpen] = useState(false)
  const [width, setWidth] = useState(readWidth)
  const ids = useId()

  // The panel opened, or another chat: load what is there now.
  useEffect(() => {
    if (chatId) void loadWorkspace(chatId)
    setTab('files')
  }, [chatId, loadWorkspace])

  const isOverlay = (ws.info?.kind ?? kind) === 'overlay'
  // A folder's second tab is its History (the checkpoints Undo puts back).
  const hasTabs = isOverlay || (ws.info?.kind ?? kind) === 'folder'
  useEffect(() => {
    if (!hasTabs) setTab('files')
  }, [hasTabs])

  const close = () => {
    toggleFiles(false)
    focusComposer()
  }

  const onPanelKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape' && !e.defaultPrevented && !settingsOpen) {
      // Esc inside the panel gives focus back to the conversation (the panel stays open).
      e.preventDefault()
      focusComposer()
    }
  }

  const changeCount = ws.changes.length
  const tabs: Tab[] = ['files', 'changes']
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return
    e.preventDefault()
    const next = tab === 'files' ? 'changes' : 'files'
    setTab(next)
    requestAnimationFrame(() => document.getElementById(`${ids}-tab-${next}`)?.focus())
  }

  return (
    <aside
      className="files"
      style={{ width }}
      aria-label={t('files.title')}
      data-testid="files-panel"
      data-kind={kind}
      onKeyDown={onPanelKey}
    >
      <ResizeHandle width={width} onWidth={setWidth} />
      <header className="files__header">
        <div className="files__title-row">
          <FilesIcon size={16} />
          <h2 className="files__title">{t('files.title')}</h2>
          <WorkspaceChip kind={kind} dir={dir} />
          <span className="files__spacer" />
          {chatId && (
            <button
              type="button"
              className="icon-btn icon-btn--sm"
              onClick={() => void loadWorkspace(chatId)}
              aria-label={t('files.refresh')}
              title={t('files.refresh')}
              data-testid="files-refresh"
            >
              <RetryIcon size={14} className={ws.loading ? 'is-spinning' : undefined} />
            </button>
          )}
          <button
            type="button"
            className="icon-btn icon-btn--sm"
            onClick={() => setSettingsOpen(true)}
            aria-label={t('workspace.settings')}
            title={t('workspace.settings')}
            aria-haspopup="dialog"
            data-testid="workspace-settings"
          >
            <SlidersIcon size={15} />
          </button>
          <button
            type="button"
            className="icon-btn icon-btn--sm"
            onClick={close}
            aria-label={t('files.close')}
            title={t('files.close')}
            data-testid="files-close"
          >
            <CloseIcon size={15} />
          </button>
        </div>
        {hasTabs && chatId && (
          <div className="files__tabs" role="tablist" aria-label={t('files.title')}>
            {tabs.map((k) => (
              <button
                key={k}
                id={`${ids}-tab-${k}`}
                type="button"
                role="tab"
                className="files__tab"
                aria-selected={tab === k}
                aria-controls={`${ids}-panel`}
                tabIndex={tab === k ? 0 : -1}
                data-testid={k === 'files' ? 'files-tab' : isOverlay ? 'changes-tab' : 'history-tab'}
                onClick={() => setTab(k)}
                onKeyDown={onTabKey}
              >
                {k === 'files' ? t('files.tabFiles') : isOverlay ? t('files.tabChanges', { count: changeCount }) : t('undo.historyTab')}
                {k === 'changes' && changeCount > 0 && <span className="files__tab-count" aria-hidden="true" />}
              </button>
            ))}
          </div>
        )}
      </header>

      <div
        className="files__body"
        id={`${ids}-panel`}
        role={hasTabs && chatId ? 'tabpanel' : undefined}
        aria-labelledby={hasTabs && chatId ? `${ids}-tab-${tab}` : undefined}
      >
        {!chatId ? (
          <FilesEmpty kind={kind} isNew />
        ) : tab === 'changes' && isOverlay ? (
          <ChangesView chatId={chatId} ws={ws} />
        ) : tab === 'changes' && hasTabs ? (
          <CheckpointHistory chatId={chatId} />
        ) : (
          <FilesTree chatId={chatId} ws={ws} kind={kind} onRetry={() => void loadWorkspace(chatId)} />
        )}
      </div>

      <WorkspaceDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </aside>
  )
}

