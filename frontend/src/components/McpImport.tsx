import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../i18n'
import type { ApiError, McpImport } from '../api'
import { importMcpFile, importMcpText } from '../store/mcp'
import { Dialog } from './Dialog'
import { AlertIcon, CheckIcon, UploadIcon } from './icons'

type Outcome = { result: McpImport } | { error: ApiError }

/** Paste a Claude Desktop / Cursor / VS Code {"mcpServers": …} configuration, or choose its file. */
export function McpImportDialog({ open, initialText, onClose }: { open: boolean; initialText: string; onClose: () => void }) {
  const { t } = useTranslation()
  const [text, setText] = useState(initialText)
  const [busy, setBusy] = useState<null | 'text' | 'file'>(null)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const id = useId()

  useEffect(() => {
    if (!open) return
    setText(initialText)
    setOutcome(null)
  }, [open, initialText])

  const run = async (kind: 'text' | 'file') => {
    setBusy(kind)
    const r = kind === 'text' ? await importMcpText(text) : await importMcpFile()
    setBusy(null)
    // A cancelled file dialog: nothing to say.
    if (kind === 'file' && 'result' in r && r.result.added.length === 0 && r.result.skipped.length === 0) return
    setOutcome(r)
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('mcp.importDialog.title')}
      description={t('mcp.importDialog.desc')}
      testId="mcp-import-dialog"
      className="dialog--mcp-import"
      initialFocus="textarea"
      footer={
        <>
          <button type="button" className="btn btn--secondary mcp-import__file" data-testid="mcp-import-file" disabled={!!busy} onClick={() => void run('file')}>
            {busy === 'file' ? <span className="spinner" aria-hidden="true" /> : <UploadIcon size={14} />}
            {t('mcp.importDialog.chooseFile')}
          </button>
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            {t('common.close')}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="mcp-import"
            disabled={!!busy || !text.trim()}
            onClick={() => void run('text')}
          >
            {busy === 'text' && <span className="spinner" aria-hidden="true" />}
            {t('mcp.importDialog.import')}
          </button>
        </>
      }
    >
      <div className="dialog__body mcp-import">
        <label className="field__label" htmlFor={id}>
          {t('mcp.importDialog.label')}
        </label>
        <textarea
          id={id}
          className="input textarea input--mono mcp-import__text"
          data-testid="mcp-import-text"
          value={text}
          rows={9}
          spellCheck={false}
          placeholder={'{\n  "mcpServers": {\n    "name": { "command": "npx", "args": ["-y", "…"] }\n  }\n}'}
          aria-invalid={outcome && 'error' in outcome ? true : undefined}
          onChange={(e) => {
            setText(e.target.value)
            setOutcome(null)
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && text.trim() && !busy) {
              e.preventDefault()
              void run('text')
            }
          }}
        />
        {outcome && 'result' in outcome && <ImportResult result={outcome.result} />}
        {outcome && 'error' in outcome && (
          <div className="status-line status-line--error" role="alert" data-testid="mcp-import-error">
            <AlertIcon size={15} />
            <span>
              <strong>{t('mcp.importDialog.failed')}</strong> · {outcome.error.message}
            </span>
            {outcome.error.code !== 'unknown' && <code className="status-line__code">{outcome.error.code}</code>}
          </div>
        )}
      </div>
    </Dialog>
  )
}

function ImportResult({ result }: { result: McpImport }) {
  const { t } = useTranslation()
  return (
    <div className="mcp-import__result" role="status">
      <p className={`mcp-import__added ${result.added.length ? 'is-ok' : ''}`} data-testid="mcp-import-added">
        {result.added.length > 0 && <CheckIcon size={14} />}
        <span>
          {result.added.length > 0
            ? t('mcp.importDialog.added', { count: result.added.length, names: result.added.join(', ') })
            : t('mcp.importDialog.nothingAdded')}
        </span>
      </p>
      {result.skipped.length > 0 && (
        <div className="mcp-import__skipped" data-testid="mcp-import-skipped">
          <p className="mcp-import__skipped-title">{t('mcp.importDialog.skipped')}</p>
          <ul>
            {result.skipped.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
