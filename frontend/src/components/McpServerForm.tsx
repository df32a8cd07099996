import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from '../i18n'
import { errorSentence } from '../i18n/backendText'
import { MASKED, type McpServerInfo, type McpTransport } from '../api'
import { OAuthClientFields } from './McpSignIn'
import { configFromDraft, draftFromConfig, fieldOfError, newRow, type DraftField, type KeyValueRow, type McpDraft } from '../lib/mcp'
import { saveMcpServer } from '../store/mcp'
import { AlertIcon, ArrowLeftIcon, ChevronIcon, PlusIcon, ShieldIcon, TrashIcon } from './icons'

const TRANSPORTS: McpTransport[] = ['stdio', 'http', 'sse']

type FormError = { field: DraftField | null; text: string; code?: string }

/** Add (server null) or edit an MCP server. Hidden values show as ••• placeholders: left empty, they are kept. */
export function McpServerForm({ server, onDone }: { server: McpServerInfo | null; onDone: (saved: boolean) => void }) {
  const { t } = useTranslation()
  const original = server?.config ?? null
  const [draft, setDraft] = useState<McpDraft>(() => draftFromConfig(original))
  const [error, setError] = useState<FormError | null>(null)
  const [busy, setBusy] = useState(false)
  const [advanced, setAdvanced] = useState(!!original?.initTimeout)
  const ids = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const stdio = draft.transport === 'stdio'

  // The panel swapped the list for this form: start at the name.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[data-field="name"]')?.focus()
  }, [])

  const set = <K extends keyof McpDraft>(k: K, v: McpDraft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }))
    setError(null)
  }

  const focusField = (field: DraftField | null) => {
    if (!field) return
    if (field === 'initTimeout') setAdvanced(true)
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[data-field="${field}"]`)?.focus())
  }

  const submit = async () => {
    const r = configFromDraft(draft, original)
    if ('error' in r) {
      setError({ field: r.error.field, text: String(t(`mcp.form.errors.${r.error.key}`, r.error.vars)) })
      focusField(r.error.field)
      return
    }
    setBusy(true)
    const err = await saveMcpServer(server?.name ?? '', r.config)
    setBusy(false)
    if (!err) {
      onDone(true)
      return
    }
    const field = fieldOfError(err.code, err.message)
    setError({ field, text: errorSentence(t, err), code: err.code !== 'unknown' ? err.code : undefined })
    focusField(field)
  }

  const invalid = (f: DraftField) => (error?.field === f ? true : undefined)
  const errId = `${ids}-error`
  const describe = (f: DraftField, hint?: string) => [hint, error?.field === f ? errId : ''].filter(Boolean).join(' ') || undefined

  return (
    <form
      ref={formRef}
      className="form mcp-form"
      data-testid="mcp-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (!busy) void submit()
      }}
    >
      <div className="form__head">
        <button
          type="button"
          className="icon-btn icon-btn--sm"
          data-testid="mcp-back"
          aria-label={t('mcp.form.back')}
          title={t('mcp.form.back')}
          onClick={() => onDone(false)}
        >
          <ArrowLeftIcon size={16} />
        </button>
        <h3 className="form__title">{server ? t('mcp.form.editTitle', { name: server.name }) : t('mcp.form.newTitle')}</h3>
      </div>

      <Field id={`${ids}-name`} label={t('mcp.form.name')} hint={t('mcp.form.nameHint')}>
        <input
          id={`${ids}-name`}
          className="input input--mono"
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
          data-field="name"
          data-testid="mcp-name"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          aria-invalid={invalid('name')}
          aria-describedby={describe('name', `${ids}-name-hint`)}
        />
      </Field>

      <fieldset className="mcp-form__transports">
        <legend className="field__label">{t('mcp.form.transport')}</legend>
        {TRANSPORTS.map((tr) => (
          <label key={tr} className={`mcp-form__transport ${draft.transport === tr ? 'is-selected' : ''}`}>
            <input
              type="radio"
              name={`${ids}-transport`}
              value={tr}
              checked={draft.transport === tr}
              onChange={() => set('transport', tr)}
              data-testid="mcp-transport"
            />
            <span>{t(`mcp.transports.${tr}`)}</span>
          </label>
        ))}
      </fieldset>

      {stdio ? (
        <>
          <Field id={`${ids}-command`} label={t('mcp.form.command')} hint={t('mcp.form.commandHint')}>
            <input
              id={`${ids}-command`}
              className="input input--mono"
              value={draft.command}
              onChange={(e) => set('command', e.target.value)}
              placeholder="npx"
              data-field="command"
              data-testid="mcp-command"
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              aria-invalid={invalid('command')}
              aria-describedby={describe('command', `${ids}-command-hint`)}
            />
          </Field>
          <Field id={`${ids}-args`} label={t('mcp.form.args')} hint={t('mcp.form.argsHint')}>
            <textarea
              id={`${ids}-args`}
              className="input textarea input--mono mcp-form__args"
              value={draft.argsText}
              rows={Math.min(Math.max(draft.argsText.split('\n').length + 1, 3), 10)}
              onChange={(e) => setDraft((d) => ({ ...d, argsText: e.target.value, argsTouched: true }))}
              placeholder={'-y\n@modelcontextprotocol/server-everything'}
              data-field="args"
              data-testid="mcp-args"
              spellCheck={false}
              aria-invalid={invalid('args')}
              aria-describedby={describe('args', `${ids}-args-hint`)}
            />
          </Field>
          <Field id={`${ids}-dir`} label={t('mcp.form.dir')} hint={t('mcp.form.dirHint')}>
            <input
              id={`${ids}-dir`}
              className="input input--mono"
              value={draft.dir}
              onChange={(e) => set('dir', e.target.value)}
              data-field="dir"
              data-testid="mcp-dir"
              spellCheck={false}
              autoComplete="off"
              aria-invalid={invalid('dir')}
              aria-describedby={describe('dir', `${ids}-dir-hint`)}
            />
          </Field>
          <KeyValueEditor
            field="env"
            label={t('mcp.form.env')}
            addLabel={t('mcp.form.envAdd')}
            rows={draft.env}
            onChange={(rows) => set('env', rows)}
            testPrefix="mcp-env"
            keyPlaceholder="API_KEY"
            invalid={!!invalid('env')}
            errorId={error?.field === 'env' ? errId : undefined}
          />
          <p className="mcp-form__trust" role="note">
            <ShieldIcon size={14} />
            <span>{t('mcp.form.trustNote')}</span>
          </p>
        </>
      ) : (
        <>
          <Field id={`${ids}-url`} label={t('mcp.form.url')} hint={draft.url.includes(MASKED) ? t('mcp.form.urlMasked') : t('mcp.form.urlHint')}>
            <input
              id={`${ids}-url`}
              className="input input--mono"
              value={draft.url}
              onChange={(e) => set('url', e.target.value)}
              placeholder="https://example.com/mcp"
              inputMode="url"
              data-field="url"
              data-testid="mcp-url"
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              aria-invalid={invalid('url')}
              aria-describedby={describe('url', `${ids}-url-hint`)}
            />
          </Field>
          <KeyValueEditor
            field="headers"
            label={t('mcp.form.headers')}
            addLabel={t('mcp.form.headersAdd')}
            rows={draft.headers}
            onChange={(rows) => set('headers', rows)}
            testPrefix="mcp-header"
            keyPlaceholder="Authorization"
            invalid={!!invalid('headers')}
            errorId={error?.field === 'headers' ? errId : undefined}
          />
          {draft.transport === 'http' && (
            <OAuthClientFields
              id={ids}
              clientId={draft.oauthClientId}
              secret={draft.oauthClientSecret}
              onClientId={(v) => set('oauthClientId', v)}
              onSecret={(v) => set('oauthClientSecret', v)}
            />
          )}
        </>
      )}

      <div className="mcp-form__advanced">
        <button
          type="button"
          className="tool-card__toggle"
          aria-expanded={advanced}
          aria-controls={`${ids}-advanced`}
          data-testid="mcp-advanced"
          onClick={() => setAdvanced((v) => !v)}
        >
          <ChevronIcon size={13} className="tool-card__chev" />
          {t('mcp.form.advanced')}
        </button>
        {advanced && (
          <div id={`${ids}-advanced`} className="mcp-form__advanced-body">
            <Field id={`${ids}-timeout`} label={t('mcp.form.initTimeout')} hint={t('mcp.form.initTimeoutHint')}>
              <input
                id={`${ids}-timeout`}
                className="input input--num"
                type="number"
                min={1}
                max={600}
                step="any"
                inputMode="decimal"
                placeholder="20"
                value={draft.initTimeout}
                onChange={(e) => set('initTimeout', e.target.value)}
                data-field="initTimeout"
                data-testid="mcp-init-timeout"
                aria-invalid={invalid('initTimeout')}
                aria-describedby={describe('initTimeout', `${ids}-timeout-hint`)}
              />
            </Field>
          </div>
        )}
      </div>

      {error && (
        <div className="status-line status-line--error" role="alert" id={errId} data-testid="mcp-form-error">
          <AlertIcon size={15} />
          <span>{error.text}</span>
          {error.code && <code className="status-line__code">{error.code}</code>}
        </div>
      )}

      <div className="form__actions">
        <div className="form__actions-left" />
        <div className="form__actions-right">
          <button type="button" className="btn btn--ghost" data-testid="mcp-cancel" onClick={() => onDone(false)}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" data-testid="mcp-save" disabled={busy}>
            {busy && <span className="spinner" aria-hidden="true" />}
            {t('common.save')}
          </button>
        </div>
      </div>
    </form>
  )
}

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  )
}

/** Rows of name = value. A row whose saved value is hidden shows ••• as its placeholder. */
function KeyValueEditor({
  field,
  label,
  addLabel,
  rows,
  onChange,
  testPrefix,
  keyPlaceholder,
  invalid,
  errorId,
}: {
  field: 'env' | 'headers'
  label: string
  addLabel: string
  rows: KeyValueRow[]
  onChange: (rows: KeyValueRow[]) => void
  testPrefix: string
  keyPlaceholder: string
  invalid: boolean
  errorId?: string
}) {
  const { t } = useTranslation()
  const labelId = useId()
  const listRef = useRef<HTMLDivElement>(null)
  const patch = (id: number, p: Partial<KeyValueRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...p } : r)))
  /** Left empty, this row keeps its saved (hidden) value: only under the name it was saved with. */
  const keepsSaved = (r: KeyValueRow) => r.masked && r.key.trim() === r.origKey
  // A row just added takes focus (its name first).
  const focusNew = useRef(false)
  useEffect(() => {
    if (!focusNew.current) return
    focusNew.current = false
    const keys = listRef.current?.querySelectorAll<HTMLInputElement>(`[data-testid="${testPrefix}-key"]`)
    keys?.[keys.length - 1]?.focus()
  }, [rows.length, testPrefix])
  const add = () => {
    focusNew.current = true
    onChange([...rows, newRow()])
  }
  return (
    <div className="field mcp-kv" role="group" aria-labelledby={labelId} aria-describedby={errorId}>
      <span className="field__label" id={labelId}>
        {label}
      </span>
      {rows.length > 0 && (
        <div className="mcp-kv__rows" ref={listRef}>
          {rows.map((r, i) => (
            <div key={r.id} className="mcp-kv__row" data-testid={`${testPrefix}-row`} data-masked={keepsSaved(r) ? 'true' : undefined}>
              <input
                className="input input--mono"
                value={r.key}
                placeholder={keyPlaceholder}
                aria-label={t('mcp.form.keyLabel', { group: label, n: i + 1 })}
                aria-invalid={invalid || undefined}
                data-field={i === 0 ? field : undefined}
                data-testid={`${testPrefix}-key`}
                spellCheck={false}
                autoCapitalize="off"
                autoComplete="off"
                onChange={(e) => patch(r.id, { key: e.target.value })}
              />
              <span className="mcp-kv__eq" aria-hidden="true">
                =
              </span>
              <input
                className="input input--mono"
                value={r.value}
                placeholder={keepsSaved(r) ? t('mcp.form.maskedPlaceholder') : t('mcp.form.value')}
                aria-label={t('mcp.form.valueLabel', { group: label, n: i + 1 })}
                data-testid={`${testPrefix}-value`}
                spellCheck={false}
                autoCapitalize="off"
                autoComplete="off"
                onChange={(e) => patch(r.id, { value: e.target.value })}
              />
              <button
                type="button"
                className="icon-btn icon-btn--sm icon-btn--danger"
                aria-label={t('mcp.form.removeRow', { n: i + 1 })}
                title={t('mcp.form.removeRow', { n: i + 1 })}
                data-testid={`${testPrefix}-remove`}
                onClick={() => onChange(rows.filter((x) => x.id !== r.id))}
              >
                <TrashIcon size={14} />
              </button>
            </div>
          ))}
        </div>
      )}
      <button type="button" className="btn btn--ghost btn--xs mcp-kv__add" data-testid={`${testPrefix}-add`} onClick={add}>
        <PlusIcon size={13} />
        {addLabel}
      </button>
      {rows.some((r) => r.masked) && <p className="field__hint">{t('mcp.form.maskedHint')}</p>}
    </div>
  )
}
