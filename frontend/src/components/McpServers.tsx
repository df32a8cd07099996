import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../i18n'
import { renderText } from '../i18n/backendText'
import type { McpServerInfo } from '../api'
import { configSummary, transportOf } from '../lib/mcp'
import { fullDate } from '../lib/time'
import { McpSignInRow } from './McpSignIn'
import { McpInstructions } from './McpInstructions'
import { deleteMcpServer, loadMcpServers, restartMcpServer, setMcpEnabled, useMcp } from '../store/mcp'
import { ConfirmDialog } from './Dialog'
import { McpImportDialog } from './McpImport'
import { McpServerForm } from './McpServerForm'
import { AlertIcon, CheckIcon, ChevronIcon, PencilIcon, PlusIcon, RetryIcon, ServerIcon, TrashIcon, UploadIcon } from './icons'
import '../styles/mcp.css'

export const MCP_EXAMPLE = '{"mcpServers":{"everything":{"command":"npx","args":["-y","@modelcontextprotocol/server-everything"]}}}'

type View = { kind: 'list' } | { kind: 'form'; server: McpServerInfo | null }

/** Settings ▸ Tools: the MCP servers, their state, and adding, editing and importing them. */
export function McpServersPanel() {
  const { t } = useTranslation()
  const servers = useMcp((s) => s.servers)
  const loaded = useMcp((s) => s.loaded)
  const loadError = useMcp((s) => s.loadError)
  const envFile = useMcp((s) => s.envFile)
  const envError = useMcp((s) => s.envError)
  const [view, setView] = useState<View>({ kind: 'list' })
  const [importOpen, setImportOpen] = useState(false)
  const [importText, setImportText] = useState('')
  const [saved, setSaved] = useState(false)
  const headingId = useId()

  useEffect(() => {
    void loadMcpServers()
  }, [])

  const openImport = (text = '') => {
    setImportText(text)
    setImportOpen(true)
  }

  if (view.kind === 'form') {
    return (
      <McpServerForm
        server={view.server}
        onDone={(didSave) => {
          setSaved(didSave)
          setView({ kind: 'list' })
        }}
      />
    )
  }

  return (
    <section className="mcp" data-testid="mcp-panel" aria-labelledby={headingId}>
      <div className="mcp__head">
        <h3 className="mcp__title" id={headingId}>
          <ServerIcon size={16} />
          {t('mcp.title')}
        </h3>
        <div className="mcp__head-actions">
          <button type="button" className="btn btn--secondary btn--sm" data-testid="mcp-import-open" onClick={() => openImport()}>
            <UploadIcon size={14} />
            {t('mcp.import')}
          </button>
          <button
            type="button"
            className="btn btn--primary btn--sm"
            data-testid="mcp-add"
            onClick={() => {
              setSaved(false)
              setView({ kind: 'form', server: null })
            }}
          >
            <PlusIcon size={14} />
            {t('mcp.add')}
          </button>
        </div>
      </div>
      <p className="mcp__intro">{t('mcp.intro')}</p>

      {envError && (
        <div className="status-line status-line--error" role="alert" data-testid="mcp-env-error">
          <AlertIcon size={15} />
          <span>{t('mcp.envError', { message: envError })}</span>
        </div>
      )}
      {envFile && (
        <p className="mcp__env-file" data-testid="mcp-env-file">
          {t('mcp.envFile', { file: envFile })}
        </p>
      )}
      {saved && (
        <div className="status-line status-line--ok" role="status" data-testid="mcp-saved">
          <CheckIcon size={15} />
          <span>{t('mcp.form.saved')}</span>
        </div>
      )}

      {loadError ? (
        <div className="status-line status-line--error" role="alert" data-testid="mcp-load-error">
          <AlertIcon size={15} />
          <span>{t('mcp.loadFailed', { message: loadError })}</span>
          <button type="button" className="btn btn--xs btn--ghost" onClick={() => void loadMcpServers()}>
            <RetryIcon size={13} />
            {t('mcp.retry')}
          </button>
        </div>
      ) : !loaded ? (
        <p className="form__note">{t('common.loading')}</p>
      ) : servers.length === 0 ? (
        <McpEmpty onUseExample={() => openImport(JSON.stringify(JSON.parse(MCP_EXAMPLE), null, 2))} />
      ) : (
        <ul className="mcp-list" aria-label={t('mcp.listLabel')}>
          {servers.map((s) => (
            <McpServerRow
              key={s.name}
              server={s}
              onEdit={() => {
                setSaved(false)
                setView({ kind: 'form', server: s })
              }}
            />
          ))}
        </ul>
      )}

      <McpImportDialog open={importOpen} initialText={importText} onClose={() => setImportOpen(false)} />
    </section>
  )
}

