import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { api, toApiError, type FileView, type WorkspaceKind } from '../api'
import { selectActiveWorkspace, useStore, type WorkspaceState } from '../store'
import { ancestors, buildTree, foldersWithChanges, formatSize, visibleRows, type TreeNode } from '../lib/tree'
import { ChangesView, OpBadge } from './Changes'
import { CheckpointHistory } from './Undo'
import { WorkspaceDialog } from './WorkspaceDialog'
import {
  AlertIcon,
  ChevronIcon,
  CloseIcon,
  FileIcon,
  FilesIcon,
  FolderIcon,
  FolderOpenIcon,
  InfoIcon,
  RetryIcon,
  SlidersIcon,
} from './icons'

const WIDTH_KEY = 'airlock.filesWidth'
const MIN_W = 280
const MAX_W = 760
const DEFAULT_W = 380

function readWidth(): number {
  try {
    const n = Number(localStorage.getItem(WIDTH_KEY))
    return Number.isFinite(n) && n >= MIN_W && n <= MAX_W ? n : DEFAULT_W
  } catch {
    return DEFAULT_W
  }
}

/** "…/projects/site" for long folder paths (the full path is in the title). */
export function shortDir(dir: string, max = 38): string {
  if (dir.length <= max) return dir
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/'
  const parts = dir.split(sep).filter(Boolean)
  let out = parts.pop() ?? dir
  while (parts.length > 0 && out.length + parts[parts.length - 1].length + 1 <= max - 2) out = `${parts.pop()}${sep}${out}`
  return `…${sep}${out}`
}

/** Scratch / Folder: path / Overlay: path. */
export function WorkspaceChip({ kind, dir, testId = 'workspace-kind', max = 24 }: { kind: WorkspaceKind; dir: string; testId?: string; max?: number }) {
  const { t } = useTranslation()
  return (
    <span
      className={`ws-chip ws-chip--${kind} ${kind !== 'scratch' && dir ? 'has-dir' : ''}`}
      data-testid={testId}
      data-kind={kind}
      title={t(`workspace.kindTitle.${kind}`, { dir })}
    >
      <span className="ws-chip__kind">{t(`workspace.kinds.${kind}`)}</span>
      {kind !== 'scratch' && dir && <span className="ws-chip__dir">{shortDir(dir, max)}</span>}
    </span>
  )
}

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

/** Drag (or arrow keys) to resize the panel; the width is remembered. */
function ResizeHandle({ width, onWidth }: { width: number; onWidth: (w: number) => void }) {
  const { t } = useTranslation()
  const save = (w: number) => {
    const clamped = Math.round(Math.min(MAX_W, Math.max(MIN_W, w)))
    onWidth(clamped)
    try {
      localStorage.setItem(WIDTH_KEY, String(clamped))
    } catch {
      // not remembered
    }
  }
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    e.preventDefault()
    const startX = e.clientX
    const startW = width
    const move = (ev: PointerEvent) => save(startW + (startX - ev.clientX))
    const up = () => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
      document.documentElement.classList.remove('is-resizing')
    }
    document.documentElement.classList.add('is-resizing')
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
  }
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 64 : 16
    if (e.key === 'ArrowLeft') save(width + step)
    else if (e.key === 'ArrowRight') save(width - step)
    else if (e.key === 'Home') save(MAX_W)
    else if (e.key === 'End') save(MIN_W)
    else return
    e.preventDefault()
  }
  return (
    <div
      className="files__resize"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('files.resize')}
      aria-valuemin={MIN_W}
      aria-valuemax={MAX_W}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKey}
      data-testid="files-resize"
    />
  )
}

function FilesEmpty({ kind, isNew }: { kind: WorkspaceKind; isNew?: boolean }) {
  const { t } = useTranslation()
  return (
    <div className="files__empty" data-testid="files-empty">
      <FolderOpenIcon size={28} />
      <p className="files__empty-title">{isNew ? t('files.emptyNewTitle') : t('files.emptyTitle')}</p>
      <p>{t('files.emptyBody')}</p>
      <p className="files__empty-kind">{isNew ? t('files.emptyNew') : t(`files.emptyKind.${kind}`)}</p>
    </div>
  )
}

type Viewer = { path: string; state: 'loading' } | { path: string; state: 'ready'; file: FileView } | { path: string; state: 'error'; message: string; code?: string } | { path: string; state: 'deleted' }

