// A tool card's forms: deny with a reason, edit the arguments (with the live diff), fix a problem call.
import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../i18n'
import { errorSentence } from '../i18n/backendText'
import type { ApiError, Call } from '../api'
import { ArgsDiff } from './EditPreview'
import { lineCount, parseArgs, prettyJSON } from '../lib/calls'
import { AlertIcon, PlayIcon } from './icons'

export function DenyForm({ busy, onCancel, onConfirm }: { busy: boolean; onCancel: () => void; onConfirm: (reason: string) => void }) {
  const { t } = useTranslation()
  const [reason, setReason] = useState('')
  const id = useId()
  return (
    <form
      className="tool-card__form"
      data-testid="deny-form"
      onSubmit={(e) => {
        e.preventDefault()
        onConfirm(reason)
      }}
    >
      <label className="field__label" htmlFor={id}>
        {t('calls.denyReason')}
      </label>
      <div className="tool-card__form-row">
        <input
          id={id}
          className="input"
          data-testid="deny-reason"
          value={reason}
          autoFocus
          maxLength={500}
          placeholder={t('calls.denyReasonPlaceholder')}
          onChange={(e) => setReason(e.target.value)}
        />
        <button type="submit" className="btn btn--sm btn--danger" data-testid="confirm-deny" disabled={busy}>
          {busy && <span className="spinner" aria-hidden="true" />}
          {t('calls.confirmDeny')}
        </button>
        <button type="button" className="btn btn--sm btn--ghost" onClick={onCancel} data-testid="deny-cancel">
          {t('common.cancel')}
        </button>
      </div>
    </form>
  )
}

/** Turns a parse failure or a backend rejection into the sentence the form shows. */
function useArgsError() {
  const { t } = useTranslation()
  return (text: string): { value: Record<string, unknown> } | { error: string } => {
    const parsed = parseArgs(text)
    if (parsed.ok) return { value: parsed.value }
    return { error: parsed.error === 'object' ? t('calls.notObject') : t('calls.invalidJson', { error: parsed.error }) }
  }
}

export function EditForm({
  initial,
  onText,
  busy,
  onCancel,
  onRun,
}: {
  initial: string
  /** The text as typed, so the card can preview the edit. */
  onText: (text: string | null) => void
  busy: boolean
  onCancel: () => void
  onRun: (value: Record<string, unknown>) => Promise<ApiError | null>
}) {
  const { t } = useTranslation()
  const [text, setText] = useState(initial)
  const [error, setError] = useState<{ text: string; code?: string } | null>(null)
  const check = useArgsError()
  const id = useId()
  useEffect(() => {
    onText(text)
  }, [text, onText])
  useEffect(() => () => onText(null), [onText])
  const parsed = parseArgs(text)
  const edited = parsed.ok ? prettyJSON(parsed.value) : ''

  const submit = async () => {
    const r = check(text)
    if ('error' in r) {
      setError({ text: r.error })
      return
    }
    setError(null)
    const err = await onRun(r.value)
    if (err) setError({ text: errorSentence(t, err), code: err.code !== 'unknown' ? err.code : undefined })
  }

  return (
    <form
      className="tool-card__form"
      data-testid="edit-form"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <label className="field__label" htmlFor={id}>
        {t('calls.editLabel')}
      </label>
      <textarea
        id={id}
        className="input textarea input--mono tool-card__textarea"
        data-testid="edit-args"
        value={text}
        autoFocus
        spellCheck={false}
        rows={Math.min(Math.max(lineCount(text) + 1, 4), 16)}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => {
          setText(e.target.value)
          setError(null)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault()
            void submit()
          }
        }}
      />
      {parsed.ok && edited !== initial && (
        <ArgsDiff label={t('calls.editChanges')} before={initial} after={edited} testId="edit-args-diff" />
      )}
      <FormFooter
        error={error}
        errorId={`${id}-err`}
        errorTestId="edit-error"
        busy={busy}
        submitLabel={t('calls.runEdited')}
        submitTestId="run-edited"
        cancelTestId="edit-cancel"
        onCancel={onCancel}
      />
    </form>
  )
}

// FormFooter is the shared bottom of the Edit and Fix forms: the server's
// error, then run / cancel.
function FormFooter(p: {
  error: { text: string; code?: string } | null
  errorId?: string
  errorTestId: string
  busy: boolean
  submitLabel: string
  submitTestId: string
  cancelTestId: string
  onCancel: () => void
}) {
  const { t } = useTranslation()
  return (
    <>
      {p.error && (
        <div className="status-line status-line--error" role="alert" id={p.errorId} data-testid={p.errorTestId}>
          <AlertIcon size={15} />
          <span>{p.error.text}</span>
          {p.error.code && <code className="status-line__code">{p.error.code}</code>}
        </div>
      )}
      <div className="tool-card__form-row">
        <button type="submit" className="btn btn--sm btn--primary" data-testid={p.submitTestId} disabled={p.busy}>
          {p.busy ? <span className="spinner" aria-hidden="true" /> : <PlayIcon size={12} />}
          {p.submitLabel}
        </button>
        <button type="button" className="btn btn--sm btn--ghost" onClick={p.onCancel} data-testid={p.cancelTestId}>
          {t('common.cancel')}
        </button>
        <span className="tool-card__hint">{t('calls.editHint')}</span>
      </div>
    </>
  )
}

export function FixForm({
  call: c,
  busy,
  onCancel,
  onRun,
}: {
  call: Call
  busy: boolean
  onCancel: () => void
  onRun: (name: string, value: Record<string, unknown>) => Promise<ApiError | null>
}) {
  const { t } = useTranslation()
  const [name, setName] = useState(c.name)
  // The backend sends the arguments as it read them (best effort for a broken call).
  const [text, setText] = useState(() => prettyJSON(c.arguments && typeof c.arguments === 'object' ? c.arguments : {}))
  const [error, setError] = useState<{ text: string; code?: string } | null>(null)
  const check = useArgsError()
  const id = useId()

  const submit = async () => {
    if (!name.trim()) {
      setError({ text: t('calls.nameRequired') })
      return
    }
    const r = check(text)
    if ('error' in r) {
      setError({ text: r.error })
      return
    }
    setError(null)
    const err = await onRun(name.trim(), r.value)
    if (err) setError({ text: errorSentence(t, err), code: err.code !== 'unknown' ? err.code : undefined })
  }

  return (
    <form
      className="tool-card__form"
      data-testid="fix-form"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <div className="tool-card__fix-grid">
        <label className="field__label" htmlFor={`${id}-name`}>
          {t('calls.toolName')}
        </label>
        <input
          id={`${id}-name`}
          className="input input--mono"
          data-testid="fix-name"
          value={name}
          autoFocus
          spellCheck={false}
          autoCapitalize="off"
          onChange={(e) => {
            setName(e.target.value)
            setError(null)
          }}
        />
        <label className="field__label" htmlFor={`${id}-args`}>
          {t('calls.editLabel')}
        </label>
        <textarea
          id={`${id}-args`}
          className="input textarea input--mono tool-card__textarea"
          data-testid="fix-args"
          value={text}
          spellCheck={false}
          rows={Math.min(Math.max(lineCount(text) + 1, 4), 16)}
          onChange={(e) => {
            setText(e.target.value)
            setError(null)
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              void submit()
            }
          }}
        />
      </div>
      <FormFooter
        error={error}
        errorTestId="fix-error"
        busy={busy}
        submitLabel={t('calls.runFixed')}
        submitTestId="fix-submit"
        cancelTestId="fix-cancel"
        onCancel={onCancel}
      />
    </form>
  )
}
