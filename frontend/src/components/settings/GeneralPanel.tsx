// Settings ▸ General: language, theme, system prompt, the tool loop's limits.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../../i18n'
import { errorSentence } from '../../i18n/backendText'
import { TOOL_MODES, toApiError, type Language, type Settings, type Theme, type ToolMode } from '../../api'
import { useStore } from '../../store'
import { Switch } from '../Switch'
import { Field, type Status, StatusLine } from './fields'

export function GeneralPanel() {
  const { t } = useTranslation()
  const settings = useStore((s) => s.settings)
  const saveSettings = useStore((s) => s.saveSettings)
  const [draft, setDraft] = useState<Settings | null>(settings)
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState<Status>(null)
  const ids = useId()
  const lastTemp = useRef(settings && settings.temperature >= 0 ? settings.temperature : 0.7)

  useEffect(() => {
    setDraft((d) => d ?? settings)
  }, [settings])

  if (!draft) return <p className="form__note">{t('common.loading')}</p>

  const dirty = JSON.stringify(draft) !== JSON.stringify(settings)
  const useDefault = draft.temperature < 0
  const turnsOk = Number.isInteger(draft.maxTurns) && draft.maxTurns >= 1 && draft.maxTurns <= 1000
  const timeoutOk = Number.isInteger(draft.toolTimeoutSeconds) && draft.toolTimeoutSeconds >= 1 && draft.toolTimeoutSeconds <= 3600
  const valid = turnsOk && timeoutOk
  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => {
    setDraft({ ...draft, [k]: v })
    setStatus(null)
  }

  const save = async () => {
    setBusy(true)
    try {
      const saved = await saveSettings(draft)
      setDraft(saved)
      setStatus({ kind: 'ok', key: 'general.saved' })
      // Save turns disabled once nothing is left to save: focus goes to the
      // "Saved" line instead of falling to the page (Escape still closes).
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="general-status"]')?.focus())
    } catch (err) {
      const e = toApiError(err)
      setStatus({ kind: 'error', text: errorSentence(t, e), code: e.code !== 'unknown' ? e.code : undefined })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault()
        if (valid) void save()
      }}
      data-testid="general-form"
    >
      <p className="form__note" data-testid="general-agent-note">
        {t('agents.panel.generalNote')}
      </p>
      <Field id={`${ids}-sys`} label={t('general.systemPrompt')} hint={t('general.systemPromptHint')}>
        <textarea
          id={`${ids}-sys`}
          className="input textarea"
          rows={5}
          value={draft.systemPrompt}
          onChange={(e) => set('systemPrompt', e.target.value)}
          placeholder={t('general.systemPromptPlaceholder')}
          data-testid="system-prompt"
        />
      </Field>

      <Field id={`${ids}-temp`} label={t('general.temperature')} hint={t('general.temperatureHint')}>
        <div className="temp">
          <input
            id={`${ids}-temp`}
            type="range"
            min={0}
            max={2}
            step={0.05}
            value={useDefault ? lastTemp.current : draft.temperature}
            disabled={useDefault}
            onChange={(e) => {
              const v = Number(e.target.value)
              lastTemp.current = v
              set('temperature', v)
            }}
            className="range"
            data-testid="temperature"
          />
          <output className="temp__value" htmlFor={`${ids}-temp`}>
            {useDefault ? t('general.default') : draft.temperature.toFixed(2)}
          </output>
          <label className="check">
            <input
              type="checkbox"
              checked={useDefault}
              onChange={(e) => set('temperature', e.target.checked ? -1 : lastTemp.current)}
              data-testid="temperature-default"
            />
            <span>{t('general.providerDefault')}</span>
          </label>
        </div>
      </Field>

      <div className="form__row">
        <Field id={`${ids}-lang`} label={t('general.language')}>
          <select
            id={`${ids}-lang`}
            className="input select"
            value={draft.language}
            onChange={(e) => set('language', e.target.value as Language)}
            data-testid="language"
          >
            <option value="auto">{t('general.languageAuto')}</option>
            <option value="en">{t('general.languageEn')}</option>
            <option value="zh">{t('general.languageZh')}</option>
          </select>
        </Field>
        <Field id={`${ids}-theme`} label={t('general.theme')}>
          <Segmented
            id={`${ids}-theme`}
            value={draft.theme}
            options={(['system', 'light', 'dark'] as Theme[]).map((v) => ({ value: v, label: t(`general.themes.${v}`) }))}
            onChange={(v) => set('theme', v as Theme)}
          />
        </Field>
      </div>

      <h3 className="form__section">{t('general.toolsTitle')}</h3>
      <Switch
        id={`${ids}-auto`}
        checked={draft.autoContinue}
        onChange={(v) => set('autoContinue', v)}
        label={t('general.autoContinue')}
        description={t('general.autoContinueHint')}
        testId="auto-continue"
      />
      <Field id={`${ids}-toolmode`} label={t('general.toolMode')} hint={t('general.toolModeHint')}>
        <Segmented
          id={`${ids}-toolmode`}
          value={draft.toolMode}
          options={TOOL_MODES.map((v) => ({ value: v, label: t(`general.toolModes.${v}`) }))}
          onChange={(v) => set('toolMode', v as ToolMode)}
          testId="settings-tool-mode"
        />
      </Field>
      <div className="form__row">
        <IntField
          id={`${ids}-turns`}
          label={t('general.maxTurns')}
          hint={t('general.maxTurnsHint')}
          max={1000}
          value={draft.maxTurns}
          ok={turnsOk}
          onChange={(v) => set('maxTurns', v)}
          testId="max-turns"
        />
        <IntField
          id={`${ids}-timeout`}
          label={t('general.toolTimeout')}
          hint={t('general.toolTimeoutHint')}
          max={3600}
          value={draft.toolTimeoutSeconds}
          ok={timeoutOk}
          onChange={(v) => set('toolTimeoutSeconds', v)}
          testId="tool-timeout"
        />
      </div>

      {status && <StatusLine status={status} testId="general-status" />}

      <div className="form__actions">
        <div className="form__actions-left" />
        <div className="form__actions-right">
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => {
              setDraft(settings)
              setStatus(null)
            }}
            disabled={!dirty || busy}
          >
            {t('common.reset')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={!dirty || busy || !valid} data-testid="settings-save">
            {busy && <span className="spinner" aria-hidden="true" />}
            {t('common.save')}
          </button>
        </div>
      </div>
    </form>
  )
}

