// A workspace file opened read-only, with line numbers.
import './FileViewer.css'
import { useMemo, type ReactNode } from 'react'
import { useTranslation } from '../i18n'
import { type FileView } from '../api'
import { formatSize } from '../lib/tree'
import { AlertIcon, CloseIcon, FileIcon } from './icons'
import { PaperclipIcon } from './Attachments'

export type Viewer = { path: string; state: 'loading' } | { path: string; state: 'ready'; file: FileView } | { path: string; state: 'error'; message: string; code?: string } | { path: string; state: 'deleted' }

/** actions: what the head offers for the file (FileMenu); onAttach: Attach to message, in a row under the head. */
export function FileViewer({
  viewer,
  onClose,
  actions,
  onAttach,
}: {
  viewer: Viewer
  onClose: () => void
  actions?: ReactNode
  onAttach?: () => void
}) {
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
        {actions}
        <button type="button" className="icon-btn icon-btn--sm" onClick={onClose} aria-label={t('files.closeViewer')} title={t('files.closeViewer')} data-testid="viewer-close">
          <CloseIcon size={14} />
        </button>
      </div>
      {onAttach && viewer.state === 'ready' && (
        <div className="viewer__actions">
          <button type="button" className="viewer__attach" onClick={onAttach} title={t('attachments.attachToMessageHint')} data-testid="attach-file">
            <PaperclipIcon size={13} />
            <span>{t('attachments.attachToMessage')}</span>
          </button>
        </div>
      )}
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
