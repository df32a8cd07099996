// One argument of an MCP prompt or resource template: a text field whose
// server may suggest values (completion/complete), shown as buttons under it.
import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../i18n'

const SUGGEST_DELAY_MS = 200
const SHOWN = 8

export function OfferField({
  name,
  label,
  hint,
  required,
  value,
  onChange,
  suggest,
  autoFocus,
}: {
  name: string
  label: string
  hint?: string
  required?: boolean
  value: string
  onChange: (v: string) => void
  /** Asks the server for values starting from what is typed. */
  suggest: (value: string) => Promise<string[]>
  autoFocus?: boolean
}) {
  const { t } = useTranslation()
  const id = useId()
  const [values, setValues] = useState<string[]>([])
  const [focused, setFocused] = useState(false)

  useEffect(() => {
    if (!focused) return
    let on = true
    const timer = setTimeout(() => void suggest(value).then((v) => on && setValues(v.filter((x) => x !== value).slice(0, SHOWN))), SUGGEST_DELAY_MS)
    return () => {
      on = false
      clearTimeout(timer)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, focused])

  return (
    <div className="offer-field" data-testid="offer-field" data-name={name}>
      <label htmlFor={id} className="offer-field__label">
        {label}
        {required && <span className="offer-field__req"> · {t('mcpOffers.prompts.required')}</span>}
      </label>
      <input
        id={id}
        className="input offer-field__input"
        value={value}
        aria-required={required}
        autoFocus={autoFocus}
        autoComplete="off"
        spellCheck={false}
        data-testid="offer-field-input"
        onFocus={() => setFocused(true)}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && <p className="offer-field__hint">{hint}</p>}
      {values.length > 0 && (
        <div className="offer-field__suggestions" role="group" aria-label={t('mcpOffers.prompts.suggestions', { name: label })} data-testid="offer-suggestions">
          {values.map((v) => (
            <button key={v} type="button" className="offer-field__suggestion" data-testid="offer-suggestion" onClick={() => onChange(v)}>
              {v}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