function FilesTree({ chatId, ws, kind, onRetry }: { chatId: string; ws: WorkspaceState; kind: WorkspaceKind; onRetry: () => void }) {
  const { t } = useTranslation()
  const entries = ws.info?.entries
  const tree = useMemo(() => buildTree(entries ?? []), [entries])
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set())
  const [focusPath, setFocusPath] = useState<string | null>(null)
  const [openPath, setOpenPath] = useState<string | null>(null)
  const [viewer, setViewer] = useState<Viewer | null>(null)
  const treeRef = useRef<HTMLDivElement>(null)
  const readSeq = useRef(0)

  // Another chat: start over.
  useEffect(() => {
    setExpanded(new Set())
    setOpenPath(null)
    setViewer(null)
    setFocusPath(null)
  }, [chatId])

  // Folders holding changes open by themselves (once per listing).
  useEffect(() => {
    const withChanges = foldersWithChanges(tree)
    if (withChanges.length === 0) return
    setExpanded((prev) => {
      if (withChanges.every((p) => prev.has(p))) return prev
      const next = new Set(prev)
      for (const p of withChanges) next.add(p)
      return next
    })
  }, [tree])

  const rows = useMemo(() => visibleRows(tree, expanded), [tree, expanded])
  const byPath = useMemo(() => {
    const m = new Map<string, TreeNode>()
    const walk = (list: TreeNode[]) => list.forEach((n) => (m.set(n.path, n), walk(n.children)))
    walk(tree)
    return m
  }, [tree])

  // Read the open file, again after every reload of the workspace (a tool may have changed it).
  useEffect(() => {
    if (!openPath) return
    const node = byPath.get(openPath)
    if (!node || node.isDir) {
      if (ws.info) {
        setOpenPath(null)
        setViewer(null)
      }
      return
    }
    if (node.changed === 'deleted') {
      setViewer({ path: openPath, state: 'deleted' })
      return
    }
    const n = ++readSeq.current
    setViewer((v) => (v && v.path === openPath && v.state === 'ready' ? v : { path: openPath, state: 'loading' }))
    api
      .readWorkspaceFile(chatId, openPath)
      .then((file) => {
        if (n === readSeq.current) setViewer({ path: openPath, state: 'ready', file })
      })
      .catch((err) => {
        const e = toApiError(err)
        if (n === readSeq.current) setViewer({ path: openPath, state: 'error', message: e.message, code: e.code !== 'unknown' ? e.code : undefined })
      })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openPath, ws.version, chatId])

  const toggle = useCallback((path: string, open?: boolean) => {
    setExpanded((prev) => {
      const next = new Set(prev)
      const want = open ?? !prev.has(path)
      if (want) next.add(path)
      else next.delete(path)
      return next
    })
  }, [])

  const activate = (n: TreeNode) => {
    setFocusPath(n.path)
    if (n.isDir) toggle(n.path)
    else setOpenPath(n.path)
  }

  const focusRow = (path: string) => {
    setFocusPath(path)
    requestAnimationFrame(() =>
      treeRef.current?.querySelector<HTMLElement>(`[data-testid="file-entry"][data-path="${CSS.escape(path)}"]`)?.focus(),
    )
  }

  const current = focusPath && rows.some((r) => r.path === focusPath) ? focusPath : rows[0]?.path ?? null

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>, n: TreeNode, i: number) => {
    switch (e.key) {
      case 'ArrowDown':
        if (rows[i + 1]) focusRow(rows[i + 1].path)
        break
      case 'ArrowUp':
        if (rows[i - 1]) focusRow(rows[i - 1].path)
        break
      case 'Home':
        if (rows[0]) focusRow(rows[0].path)
        break
      case 'End':
        if (rows.length) focusRow(rows[rows.length - 1].path)
        break
      case 'ArrowRight':
        if (n.isDir && !expanded.has(n.path)) toggle(n.path, true)
        else if (n.isDir && n.children[0]) focusRow(n.children[0].path)
        break
      case 'ArrowLeft': {
        if (n.isDir && expanded.has(n.path)) toggle(n.path, false)
        else {
          const parent = ancestors(n.path).pop()
          if (parent) focusRow(parent)
        }
        break
      }
      case 'Enter':
      case ' ':
        activate(n)
        break
      default:
        return
    }
    e.preventDefault()
    e.stopPropagation()
  }

  if (ws.error && !ws.info) {
    return (
      <div className="files__error">
        <div className="status-line status-line--error" role="alert" data-testid="files-error">
          <AlertIcon size={15} />
          <span>{ws.error.message}</span>
          {ws.error.code && ws.error.code !== 'unknown' && <code className="status-line__code">{ws.error.code}</code>}
        </div>
        <button type="button" className="btn btn--sm btn--secondary" onClick={onRetry}>
          <RetryIcon size={13} />
          {t('files.retry')}
        </button>
      </div>
    )
  }
  if (!ws.info) {
    return <p className="files__loading">{t('common.loading')}</p>
  }
  if (rows.length === 0) return <FilesEmpty kind={kind} />

  return (
    <div className={`files__split ${viewer ? 'has-viewer' : ''}`}>
      <div className="files__tree" role="tree" aria-label={t('files.treeLabel')} ref={treeRef} data-testid="files-tree">
        {rows.map((n, i) => {
          const isOpen = n.isDir && expanded.has(n.path)
          return (
            <div
              key={n.path}
              role="treeitem"
              className={`file-row ${n.isDir ? 'file-row--dir' : ''} ${openPath === n.path ? 'is-open' : ''} ${
                n.changed ? `file-row--${n.changed}` : ''
              }`}
              style={{ paddingLeft: 8 + n.depth * 14 }}
              aria-level={n.depth + 1}
              aria-expanded={n.isDir ? isOpen : undefined}
              aria-selected={openPath === n.path}
              tabIndex={n.path === current ? 0 : -1}
              data-testid="file-entry"
              data-path={n.path}
              data-kind={n.isDir ? 'dir' : 'file'}
              data-changed={n.changed ?? ''}
              title={n.path}
              onClick={() => activate(n)}
              onFocus={() => setFocusPath(n.path)}
              onKeyDown={(e) => onKeyDown(e, n, i)}
            >
              <span className="file-row__chev" aria-hidden="true">
                {n.isDir && <ChevronIcon size={12} className={isOpen ? 'is-open' : undefined} />}
              </span>
              <span className="file-row__icon" aria-hidden="true">
                {n.isDir ? isOpen ? <FolderOpenIcon size={15} /> : <FolderIcon size={15} /> : <FileIcon size={15} />}
              </span>
              <span className="file-row__name">{n.name}</span>
              {n.isDir && n.changesBelow > 0 && !isOpen && (
                <span className="file-row__dot" title={t('files.changesInside', { count: n.changesBelow })} aria-label={t('files.changesInside', { count: n.changesBelow })} />
              )}
              {!n.isDir && n.changed !== 'deleted' && <span className="file-row__size">{formatSize(n.size)}</span>}
              {n.changed && <OpBadge op={n.changed} />}
            </div>
          )
        })}
        {ws.info.truncated && (
          <p className="files__truncated" data-testid="files-truncated">
            <InfoIcon size={13} />
            {t('files.truncatedList', { count: ws.info.entries.length })}
          </p>
        )}
      </div>
      {viewer && (
        <FileViewer
          viewer={viewer}
          onClose={() => {
            const path = openPath
            setOpenPath(null)
            setViewer(null)
            if (path) focusRow(path)
          }}
        />
      )}
    </div>
  )
}

