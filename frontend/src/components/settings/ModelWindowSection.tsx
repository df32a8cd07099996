// Settings ▸ Providers: the chosen model's context window — what is known,
// where it came from, and the user's window and answer budget.
import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../../i18n'
import { loadModelWindow, saveModelWindow, useModelWindow } from '../../store/modelWindow'
import { Field, StatusLine, type Status } from './fields'

/** '' → 0 (not set); a whole positive number → itself; anything else → null (refused). */
export function parseTokens(s: string): number | null {
  const v = s.trim().replace(/[,_\s]/g, '')
  if (v === '') return 0
  return /^\d{1,9}$/.test(v) ? Number(v) : null
}

export function ModelWindowSection({ providerId, model }: { providerId: string; model: string }) {
  const { t } = useTranslation()
  const ids = useId()
  const { info, loading, busy, error } = useModelWindow()
  const [win, setWin] = useState('')
  const [out, setOut] = useState('')
  const [status, setStatus] = useState<Status>(null)

  useEffect(() => {
    setStatus(null)
    void loadModelWindow(providerId, model)
  }, [providerId, model])
  useEffect(() => {
    setWin(info?.userWindow ? String(info.userWindow) : '')
    setOut(info?.userMaxOutput ? String(info.userMaxOutput) : '')
  }, [info?.userWindow, info?.userMaxOutput])

  const source = (src: string) =>
    src.startsWith('server:') ? String(t('contextWindow.source.server', { server: src.slice(7) })) : String(t(`contextWindow.source.${src}`))

  const save = async () => {
    const w = parseTokens(win)
    const o = parseTokens(out)
    if (w === null || o === null) {
      setStatus({ kind: 'error', key: 'contextWindow.notNumber' })
      return
    }
    setStatus(null)
    if (await saveModelWindow(providerId, model, w, o)) setStatus({ kind: 'ok', key: 'contextWindow.saved' })
  }

  const d = info?.discovered
  return (
    <section className="model-window" aria-labelledby={`${ids}-title`} data-testid="model-window" data-tokens={info?.tokens ?? 0} data-source={info?.source ?? ''}>
      <h3 id={`${ids}-title`} className="model-window__title">
        {t('contextWindow.title')} <span className="model-window__model">{model}</span>
      </h3>
      {loading && !info ? (
        <p className="field__hint">{t('contextWindow.loading')}</p>
      ) : info && info.tokens > 0 ? (
        <p className="model-window__known" data-testid="model-window-tokens">
          <strong>{t('contextWindow.tokens', { tokens: info.tokens.toLocaleString() })}</strong> · {source(info.source)}
        </p>
      ) : (
        info && <p className="model-window__known">{t('contextWindow.unknown')}</p>
      )}
      {d && d.modelMax > (info?.tokens ?? 0) && <p className="field__hint">{t('contextWindow.modelMax', { tokens: d.modelMax.toLocaleString() })}</p>}
      {info && info.learned > 0 && info.source !== 'learned:overflow' && (
        <p className="field__hint">{t('contextWindow.learned', { tokens: info.learned.toLocaleString() })}</p>
      )}
      {d?.note && (
        <p className="field__hint model-window__note" role="note" data-testid="model-window-note">
          {d.note}
        </p>
      )}
      <div className="model-window__fields">
        <Field id={`${ids}-win`} label={t('contextWindow.window')} hint={t('contextWindow.windowHint')}>
          <input
            id={`${ids}-win`}
            className="input input--mono"
            inputMode="numeric"
            value={win}
            placeholder={d?.tokens ? String(d.tokens) : ''}
            onChange={(e) => setWin(e.target.value)}
            data-testid="model-window-input"
          />
        </Field>
        <Field id={`${ids}-out`} label={t('contextWindow.maxOutput')} hint={t('contextWindow.maxOutputHint')}>
          <input
            id={`${ids}-out`}
            className="input input--mono"
            inputMode="numeric"
            value={out}
            onChange={(e) => setOut(e.target.value)}
            data-testid="model-window-max-output"
          />
        </Field>
      </div>
      <div className="model-window__actions">
        <button type="button" className="btn btn--secondary btn--sm" disabled={busy} onClick={() => void save()} data-testid="model-window-save">
          {t('contextWindow.save')}
        </button>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          disabled={busy}
          title={String(t('contextWindow.detectHint'))}
          onClick={() => void loadModelWindow(providerId, model, true)}
          data-testid="model-window-detect"
        >
          {t('contextWindow.detect')}
        </button>
      </div>
      {error ? <StatusLine status={{ kind: 'error', text: error }} testId="model-window-status" /> : status && <StatusLine status={status} testId="model-window-status" />}
    </section>
  )
}
