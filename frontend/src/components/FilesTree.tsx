// The Files tab: the workspace tree (keyboard-navigable) and the file opened from it.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import { errorSentence } from '../i18n/backendText'
import { toApiError, type WorkspaceKind } from '../api'
import { type WorkspaceState } from '../store'
import { readWorkspaceFile } from '../store/requests'
import { ancestors, buildTree, foldersWithChanges, formatSize, visibleRows, type TreeNode } from '../lib/tree'
import { OpBadge } from './OpBadge'
import { AlertIcon, ChevronIcon, FileIcon, FolderIcon, FolderOpenIcon, InfoIcon, RetryIcon } from './icons'
import { FileViewer, type Viewer } from './FileViewer'
import { useAttachFile } from './useAttachFile'
import { FileMenu } from './FileMenu'
import { WorkspaceFix } from './WorkspaceFix'

export function FilesEmpty({ kind, isNew }: { kind: WorkspaceKind; isNew?: boolean }) {
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

export function FilesTree({ chatId, ws, kind, onRetry }: { chatId: string; ws: WorkspaceState; kind: WorkspaceKind; onRetry: () => void }) {
  const { t } = useTranslation()
  const entries = ws.info?.entries
  const tree = useMemo(() => buildTree(entries ?? []), [entries])
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set())
  const [focusPath, setFocusPath] = useState<string | null>(null)
  const [openPath, setOpenPath] = useState<string | null>(null)
  const [viewer, setViewer] = useState<Viewer | null>(null)
  const treeRef = useRef<HTMLDivElement>(null)
  const readSeq = useRef(0)
  const attachFile = useAttachFile(chatId)

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
    readWorkspaceFile(chatId, openPath)
      .then((file) => {
        if (n === readSeq.current) setViewer({ path: openPath, state: 'ready', file })
      })
      .catch((err) => {
        const e = toApiError(err)
        if (n === readSeq.current) setViewer({ path: openPath, state: 'error', message: errorSentence(t, e), code: e.code !== 'unknown' ? e.code : undefined })
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
          <span>{errorSentence(t, ws.error)}</span>
          {ws.error.code && ws.error.code !== 'unknown' && <code className="status-line__code">{ws.error.code}</code>}
        </div>
        <div className="files__fix">
          <button type="button" className="btn btn--sm btn--secondary" onClick={onRetry}>
            <RetryIcon size={13} />
            {t('files.retry')}
          </button>
          {/* The chat's folder cannot be opened (it vanished): the same way out as the chat offers. */}
          {kind !== 'scratch' && <WorkspaceFix chatId={chatId} />}
        </div>
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
          actions={viewer.state === 'ready' ? <FileMenu chatId={chatId} kind={ws.info.kind} path={viewer.path} /> : undefined}
          onAttach={() => attachFile(viewer.path)}
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
