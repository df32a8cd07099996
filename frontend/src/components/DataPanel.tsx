import { useId, useState } from 'react'
import { useTranslation } from '../i18n'
import { errorSentence } from '../i18n/backendText'
import type { ApiError, ExportFormat, ImportResult } from '../api'
import { exportChats, importFile } from '../store/history'
import { AlertIcon, CheckIcon, DownloadIcon, UploadIcon } from './icons'
import { EXPORT_FORMATS } from '../api'
import '../styles/history.css'

/** Settings ▸ Data: export every chat, import an export or a ChatGPT conversations.json. */
export function DataPanel() {
  const { t } = useTranslation()
  const [format, setFormat] = useState<ExportFormat>('json')
  const [exporting, setExporting] = useState(false)
  const [importing, setImporting] = useState(false)
  const [outcome, setOutcome] = useState<{ result: ImportResult } | { error: ApiError } | null>(null)
  const name = useId()
  const exportId = useId()
  const importId = useId()

  const doExport = async () => {
    setExporting(true)
    await exportChats([], format)
    setExporting(false)
  }
  const doImport = async () => {
    setImporting(true)
    const r = await importFile()
    setImporting(false)
    // Cancelled: nothing to say.
    if ('result' in r && !r.result.source) return
    setOutcome(r)
  }

  return (
    <div className="data-panel" data-testid="data-panel">
      <section className="data-panel__section" aria-labelledby={exportId}>
        <h3 id={exportId}>{t('history.data.exportTitle')}</h3>
        <p className="data-panel__desc">{t('history.data.exportDesc')}</p>
        <div className="data-panel__row">
          <div className="data-panel__formats" role="radiogroup" aria-label={t('history.data.format')}>
            {EXPORT_FORMATS.map((f) => (
              <label key={f}>
                <input
                  type="radio"
                  name={name}
                  value={f}
                  checked={format === f}
                  data-testid={`export-all-${f}`}
                  onChange={() => setFormat(f)}
                />
                {t(`history.formats.${f}`)}
              </label>
            ))}
          </div>
          <button type="button" className="btn btn--secondary" data-testid="export-all" disabled={exporting} onClick={() => void doExport()}>
            {exporting ? <span className="spinner" aria-hidden="true" /> : <DownloadIcon size={14} />}
            {t('history.data.exportAll')}
          </button>
        </div>
      </section>

      <section className="data-panel__section" aria-labelledby={importId}>
        <h3 id={importId}>{t('history.data.importTitle')}</h3>
        <p className="data-panel__desc">{t('history.data.importDesc')}</p>
        <button type="button" className="btn btn--secondary" data-testid="import-file" disabled={importing} onClick={() => void doImport()}>
          {importing ? <span className="spinner" aria-hidden="true" /> : <UploadIcon size={14} />}
          {t('history.data.import')}
        </button>
        {outcome && 'result' in outcome && (
          <p className="data-panel__result data-panel__result--ok" role="status" data-testid="import-result">
            <CheckIcon size={14} />
            <span>
              <strong>{t('history.data.imported')}</strong> · {outcome.result.summary}
            </span>
          </p>
        )}
        {outcome && 'error' in outcome && (
          <p className="data-panel__result data-panel__result--error" role="alert" data-testid="import-error">
            <AlertIcon size={14} />
            <span>
              <strong>{t('history.data.importFailed')}</strong> · {errorSentence(t, outcome.error)}
              {outcome.error.code !== 'unknown' && <code className="toast__code"> {outcome.error.code}</code>}
            </span>
          </p>
        )}
      </section>
    </div>
  )
}