function McpEmpty({ onUseExample }: { onUseExample: () => void }) {
  const { t } = useTranslation()
  return (
    <div className="mcp-empty" data-testid="mcp-empty">
      <p className="mcp-empty__title">{t('mcp.emptyTitle')}</p>
      <p>{t('mcp.emptyBody')}</p>
      <pre className="mcp-empty__example" data-testid="mcp-example">
        {JSON.stringify(JSON.parse(MCP_EXAMPLE), null, 2)}
      </pre>
      <button type="button" className="btn btn--secondary btn--sm" data-testid="mcp-use-example" onClick={onUseExample}>
        <UploadIcon size={14} />
        {t('mcp.useExample')}
      </button>
      <p className="mcp-empty__approval">{t('mcp.emptyApproval')}</p>
    </div>
  )
}

/** The badge's words for a server: starting (spinner), ready · N tools, failed, stopped or disabled. */
export function McpStatusBadge({ server: s }: { server: McpServerInfo }) {
  const { t, i18n } = useTranslation()
  const disabled = s.state === 'stopped' && !s.config.enabled
  const label =
    s.state === 'ready'
      ? t('mcp.state.ready', { count: s.tools })
      : disabled
        ? t('mcp.state.disabled')
        : t(`mcp.state.${s.state}`)
  const when = Date.parse(s.since)
  return (
    <span
      className={`mcp-badge mcp-badge--${disabled ? 'disabled' : s.state}`}
      data-testid="mcp-status"
      title={Number.isFinite(when) ? t('mcp.since', { time: fullDate(when, i18n.language) }) : undefined}
    >
      {s.state === 'starting' ? (
        <span className="spinner spinner--xs" aria-hidden="true" />
      ) : s.state === 'failed' ? (
        <AlertIcon size={12} />
      ) : (
        <span className="mcp-badge__dot" aria-hidden="true" />
      )}
      {label}
    </span>
  )
}

