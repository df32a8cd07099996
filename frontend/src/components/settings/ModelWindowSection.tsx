// Settings ▸ Providers: the chosen model's context window — what is known,
// where it came from, and the user's window and answer budget.
import { useEffect, useId, useState } from 'react'
import { useTranslation, type TFunction } from '../../i18n'
import type { ModelWindowInfo } from '../../api'
import { loadModelWindow, saveModelWindow, useModelWindow } from '../../store/modelWindow'
import { Field, StatusLine, type Status } from './fields'

/** '' → 0 (not set); a whole positive number → itself; anything else → null (refused). */
export function parseTokens(s: string): number | null {
  const v = s.trim().replace(/[,_\s]/g, '')
  if (v === '') return 0
  return /^\d{1,9}$/.test(v) ? Number(v) : null
}

/** The server's note in the reader's language where Airlock knows the case; the backend's sentence otherwise. */
export function windowNote(info: ModelWindowInfo, model: string, t: TFunction): string {
  const d = info.discovered
  const server = d.source.startsWith('server:') ? d.source.slice(7) : ''
  if (info.unreachable) return String(t('contextWindow.unreachable'))
  if (!d.source || info.discoveredAt === 0) return ''
  if (d.loaded > 0 && d.modelMax > d.loaded && ['ollama', 'lmstudio', 'llama.cpp'].includes(server)) {
    return String(t(`contextWindow.runsWith.${server.replace('.', '')}`, { model, loaded: d.loaded, max: d.modelMax }))
  }
  if (d.loaded === 0 && (server === 'ollama' || server === 'lmstudio') && d.tokens > 0 && d.note) {
    return String(t('contextWindow.assumed', { model, tokens: d.tokens }))
  }
  return d.note
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
  const note = info ? windowNote(info, model, t) : ''
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
      {d && !note && d.modelMax > (info?.tokens ?? 0) && <p className="field__hint">{t('contextWindow.modelMax', { tokens: d.modelMax.toLocaleString() })}</p>}
      {info && info.learned > 0 && info.source !== 'learned:overflow' && (
        <p className="field__hint">{t('contextWindow.learned', { tokens: info.learned.toLocaleString() })}</p>
      )}
      {note && (
        <p className="field__hint model-window__note" role="note" data-testid="model-window-note">
          {note}
        </p>
      )}
      {info && d && d.loaded > 0 && info.userWindow > d.loaded && (
        <p className="field__error" role="alert" data-testid="model-window-over-loaded">
          {t('contextWindow.overLoaded', { loaded: d.loaded.toLocaleString() })}
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
