import './RunTool.css'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from '../i18n'
import { errorSentence } from '../i18n/backendText'
import { chatWorkspace, type RunOutput, type ToolSpec } from '../api'
import { useStore } from '../store'
import { formatDuration, parseArgs, prettyJSON } from '../lib/calls'
import { argsFromValues, chosen, emptyValues, schemaFields, valuesFromArgs, type FieldError, type FormField, type FormValues } from '../lib/schemaForm'
import { CopyButton } from './CopyButton'
import { WorkspaceChip } from './WorkspaceChip'
import { Switch } from './Switch'
import { CallImages, McpNote } from './ToolCardExtras'
import { AlertIcon, PlayIcon, ShieldIcon } from './icons'

type Outcome = { ok: true; output: RunOutput; ms: number } | { ok: false; message: string; code?: string; ms: number }

/** Airlock's own tools first, then each MCP server's, under its name. */
export function groupTools(tools: ToolSpec[]): { server: string | null; tools: ToolSpec[] }[] {
  const groups: { server: string | null; tools: ToolSpec[] }[] = []
  const own = tools.filter((x) => x.kind !== 'mcp')
  if (own.length) groups.push({ server: null, tools: own })
  for (const x of tools) {
    if (x.kind !== 'mcp') continue
    const server = x.server ?? ''
    const g = groups.find((y) => y.server === server)
    if (g) g.tools.push(x)
    else groups.push({ server, tools: [x] })
  }
  return groups
}

