// On a running MCP call's card: the server's progress (a bar when it gives a
// total) and its questions (elicitation), a form built from the requested
// schema or a link to open, answered Accept / Decline / Cancel.
import { useId, useMemo, useState } from 'react'
import { useTranslation } from '../i18n'
import type { McpQuestion } from '../api'
import { answerQuestion, selectProgress, selectQuestions, useMcpLive } from '../store/mcpLive'
import { argsFromValues, schemaFields, valuesFromArgs, type FieldError, type FormValues } from '../lib/schemaForm'
import { FieldInput } from './RunTool'
import { useShallow } from 'zustand/react/shallow'
import { useStore } from '../store'

export function McpProgressBar({ callId }: { callId: string }) {
  const { t } = useTranslation()
  const p = useMcpLive(selectProgress(callId))
  if (!p) return null
  const known = !!p.total && p.total > 0
  const pct = known ? Math.max(0, Math.min(100, (p.progress / (p.total ?? 1)) * 100)) : 0
  return (
    <div className="mcp-progress" data-testid="mcp-progress">
      {known ? (
        <progress className="mcp-progress__bar" max={100} value={pct} aria-label={t('mcpLive.progress')} data-testid="mcp-progress-bar" />
      ) : null}
      <span className="mcp-progress__text" data-testid="mcp-progress-text">
        {known ? t('mcpLive.progressOf', { progress: p.progress, total: p.total }) : t('mcpLive.progressSoFar', { progress: p.progress })}
        {p.message ? ` · ${p.message}` : ''}
      </span>
    </div>
  )
}

export function McpQuestions({ callId }: { callId: string }) {
  const questions = useMcpLive(useShallow(selectQuestions(callId)))
  return (
    <>
      {questions.map((q) => (
        <QuestionForm key={q.id} q={q} />
      ))}
    </>
  )
}

function QuestionForm({ q }: { q: McpQuestion }) {
  const { t } = useTranslation()
  const ids = useId()
  const busy = useMcpLive((s) => !!s.busy[q.id])
  const error = useMcpLive((s) => s.errors[q.id] ?? '')
  const fields = useMemo(() => (q.mode === 'form' ? schemaFields(q.schema) : []), [q])
  const [values, setValues] = useState<FormValues>(() => {
    const defaults: Record<string, unknown> = {}
    for (const f of fields) if (f.default !== undefined) defaults[f.name] = f.default
    return valuesFromArgs(fields, defaults)
  })
  const [errors, setErrors] = useState<Record<string, FieldError>>({})

  const accept = () => {
    if (q.mode === 'url') return void answerQuestion(q.id, 'accept', null)
    const r = argsFromValues(fields, values)
    if (!r.ok) return setErrors(r.errors)
    setErrors({})
    void answerQuestion(q.id, 'accept', r.args)
  }

  return (
    <form
      className="mcp-question"
      data-testid="mcp-question"
      data-mode={q.mode}
      aria-label={t('mcpLive.asks', { server: q.server })}
      onSubmit={(e) => {
        e.preventDefault()
        accept()
      }}
      noValidate
    >
      <p className="mcp-question__who" data-testid="mcp-question-server">
        {q.mode === 'url' ? t('mcpLive.urlAsks', { server: q.server, domain: q.domain }) : t('mcpLive.asks', { server: q.server })}
      </p>
      {q.message && (
        <p className="mcp-question__message" data-testid="mcp-question-message">
          {q.message}
        </p>
      )}
      {q.mode === 'url' && (
        <p className="field__hint" data-testid="mcp-question-domain">
          {t('mcpLive.urlHint', { domain: q.domain })}
        </p>
      )}
      {fields.map((f) => (
        <FieldInput
          key={f.name}
          id={`${ids}-${f.name}`}
          field={f}
          value={values[f.name]}
          error={errors[f.name]}
          testPrefix="mcp-answer-"
          onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))}
          onSubmit={accept}
        />
      ))}
      {error && (
        <p className="field__error" role="alert" data-testid="mcp-question-error">
          {error}
        </p>
      )}
      <div className="mcp-question__actions">
        <button type="submit" className="btn btn--xs btn--primary" disabled={busy} data-testid="mcp-question-accept">
          {q.mode === 'url' ? t('mcpLive.open', { domain: q.domain }) : t('mcpLive.accept')}
        </button>
        <button type="button" className="btn btn--xs btn--secondary" disabled={busy} data-testid="mcp-question-decline"
          onClick={() => void answerQuestion(q.id, 'decline', null)}>
          {t('mcpLive.decline')}
        </button>
        <button type="button" className="btn btn--xs btn--ghost" disabled={busy} data-testid="mcp-question-cancel"
          onClick={() => void answerQuestion(q.id, 'cancel', null)}>
          {t('mcpLive.cancel')}
        </button>
      </div>
    </form>
  )
}

/** What an MCP server says of its tool (annotations): its title, read-only or destructive. Hints, never trusted. */
export function McpHints({ toolName }: { toolName: string }) {
  const { t } = useTranslation()
  const hints = useStore((s) => s.tools.find((x) => x.name === toolName)?.hints ?? null)
  if (!hints) return null
  return (
    <>
      {hints.title && (
        <span className="mcp-hint mcp-hint--title" data-testid="mcp-hint-title">
          {hints.title}
        </span>
      )}
      {hints.readOnly && (
        <span className="badge mcp-hint" data-testid="mcp-hint-readonly">
          {t('mcpLive.readOnly')}
        </span>
      )}
      {hints.destructive && (
        <span className="badge mcp-hint mcp-hint--destructive" data-testid="mcp-hint-destructive">
          {t('mcpLive.destructive')}
        </span>
      )}
    </>
  )
}
