// Small pieces the settings panels share: a labelled field and an inline status line.
import { type ReactNode } from 'react'
import { useTranslation } from '../../i18n'
import { AlertIcon, CheckIcon } from '../icons'

/** Inline feedback: `key` (+vars) for our own sentences, so they follow a language switch; `text` for the backend's. */
export type Status = { kind: 'ok' | 'error' | 'info'; text?: string; key?: string; vars?: Record<string, unknown>; code?: string } | null

export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string
  label: string
  hint?: string
  error?: string
  children: ReactNode
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && <p className="field__hint">{hint}</p>}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

export function StatusLine({ status, testId }: { status: NonNullable<Status>; testId?: string }) {
  const { t } = useTranslation()
  return (
    <div
      className={`status-line status-line--${status.kind}`}
      tabIndex={-1}
      role={status.kind === 'error' ? 'alert' : 'status'}
      data-testid={testId}
    >
      {status.kind === 'error' ? <AlertIcon size={15} /> : <CheckIcon size={15} />}
      <span>{status.key ? String(t(status.key, status.vars)) : status.text}</span>
      {status.code && <code className="status-line__code">{status.code}</code>}
    </div>
  )
}