/** Tool lab → Run a tool: any tool, by hand, on a chat's workspace. No card, no approval: the person is deciding. */
export function RunToolPanel({ tools }: { tools: ToolSpec[] }) {
  const { t } = useTranslation()
  const chats = useStore((s) => s.chats)
  const activeChatId = useStore((s) => s.activeChatId)
  const runTool = useStore((s) => s.runTool)
  const [chatId, setChatId] = useState<string>(() => activeChatId ?? chats[0]?.id ?? '')
  const [toolName, setToolName] = useState(() => tools.find((x) => x.kind === 'files')?.name ?? tools[0]?.name ?? '')
  const tool = tools.find((x) => x.name === toolName) ?? null
  const fields = useMemo(() => schemaFields(tool?.parameters), [tool])
  const [values, setValues] = useState<FormValues>(() => emptyValues(fields))
  const [raw, setRaw] = useState(false)
  const [rawText, setRawText] = useState('{}')
  const [errors, setErrors] = useState<Record<string, FieldError>>({})
  const [rawError, setRawError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const ids = useId()
  const outRef = useRef<HTMLDivElement>(null)

  // A fresh result comes into view.
  useEffect(() => {
    if (outcome) outRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' })
  }, [outcome])

  // The chat it runs on must exist (it may have been deleted meanwhile).
  useEffect(() => {
    if (!chats.some((c) => c.id === chatId)) setChatId(activeChatId && chats.some((c) => c.id === activeChatId) ? activeChatId : chats[0]?.id ?? '')
  }, [chats, chatId, activeChatId])

  // Another tool: a fresh form.
  useEffect(() => {
    setValues(emptyValues(fields))
    setRawText('{}')
    setErrors({})
    setRawError(null)
    setOutcome(null)
  }, [fields])

  const chat = chats.find((c) => c.id === chatId) ?? null
  const ws = chatWorkspace(chat)

  const toggleRaw = (on: boolean) => {
    if (on) {
      // Form → JSON: what the form holds so far (even if incomplete).
      const r = argsFromValues(fields, values)
      const partial: Record<string, unknown> = r.ok ? r.args : {}
      if (!r.ok) {
        const lenient = argsFromValues(
          fields.map((f) => ({ ...f, required: false })),
          values,
        )
        if (lenient.ok) Object.assign(partial, lenient.args)
      }
      setRawText(prettyJSON(partial))
      setRawError(null)
      setRaw(true)
    } else {
      const p = parseArgs(rawText)
      if (!p.ok) {
        setRawError(p.error === 'object' ? t('calls.notObject') : t('calls.invalidJson', { error: p.error }))
        return
      }
      setValues(valuesFromArgs(fields, p.value))
      setErrors({})
      setRaw(false)
    }
  }

  const run = async () => {
    if (!chatId || !tool) return
    let args: Record<string, unknown>
    if (raw) {
      const p = parseArgs(rawText)
      if (!p.ok) {
        setRawError(p.error === 'object' ? t('calls.notObject') : t('calls.invalidJson', { error: p.error }))
        return
      }
      args = p.value
    } else {
      const r = argsFromValues(fields, values)
      if (!r.ok) {
        setErrors(r.errors)
        return
      }
      args = r.args
    }
    setErrors({})
    setRawError(null)
    setBusy(true)
    const started = performance.now()
    const r = await runTool(chatId, tool.name, args)
    const ms = performance.now() - started
    setBusy(false)
    if ('output' in r) setOutcome({ ok: true, output: r.output, ms })
    else setOutcome({ ok: false, message: errorSentence(t, r.error), code: r.error.code !== 'unknown' ? r.error.code : undefined, ms })
  }

  if (chats.length === 0) {
    return (
      <section className="lab__section">
        <RunNote />
        <p className="lab__empty" data-testid="lab-run-nochat">
          {t('lab.run.noChats')}
        </p>
      </section>
    )
  }

  return (
    <section className="lab__section run-tool" data-testid="lab-run-panel">
      <RunNote />
      <form
        className="run-tool__form"
        onSubmit={(e) => {
          e.preventDefault()
          void run()
        }}
        noValidate
      >
        <div className="run-tool__pickers">
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-chat`}>
              {t('lab.run.chat')}
            </label>
            <select
              id={`${ids}-chat`}
              className="input select"
              value={chatId}
              onChange={(e) => setChatId(e.target.value)}
              data-testid="lab-run-chat"
            >
              {chats.map((c) => (
                <option key={c.id} value={c.id}>
                  {(c.title || t('chat.untitled')) + (c.id === activeChatId ? ` · ${t('lab.run.current')}` : '')}
                </option>
              ))}
            </select>
            {tool?.kind === 'mcp' ? (
              <McpNote server={tool.server ?? ''} testId="lab-run-mcp-note" />
            ) : (
              <div className="run-tool__ws">
                <span>{t('lab.run.worksIn')}</span>
                <WorkspaceChip kind={ws.kind} dir={ws.dir} testId="lab-run-workspace" max={60} />
              </div>
            )}
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-tool`}>
              {t('lab.run.tool')}
            </label>
            <select
              id={`${ids}-tool`}
              className="input select input--mono"
              value={toolName}
              onChange={(e) => setToolName(e.target.value)}
              data-testid="lab-run-tool"
            >
              {tools.some((x) => x.kind === 'mcp')
                ? groupTools(tools).map((g) => (
                    <optgroup key={g.server ?? ''} label={g.server === null ? t('lab.run.builtinGroup') : t('lab.run.serverGroup', { server: g.server })}>
                      {g.tools.map((x) => (
                        <option key={x.name} value={x.name}>
                          {x.name}
                        </option>
                      ))}
                    </optgroup>
                  ))
                : tools.map((x) => (
                    <option key={x.name} value={x.name}>
                      {x.name}
                    </option>
                  ))}
            </select>
            {tool?.description && <p className="field__hint run-tool__desc">{tool.description}</p>}
          </div>
        </div>

        <div className="run-tool__args">
          <div className="run-tool__args-head">
            <h3 className="lab__h">{t('lab.run.arguments')}</h3>
            <Switch id={`${ids}-raw`} checked={raw} onChange={toggleRaw} label={t('lab.run.rawJson')} testId="lab-raw-toggle" />
          </div>
          {raw ? (
            <div className="field">
              <label className="field__label" htmlFor={`${ids}-rawtext`}>
                {t('calls.editLabel')}
              </label>
              <textarea
                id={`${ids}-rawtext`}
                className="input textarea input--mono run-tool__raw"
                data-testid="lab-raw"
                value={rawText}
                rows={Math.min(Math.max(rawText.split('\n').length + 1, 5), 18)}
                spellCheck={false}
                aria-invalid={!!rawError}
                onChange={(e) => {
                  setRawText(e.target.value)
                  setRawError(null)
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault()
                    void run()
                  }
                }}
              />
              {rawError && (
                <p className="field__error" role="alert" data-testid="lab-raw-error">
                  {rawError}
                </p>
              )}
            </div>
          ) : fields.length === 0 ? (
            <p className="lab-tool__none">{t('lab.noParams')}</p>
          ) : (
            <div className="run-tool__fields">
              {fields.map((f) => (
                <FieldInput
                  key={f.name}
                  id={`${ids}-f-${f.name}`}
                  field={f}
                  value={values[f.name]}
                  error={errors[f.name]}
                  onChange={(v) => {
                    setValues((prev) => ({ ...prev, [f.name]: v }))
                    setErrors((prev) => {
                      if (!prev[f.name]) return prev
                      const next = { ...prev }
                      delete next[f.name]
                      return next
                    })
                  }}
                  onSubmit={() => void run()}
                />
              ))}
            </div>
          )}
        </div>

        <div className="run-tool__run">
          <button type="submit" className="btn btn--primary" data-testid="lab-run" disabled={busy || !tool || !chatId}>
            {busy ? <span className="spinner" aria-hidden="true" /> : <PlayIcon size={12} />}
            {t('lab.run.run', { name: tool?.name ?? '' })}
          </button>
          <span className="tool-card__hint">{t('lab.run.hint')}</span>
        </div>
      </form>

      {outcome && (
        <div className="run-tool__out" aria-live="polite" ref={outRef}>
          {outcome.ok ? (
            <>
              {outcome.output.isError && (
                <div className="status-line status-line--error" role="alert" data-testid="lab-run-reported-error">
                  <AlertIcon size={15} />
                  <span>{t('lab.run.reportedError')}</span>
                </div>
              )}
              <div className={`code-block ${outcome.output.isError ? 'code-block--error' : ''}`}>
                <div className="code-block__bar">
                  <span className="lab__prompt-label">
                    {t('lab.run.output')} · {formatDuration(outcome.ms)}
                  </span>
                  <CopyButton text={outcome.output.text} testId="copy-output" />
                </div>
                <pre className="run-tool__output" data-testid="lab-output">
                  {outcome.output.text || t('lab.run.noOutput')}
                </pre>
              </div>
              <CallImages images={outcome.output.images} toolName={tool?.name ?? ''} />
              {outcome.output.structured !== undefined && (
                <details className="run-tool__structured" data-testid="lab-structured">
                  <summary>{t('lab.run.structured')}</summary>
                  <pre className="tool-card__pre">{prettyJSON(outcome.output.structured)}</pre>
                </details>
              )}
            </>
          ) : (
            <div className="status-line status-line--error" role="alert" data-testid="lab-run-error">
              <AlertIcon size={15} />
              <span>{outcome.message}</span>
              {outcome.code && <code className="status-line__code">{outcome.code}</code>}
            </div>
          )}
        </div>
      )}
    </section>
  )
}