function Segmented({
  id,
  value,
  options,
  onChange,
  testId = 'theme',
}: {
  id: string
  value: string
  options: { value: string; label: string }[]
  onChange: (v: string) => void
  testId?: string
}) {
  const onKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    let n = -1
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') n = (i + 1) % options.length
    if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') n = (i - 1 + options.length) % options.length
    if (n < 0) return
    e.preventDefault()
    onChange(options[n].value)
    const group = e.currentTarget.parentElement
    requestAnimationFrame(() => (group?.children[n] as HTMLElement | undefined)?.focus())
  }
  return (
    <div className="segmented" role="radiogroup" id={id} data-testid={testId}>
      {options.map((o, i) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          tabIndex={value === o.value ? 0 : -1}
          className={`segmented__opt ${value === o.value ? 'is-selected' : ''}`}
          onClick={() => onChange(o.value)}
          onKeyDown={(e) => onKey(e, i)}
          data-value={o.value}
        >
          {o.label}
        </button>
      ))}
    </div>
  )
}

/** A whole number from 1 to max; an empty box is NaN (and shown as invalid). */
function IntField(p: {
  id: string
  label: string
  hint: string
  max: number
  value: number
  ok: boolean
  onChange: (v: number) => void
  testId: string
}) {
  const { t } = useTranslation()
  return (
    <Field id={p.id} label={p.label} hint={p.ok ? p.hint : undefined} error={p.ok ? undefined : t('general.rangeError', { min: 1, max: p.max })}>
      <input
        id={p.id}
        className="input input--num"
        type="number"
        min={1}
        max={p.max}
        step={1}
        inputMode="numeric"
        value={Number.isNaN(p.value) ? '' : p.value}
        onChange={(e) => p.onChange(e.target.value === '' ? NaN : Number(e.target.value))}
        aria-invalid={!p.ok}
        data-testid={p.testId}
      />
    </Field>
  )
}
