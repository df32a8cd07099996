// The arguments of an MCP prompt picked from the "/" menu: one field each
// (required ones marked, the server's suggestions under them), then the
// prompt's text goes into the message box and its files are attached.
import { useState, type FormEvent } from 'react'
import { useTranslation } from '../i18n'
import type { McpPart, McpPrompt } from '../api'
import { complete, fillPrompt } from '../store/mcpOffers'
import { OfferField } from './OfferField'

export function PromptForm({ prompt, onDone, onCancel }: { prompt: McpPrompt; onDone: (p: McpPart) => void; onCancel: () => void }) {
  const { t } = useTranslation()
  const [values, setValues] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const missing = prompt.arguments.find((a) => a.required && !values[a.name]?.trim())
    if (missing) return setError(t('mcpOffers.prompts.fillIn', { name: missing.title || missing.name }))
    setBusy(true)
    setError('')
    const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''))
    const r = await fillPrompt(prompt.server, prompt.name, args)
    setBusy(false)
    if ('error' in r) return setError(r.error)
    onDone(r.part)
  }

  return (
    <form
      className="offer-pop prompt-form"
      data-testid="prompt-form"
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation()
          onCancel()
        }
      }}
    >
      <p className="prompt-form__title">{t('mcpOffers.prompts.formTitle', { name: prompt.name, server: prompt.server })}</p>
      {prompt.description && <p className="offer-pop__note">{prompt.description}</p>}
      {prompt.arguments.map((a, i) => (
        <OfferField
          key={a.name}
          name={a.name}
          label={a.title || a.name}
          hint={a.description}
          required={a.required}
          autoFocus={i === 0}
          value={values[a.name] ?? ''}
          onChange={(v) => setValues((s) => ({ ...s, [a.name]: v }))}
          suggest={(v) => complete(prompt.server, 'prompt', prompt.name, a.name, v, values)}
        />
      ))}
      {error && (
        <p className="offer-pop__error" role="alert" data-testid="prompt-form-error">
          {error}
        </p>
      )}
      <div className="offer-pop__actions">
        {busy && <span className="offer-pop__note">{t('mcpOffers.prompts.using', { server: prompt.server })}</span>}
        <button type="button" className="btn btn--secondary btn--sm" onClick={onCancel}>
          {t('mcpOffers.prompts.cancel')}
        </button>
        <button type="submit" className="btn btn--primary btn--sm" disabled={busy} data-testid="prompt-form-use">
          {t('mcpOffers.prompts.use')}
        </button>
      </div>
    </form>
  )
}