function RunNote() {
  const { t } = useTranslation()
  return (
    <div className="run-tool__note" role="note" data-testid="lab-run-note">
      <ShieldIcon size={16} />
      <div>
        <p className="run-tool__note-title">{t('lab.run.noteTitle')}</p>
        <p>{t('lab.run.note')}</p>
      </div>
    </div>
  )
}

/** One field of a schema form (the Tool lab's arguments; an MCP server's question). */
export function FieldInput({
  id,
  field: f,
  value,
  error,
  onChange,
  onSubmit,
  testPrefix = 'lab-arg-',
}: {
  testPrefix?: string
  id: string
  field: FormField
  value: string | boolean | undefined
  error?: FieldError
  onChange: (v: string | boolean) => void
  onSubmit: () => void
}) {
  const { t } = useTranslation()
  const text = typeof value === 'string' ? value : ''
  const describedBy = [f.description ? `${id}-desc` : '', error ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined
  const common = {
    id,
    'data-testid': `${testPrefix}${f.name}`,
    'aria-required': f.required || undefined,
    'aria-invalid': !!error || undefined,
    'aria-describedby': describedBy,
  }
  const label = (
    <label className="field__label run-field__label" htmlFor={id} id={`${id}-label`}>
      <code>{f.name}</code>
      <span className="run-field__type">{t(`lab.run.types.${f.kind}`)}</span>
      {f.required && <span className="badge badge--accent">{t('lab.required')}</span>}
    </label>
  )
  let control
  switch (f.kind) {
    case 'boolean':
      return (
        <div className="field run-field run-field--bool" data-testid="lab-field" data-name={f.name} data-required={f.required ? 'true' : undefined}>
          <label className="check run-field__check" htmlFor={id}>
            <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
            <code>{f.name}</code>
            {f.required && <span className="badge badge--accent">{t('lab.required')}</span>}
          </label>
          {f.description && (
            <p className="field__hint" id={`${id}-desc`}>
              {f.description}
            </p>
          )}
        </div>
      )
    case 'multi': {
      const on = chosen(value)
      control = (
        <div className="run-field__choices" role="group" aria-labelledby={`${id}-label`} aria-describedby={describedBy} data-testid={`${testPrefix}${f.name}`}>
          {(f.enumValues ?? []).map((v, i) => (
            <label key={v} className="check">
              <input type="checkbox" checked={on.includes(v)} data-value={v}
                onChange={(e) => onChange(JSON.stringify(e.target.checked ? [...on, v] : on.filter((x) => x !== v)))} />
              {f.enumLabels?.[i] ?? v}
            </label>
          ))}
        </div>
      )
      break
    }
    case 'text':
      control = (
        <textarea
          {...common}
          className="input textarea input--mono"
          rows={Math.min(Math.max(text.split('\n').length + 1, 4), 14)}
          spellCheck={false}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              onSubmit()
            }
          }}
        />
      )
      break
    case 'enum':
      control = (
        <select {...common} className="input select" value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">{f.required ? t('lab.run.choose') : t('lab.run.default')}</option>
          {(f.enumValues ?? []).map((v, i) => (
            <option key={v} value={v}>
              {f.enumLabels?.[i] ?? v}
            </option>
          ))}
        </select>
      )
      break
    case 'number':
    case 'integer':
      control = (
        <input
          {...common}
          type="number"
          className="input input--num"
          inputMode={f.kind === 'integer' ? 'numeric' : 'decimal'}
          step={f.kind === 'integer' ? 1 : 'any'}
          min={f.minimum}
          max={f.maximum}
          value={text}
          placeholder={f.default !== undefined ? String(f.default) : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )
      break
    default:
      control = (
        <input
          {...common}
          className={`input ${f.kind === 'json' ? 'input--mono' : ''}`}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          value={text}
          placeholder={f.kind === 'json' ? t('lab.run.jsonPlaceholder') : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )
  }
  return (
    <div className="field run-field" data-testid="lab-field" data-name={f.name} data-kind={f.kind} data-required={f.required ? 'true' : undefined}>
      {label}
      {control}
      {f.description && (
        <p className="field__hint" id={`${id}-desc`}>
          {f.description}
        </p>
      )}
      {error && (
        <p className="field__error" role="alert" id={`${id}-err`} data-testid="lab-field-error">
          {t(`lab.run.errors.${error}`, { min: f.minimum, max: f.maximum })}
        </p>
      )}
    </div>
  )
}
