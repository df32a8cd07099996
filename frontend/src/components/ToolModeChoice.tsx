import { useEffect, useId } from 'react'
import { useTranslation } from '../i18n'
import { TOOL_MODES, type ToolMode } from '../api'
import { loadModelMode, setModelMode, useModelMode } from '../store/modelMode'
import '../styles/toolmode.css'

/** In the chat's tool options: how the model calls tools (Text / Native / Auto), and what Auto knows. */
export function ToolModeChoice({ mode, onChange }: { mode: ToolMode; onChange: (m: ToolMode) => void }) {
  const { t } = useTranslation()
  const ids = useId()
  return (
    <div className="tool-mode">
      <h3 className="tool-mode__title" id={`${ids}-title`}>
        {t('chatOptions.toolModeTitle')}
      </h3>
      <div className="paradigm-list" role="radiogroup" aria-labelledby={`${ids}-title`} data-testid="tool-mode">
        {TOOL_MODES.map((m) => (
          <label key={m} className={`paradigm-opt ${mode === m ? 'is-selected' : ''}`}>
            <input
              type="radio"
              name={`${ids}-mode`}
              value={m}
              checked={mode === m}
              onChange={() => onChange(m)}
              data-testid={`tool-mode-${m}`}
            />
            <span className="paradigm-opt__text">
              <span className="paradigm-opt__label">{t(`chatOptions.toolModes.${m}.label`)}</span>
              <span className="paradigm-opt__desc">{t(`chatOptions.toolModes.${m}.desc`)}</span>
            </span>
          </label>
        ))}
      </div>
      {mode === 'auto' && <ModelModePanel />}
    </div>
  )
}

/** "24 Nov, 20:51" in the UI's language. */
export function learnedWhen(ts: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ts)
}

/** What Auto knows about this chat's model (or the one a new chat starts with), and the person's say over it. */
export function ModelModePanel() {
  const { t, i18n } = useTranslation()
  const info = useModelMode((s) => s.info)
  const loading = useModelMode((s) => s.loading)
  const error = useModelMode((s) => s.error)
  const busy = useModelMode((s) => s.busy)
  const ids = useId()

  // Auto may have learned something since (a first native answer that worked says nothing): read it when shown.
  useEffect(() => {
    void loadModelMode()
  }, [])

  if (!info) {
    return (
      <div className="model-mode" data-testid="model-mode" data-state={error ? 'error' : 'loading'} role="status">
        <p className={`model-mode__detail ${error ? 'is-error' : ''}`}>
          {error && !loading ? t('chatOptions.modelMode.error', { message: error }) : t('chatOptions.modelMode.loading')}
        </p>
      </div>
    )
  }

  const model = info.model || t('chatOptions.modelMode.thisModel')
  const chosen = info.override || info.learned
  const how = chosen ? t(`chatOptions.modelMode.${chosen}`) : t('chatOptions.modelMode.untried')
  const when = info.learnedAt > 0 ? learnedWhen(info.learnedAt, i18n.language) : ''
  let detail = ''
  if (info.override) {
    detail =
      info.learned && info.learned !== info.override && when
        ? t('chatOptions.modelMode.overrideLearned', { mode: t(`chatOptions.modelMode.${info.learned}`), when })
        : t('chatOptions.modelMode.override')
  } else if (info.learned && when) {
    detail = info.reason ? t('chatOptions.modelMode.learned', { when, reason: info.reason }) : t('chatOptions.modelMode.learnedNoReason', { when })
  }
  const pick = (override: '' | 'native' | 'text') => {
    if (!busy && info.override !== override) void setModelMode(override, false)
  }

  return (
    <div
      className="model-mode"
      data-testid="model-mode"
      data-state="known"
      data-learned={info.learned}
      data-override={info.override}
      data-effective={info.effective}
      aria-busy={busy || loading}
    >
      <p className="model-mode__title" id={`${ids}-title`}>
        {t('chatOptions.modelMode.title')}
      </p>
      <p className="model-mode__status" data-testid="model-mode-status" aria-live="polite">
        <span className="model-mode__model">{model}</span>
        {t('chatOptions.modelMode.sep')}
        <span className={`model-mode__how is-${chosen || 'untried'}`}>{how}</span>
      </p>
      {detail && (
        <p className="model-mode__detail" data-testid="model-mode-detail">
          {detail}
        </p>
      )}
      <div className="model-mode__actions" role="group" aria-label={t('chatOptions.modelMode.actions')}>
        <button
          type="button"
          className="model-mode__btn"
          aria-pressed={info.override === 'native'}
          disabled={busy}
          onClick={() => pick('native')}
          data-testid="model-mode-native"
        >
          {t('chatOptions.modelMode.useNative')}
        </button>
        <button
          type="button"
          className="model-mode__btn"
          aria-pressed={info.override === 'text'}
          disabled={busy}
          onClick={() => pick('text')}
          data-testid="model-mode-text"
        >
          {t('chatOptions.modelMode.useText')}
        </button>
        <button
          type="button"
          className="model-mode__btn"
          aria-pressed={info.override === ''}
          disabled={busy}
          onClick={() => pick('')}
          data-testid="model-mode-auto"
        >
          {t('chatOptions.modelMode.goByAuto')}
        </button>
        <button
          type="button"
          className="model-mode__btn model-mode__btn--forget"
          disabled={busy || (!info.learned && !info.override)}
          onClick={() => void setModelMode('', true)}
          data-testid="model-mode-forget"
        >
          {t('chatOptions.modelMode.forget')}
        </button>
      </div>
    </div>
  )
}