function McpServerRow({ server: s, onEdit }: { server: McpServerInfo; onEdit: () => void }) {
  const { t } = useTranslation()
  const busy = useMcp((st) => st.busy[s.name])
  const [showOutput, setShowOutput] = useState(false)
  const [confirm, setConfirm] = useState(false)
  const ids = useId()
  const transport = transportOf(s.config)
  const summary = configSummary(s.config)
  // A server switched off says so on its badge: no reason needed.
  const reason = s.state === 'stopped' && !s.config.enabled ? '' : renderText(t, s.reasonText, s.reason ?? '')

  return (
    <li
      className={`mcp-row ${s.config.enabled || s.fromEnv ? '' : 'is-disabled'}`}
      data-testid="mcp-server"
      data-name={s.name}
      data-state={s.state}
      data-enabled={s.config.enabled ? 'true' : 'false'}
      aria-labelledby={`${ids}-name`}
    >
      <div className="mcp-row__head">
        {!s.fromEnv && (
          <button
            type="button"
            role="switch"
            aria-checked={s.config.enabled}
            aria-label={t('mcp.enableLabel', { name: s.name })}
            className={`switch ${s.config.enabled ? 'is-on' : ''}`}
            data-testid="mcp-enable"
            disabled={!!busy}
            onClick={() => void setMcpEnabled(s.name, !s.config.enabled)}
          >
            <span className="switch__thumb" aria-hidden="true" />
          </button>
        )}
        <span className="mcp-row__name" id={`${ids}-name`}>
          {s.name}
        </span>
        {s.fromEnv && (
          <span className="badge" data-testid="mcp-from-env" title={t('mcp.fromEnvHint')}>
            {t('mcp.fromEnv')}
          </span>
        )}
        <McpStatusBadge server={s} />
        <span className="mcp-row__actions">
          <button
            type="button"
            className="btn btn--xs btn--ghost"
            data-testid="mcp-restart"
            aria-label={t('mcp.restartLabel', { name: s.name })}
            disabled={!!busy || (!s.config.enabled && !s.fromEnv)}
            onClick={() => void restartMcpServer(s.name)}
          >
            {busy === 'restart' ? <span className="spinner spinner--xs" aria-hidden="true" /> : <RetryIcon size={13} />}
            {busy === 'restart' ? t('mcp.restarting') : t('mcp.restart')}
          </button>
          {!s.fromEnv && (
            <>
              <button
                type="button"
                className="btn btn--xs btn--ghost"
                data-testid="mcp-edit"
                aria-label={t('mcp.editLabel', { name: s.name })}
                disabled={!!busy}
                onClick={onEdit}
              >
                <PencilIcon size={13} />
                {t('mcp.edit')}
              </button>
              <button
                type="button"
                className="btn btn--xs btn--ghost btn--danger-text"
                data-testid="mcp-remove"
                aria-label={t('mcp.removeLabel', { name: s.name })}
                disabled={!!busy}
                onClick={() => setConfirm(true)}
              >
                <TrashIcon size={13} />
                {t('mcp.remove')}
              </button>
            </>
          )}
        </span>
      </div>

      <p className="mcp-row__summary">
        <span className="mcp-row__transport">{t(`mcp.transportTags.${transport}`)}</span>
        <code className="mcp-row__cmd" title={summary}>
          {summary}
        </code>
      </p>
      {(s.serverName || s.serverVersion) && (
        <p className="mcp-row__reports" data-testid="mcp-reports">
          {t('mcp.reports', { name: s.serverName ?? '', version: s.serverVersion ?? '' })}
        </p>
      )}

      {reason && (
        <p className={`mcp-row__reason ${s.state === 'failed' ? 'is-failed' : ''}`} data-testid="mcp-reason">
          {s.state === 'failed' && <AlertIcon size={14} />}
          <span>{reason}</span>
        </p>
      )}
      <McpSignInRow s={s} />
      <McpInstructions s={s} />
      {s.restartsOnUse && (
        <p className="mcp-row__note" data-testid="mcp-restarts-on-use">
          {t('mcp.restartsOnUse')}
        </p>
      )}
      {s.problems.length > 0 && (
        <div className="mcp-row__problems" data-testid="mcp-problems">
          <p className="mcp-row__problems-title">
            <AlertIcon size={13} />
            {t('mcp.problems', { count: s.problems.length })}
          </p>
          <ul>
            {s.problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      {s.stderr && (
        <div className="mcp-row__output">
          <button
            type="button"
            className="tool-card__toggle"
            aria-expanded={showOutput}
            aria-controls={`${ids}-stderr`}
            data-testid="mcp-stderr-toggle"
            onClick={() => setShowOutput((v) => !v)}
          >
            <ChevronIcon size={13} className="tool-card__chev" />
            {t('mcp.serverOutput')}
          </button>
          {showOutput && (
            <pre id={`${ids}-stderr`} className="mcp-row__stderr" data-testid="mcp-stderr" tabIndex={0}>
              {s.stderr}
            </pre>
          )}
        </div>
      )}

      <ConfirmDialog
        open={confirm}
        title={t('mcp.removeTitle')}
        message={t('mcp.removeMessage', { name: s.name })}
        confirmLabel={t('mcp.remove')}
        busy={busy === 'delete'}
        testId="mcp-remove-confirm"
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          await deleteMcpServer(s.name)
          setConfirm(false)
        }}
      />
    </li>
  )
}