function FileViewer({ viewer, onClose }: { viewer: Viewer; onClose: () => void }) {
  const { t } = useTranslation()
  const content = viewer.state === 'ready' ? viewer.file.content : ''
  const lineTotal = useMemo(() => (content ? content.replace(/\n$/, '').split('\n').length : 0), [content])
  const gutter = useMemo(() => Array.from({ length: lineTotal }, (_, i) => i + 1).join('\n'), [lineTotal])
  const name = viewer.path.split('/').pop() ?? viewer.path
  return (
    <section className="viewer" data-testid="file-viewer" data-path={viewer.path} aria-label={t('files.viewerLabel', { path: viewer.path })}>
      <div className="viewer__head">
        <FileIcon size={14} />
        <span className="viewer__name" title={viewer.path}>
          {viewer.path.includes('/') && <span className="viewer__dir">{viewer.path.slice(0, viewer.path.length - name.length)}</span>}
          {name}
        </span>
        {viewer.state === 'ready' && (
          <span className="viewer__meta">
            {viewer.file.binary ? formatSize(viewer.file.size) : t('files.lines', { count: lineTotal, size: formatSize(viewer.file.size) })}
          </span>
        )}
        <span className="viewer__readonly">{t('files.readOnly')}</span>
        <button type="button" className="icon-btn icon-btn--sm" onClick={onClose} aria-label={t('files.closeViewer')} title={t('files.closeViewer')} data-testid="viewer-close">
          <CloseIcon size={14} />
        </button>
      </div>
      {viewer.state === 'loading' && <p className="viewer__note">{t('common.loading')}</p>}
      {viewer.state === 'deleted' && (
        <p className="viewer__note" data-testid="viewer-deleted">
          {t('files.deletedNote')}
        </p>
      )}
      {viewer.state === 'error' && (
        <div className="status-line status-line--error viewer__error" role="alert">
          <AlertIcon size={15} />
          <span>{viewer.message}</span>
          {viewer.code && <code className="status-line__code">{viewer.code}</code>}
        </div>
      )}
      {viewer.state === 'ready' && viewer.file.binary && (
        <p className="viewer__note" data-testid="viewer-binary">
          {t('files.binary', { size: formatSize(viewer.file.size) })}
        </p>
      )}
      {viewer.state === 'ready' && !viewer.file.binary && (
        <>
          {viewer.file.truncated && (
            <p className="viewer__note viewer__note--warn" data-testid="viewer-truncated">
              {t('files.truncatedFile', { size: formatSize(viewer.file.size) })}
            </p>
          )}
          {content === '' ? (
            <p className="viewer__note">{t('files.emptyFile')}</p>
          ) : (
            <div className="viewer__code" tabIndex={0} role="region" aria-label={t('files.contentLabel', { path: viewer.path })}>
              <pre className="viewer__gutter" aria-hidden="true">
                {gutter}
              </pre>
              <pre className="viewer__text" data-testid="file-content">
                {content}
              </pre>
            </div>
          )}
        </>
      )}
    </section>
  )
}
