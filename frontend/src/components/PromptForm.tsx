// The arguments of an MCP prompt picked from the "/" menu: one field each
// (required ones marked, the server's suggestions under them), then the
// prompt's text goes into the message box and its files are attached.
import { useState } from 'react'
import { useTranslation } from '../i18n'
import type { McpPart, McpPrompt } from '../api'
import { complete, fillPrompt } from '../store/mcpOffers'
import { OfferField } from './OfferField'

export function PromptForm({ prompt, onDone, onCancel }: { prompt: McpPrompt; onDone: (p: McpPart) => void; onCancel: () => void }) {
  const { t } = useTranslation()
  const [values, setValues] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')

  const submit = async () => {
    if (busy) return
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
    // Not a <form>: it sits inside the composer's form. Enter in a field uses the prompt, never sends the message.
    <div
      className="offer-pop prompt-form"
      role="form"
      aria-label={t('mcpOffers.prompts.formTitle', { name: prompt.name, server: prompt.server })}
      data-testid="prompt-form"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation()
          onCancel()
        } else if (e.key === 'Enter' && !e.nativeEvent.isComposing && e.target instanceof HTMLInputElement) {
          e.preventDefault()
          e.stopPropagation()
          void submit()
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
        <button type="button" className="btn btn--primary btn--sm" disabled={busy} data-testid="prompt-form-use" onClick={() => void submit()}>
          {t('mcpOffers.prompts.use')}
        </button>
      </div>
    </div>
  )
}
