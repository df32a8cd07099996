// Settings ▸ Tools ▸ Running code: the bounds of run_javascript / run_python.
import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../../i18n'
import { CODE_LIMIT_RANGES, type CodeLimits } from '../../api'
import { loadCodeLimits, saveCodeLimits, useCodeLimits } from '../../store/code'
import { Field, type Status, StatusLine } from './fields'
import '../ToolCardCode.css'

const FIELDS: { key: keyof CodeLimits; label: string; testId: string }[] = [
  { key: 'timeoutSeconds', label: 'timeout', testId: 'code-timeout' },
  { key: 'memoryMiB', label: 'memory', testId: 'code-memory' },
  { key: 'outputKiB', label: 'output', testId: 'code-output' },
  { key: 'maxFiles', label: 'files', testId: 'code-files-limit' },
  { key: 'maxWriteMiB', label: 'write', testId: 'code-write' },
]

const inRange = (k: keyof CodeLimits, v: number) =>
  Number.isInteger(v) && v >= CODE_LIMIT_RANGES[k][0] && v <= CODE_LIMIT_RANGES[k][1]

export function CodePanel() {
  const { t } = useTranslation()
  const limits = useCodeLimits((s) => s.limits)
  const loadError = useCodeLimits((s) => s.error)
  const [draft, setDraft] = useState<CodeLimits | null>(limits)
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState<Status>(null)
  const ids = useId()

  useEffect(() => {
    void loadCodeLimits()
  }, [])
  useEffect(() => {
    setDraft((d) => d ?? limits)
  }, [limits])

  if (!draft) return <p className="form__note">{loadError ?? t('common.loading')}</p>
  const valid = FIELDS.every((f) => inRange(f.key, draft[f.key]))
  const dirty = JSON.stringify(draft) !== JSON.stringify(limits)

  const save = async () => {
    setBusy(true)
    const err = await saveCodeLimits(draft)
    setBusy(false)
    if (err) setStatus({ kind: 'error', text: err })
    else {
      setDraft(useCodeLimits.getState().limits)
      setStatus({ kind: 'ok', key: 'code.settings.saved' })
    }
  }

  return (
    <form
      className="form"
      data-testid="code-limits"
      onSubmit={(e) => {
        e.preventDefault()
        if (valid && dirty && !busy) void save()
      }}
    >
      <h3 className="mcp__title">{t('code.settings.title')}</h3>
      <p className="form__note">{t('code.settings.intro')}</p>
      <div className="form__row form__row--three">
        {FIELDS.map((f) => {
          const [min, max] = CODE_LIMIT_RANGES[f.key]
          const ok = inRange(f.key, draft[f.key])
          const id = `${ids}-${f.key}`
          return (
            <Field
              key={f.key}
              id={id}
              label={t(`code.settings.${f.label}`)}
              hint={ok ? t(`code.settings.${f.label}Hint`) : undefined}
              error={ok ? undefined : t('code.settings.range', { min, max })}
            >
              <input
                id={id}
                className="input input--num"
                type="number"
                min={min}
                max={max}
                step={1}
                inputMode="numeric"
                value={Number.isNaN(draft[f.key]) ? '' : draft[f.key]}
                onChange={(e) => {
                  setDraft({ ...draft, [f.key]: e.target.value === '' ? NaN : Number(e.target.value) })
                  setStatus(null)
                }}
                aria-invalid={!ok}
                data-testid={f.testId}
              />
            </Field>
          )
        })}
      </div>
      {status && <StatusLine status={status} testId="code-limits-status" />}
      <div className="form__actions">
        <div className="form__actions-left" />
        <div className="form__actions-right">
          <button type="submit" className="btn btn--primary" disabled={!dirty || busy || !valid} data-testid="code-limits-save">
            {t('common.save')}
          </button>
        </div>
      </div>
    </form>
  )
}
