import './WorkspaceDialog.css'
import { useEffect, useId, useRef, useState } from 'react'
import { keepFocus } from '../lib/focus'
import { useTranslation } from '../i18n'
import { errorSentence } from '../i18n/backendText'
import { toApiError, type WorkspaceKind } from '../api'
import { pickFolder } from '../store/requests'
import { selectActiveWorkspace, useStore } from '../store'
import { cleanFolder } from '../lib/tree'
import { ConfirmDialog, Dialog } from './Dialog'
import { AlertIcon, FolderOpenIcon, RetryIcon } from './icons'

const KINDS: WorkspaceKind[] = ['scratch', 'folder', 'overlay']

/**
 * Where the active chat's file tools work. For the lazy new chat the choice
 * is kept and applied right after the chat is created.
 */
export function WorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const chatId = useStore((s) => s.activeChatId)
  const savedKind = useStore((s) => selectActiveWorkspace(s).kind)
  const savedDir = useStore((s) => selectActiveWorkspace(s).dir)
  const pendingChanges = useStore((s) => (s.activeChatId ? s.workspaces[s.activeChatId]?.changes.length ?? 0 : 0))
  const setWorkspace = useStore((s) => s.setWorkspace)
  const resetScratch = useStore((s) => s.resetScratch)
  const toast = useStore((s) => s.toast)
  const [kind, setKind] = useState<WorkspaceKind>(savedKind)
  const [dir, setDir] = useState(savedDir)
  const [error, setError] = useState<{ message: string; code?: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [confirmReset, setConfirmReset] = useState(false)
  const ids = useId()
  const needsDir = kind !== 'scratch'
  const dirInput = useRef<HTMLInputElement>(null)
  // A refused folder keeps the focus in its field, to be corrected.
  useEffect(() => {
    if (error && needsDir) dirInput.current?.focus()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error])

  // Every opening starts from what is saved.
  useEffect(() => {
    if (!open) return
    setKind(savedKind)
    setDir(savedDir)
    setError(null)
    setBusy(false)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])

  const dropsChanges = savedKind === 'overlay' && pendingChanges > 0 && (kind !== 'overlay' || (cleanFolder(dir) ?? dir.trim()) !== savedDir)

  const browse = async () => {
    try {
      const picked = await keepFocus(() => pickFolder())
      if (picked) {
        setDir(picked)
        setError(null)
      }
    } catch (err) {
      const e = toApiError(err)
      setError({ message: errorSentence(t, e), code: e.code !== 'unknown' ? e.code : undefined })
    }
  }

  const save = async () => {
    let folder = ''
    if (needsDir) {
      if (!dir.trim()) {
        setError({ message: t('workspace.needFolder') })
        return
      }
      const clean = cleanFolder(dir)
      if (!clean) {
        setError({ message: t('workspace.needAbsolute') })
        return
      }
      folder = clean
      setDir(clean)
    }
    setBusy(true)
    setError(null)
    const err = await setWorkspace(chatId, { kind, dir: folder })
    setBusy(false)
    if (err) {
      setError({ message: errorSentence(t, err), code: err.code !== 'unknown' ? err.code : undefined })
      return
    }
    onClose()
  }

  const doReset = async () => {
    if (!chatId) return
    setBusy(true)
    const err = await resetScratch(chatId)
    setBusy(false)
    setConfirmReset(false)
    if (err) setError({ message: errorSentence(t, err), code: err.code !== 'unknown' ? err.code : undefined })
    else toast({ kind: 'success', title: 'workspace.resetDone' })
  }

  return (
    <>
      <Dialog
        open={open}
        onClose={onClose}
        title={t('workspace.title')}
        description={chatId ? t('workspace.subtitle') : t('workspace.subtitleNew')}
        className="dialog--workspace"
        testId="workspace-dialog"
        initialFocus='input[type="radio"]:checked'
        footer={
          <>
            <button type="button" className="btn btn--ghost" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" form={`${ids}-form`} className="btn btn--primary" data-testid="workspace-save" disabled={busy}>
              {busy && <span className="spinner" aria-hidden="true" />}
              {t('common.save')}
            </button>
          </>
        }
      >
        <form
          id={`${ids}-form`}
          className="ws-form"
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <div className="ws-kinds" role="radiogroup" aria-label={t('workspace.kindLabel')}>
            {KINDS.map((k) => (
              <label key={k} className={`ws-kind ws-kind--${k} ${kind === k ? 'is-selected' : ''}`}>
                <input
                  type="radio"
                  name={`${ids}-kind`}
                  value={k}
                  checked={kind === k}
                  onChange={() => {
                    setKind(k)
                    setError(null)
                  }}
                  data-testid="workspace-kind-option"
                  aria-describedby={`${ids}-${k}-desc`}
                />
                <span className="ws-kind__text">
                  <span className="ws-kind__label">{t(`workspace.kinds.${k}`)}</span>
                  <span className="ws-kind__desc" id={`${ids}-${k}-desc`}>
                    {t(`workspace.kindDesc.${k}`)}
                  </span>
                </span>
              </label>
            ))}
          </div>

          {needsDir && (
            <div className="field">
              <label className="field__label" htmlFor={`${ids}-dir`}>
                {t('workspace.folder')}
              </label>
              <div className="ws-dir">
                <input
                  ref={dirInput}
                  id={`${ids}-dir`}
                  className="input input--mono"
                  data-testid="workspace-dir"
                  value={dir}
                  spellCheck={false}
                  autoCapitalize="off"
                  autoComplete="off"
                  placeholder={t('workspace.folderPlaceholder')}
                  aria-invalid={!!error}
                  aria-describedby={error ? `${ids}-err` : `${ids}-dir-hint`}
                  onChange={(e) => {
                    setDir(e.target.value)
                    setError(null)
                  }}
                />
                <button type="button" className="btn btn--secondary" onClick={() => void browse()} data-testid="workspace-browse">
                  <FolderOpenIcon size={15} />
                  {t('workspace.browse')}
                </button>
              </div>
              <p className="field__hint" id={`${ids}-dir-hint`}>
                {t('workspace.folderHint')}
              </p>
            </div>
          )}

          {kind === 'folder' && (
            <div className="ws-warning" role="note" data-testid="workspace-folder-warning">
              <AlertIcon size={15} />
              <span>{t('workspace.folderWarning')}</span>
            </div>
          )}
          {dropsChanges && (
            <div className="ws-warning" role="note" data-testid="workspace-drops-changes">
              <AlertIcon size={15} />
              <span>{t('workspace.dropsChanges', { count: pendingChanges })}</span>
            </div>
          )}

          {error && (
            <div className="status-line status-line--error" role="alert" id={`${ids}-err`} data-testid="workspace-error">
              <AlertIcon size={15} />
              <span>{error.message}</span>
              {error.code && <code className="status-line__code">{error.code}</code>}
            </div>
          )}

          {chatId && savedKind === 'scratch' && kind === 'scratch' && (
            <div className="ws-reset">
              <div>
                <p className="ws-reset__title">{t('workspace.resetTitle')}</p>
                <p className="ws-reset__desc">{t('workspace.resetDesc')}</p>
              </div>
              <button
                type="button"
                className="btn btn--sm btn--secondary btn--danger-text"
                data-testid="reset-scratch"
                disabled={busy}
                onClick={() => setConfirmReset(true)}
              >
                <RetryIcon size={13} />
                {t('workspace.reset')}
              </button>
            </div>
          )}
        </form>
      </Dialog>
      <ConfirmDialog
        open={confirmReset}
        title={t('workspace.resetConfirmTitle')}
        message={t('workspace.resetConfirmMessage')}
        confirmLabel={t('workspace.reset')}
        busy={busy}
        onConfirm={() => void doReset()}
        onCancel={() => setConfirmReset(false)}
        testId="confirm-reset-scratch"
      />
    </>
  )
}
