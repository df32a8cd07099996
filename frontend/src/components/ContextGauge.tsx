import './ContextGauge.css'
import { useTranslation, type TFunction } from '../i18n'
import { usePopover } from '../lib/popover'
import { COMPACTION_MODES, type Compaction, type ContextUsage } from '../api'
import { compactNow, setCompaction, useActiveContextUsage, useContextUsage } from '../store/context'

/** 153115 → "153,115" (WebKit's toLocaleString may leave the separators out). */
export function digits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** 5,230 → "5.2k", 131,072 → "131k". */
export function compactTokens(n: number): string {
  if (n < 1000) return String(n)
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`
  return `${Math.round(n / 1000)}k`
}

/** ok: room to spare; high: over 80 % used; fit: older parts are shortened or left out to fit; over: does not fit. */
export function gaugeLevel(u: ContextUsage): 'ok' | 'high' | 'fit' | 'over' {
  if (u.tooLarge) return 'over'
  if (u.dropped > 0 || u.elided > 0 || u.cut > 0) return 'fit'
  return u.used > u.window * 0.8 ? 'high' : 'ok'
}

function sourceText(t: TFunction, source: string): string {
  switch (source) {
    case 'default':
      return t('context.source.default')
    case "the server's error":
    case 'learned:overflow':
      return t('context.source.overflow')
    case 'AIRLOCK_CONTEXT_WINDOW':
      return t('context.source.env')
    case 'user':
      return t('context.source.user')
    case 'table':
      return t('context.source.table')
  }
  if (source.startsWith('server:')) return t('context.source.server', { server: source.slice(7) })
  return t('context.source.other', { source })
}

/** The chat header's gauge: used / window tokens; a click shows what takes the room. */
export function ContextGauge() {
  const { t } = useTranslation()
  const { chatId, usage } = useActiveContextUsage()
  const { open, setOpen, wrap, button, ids, onKey } = usePopover(chatId)

  if (!chatId || !usage || usage.window <= 0) return null
  const level = gaugeLevel(usage)
  const pct = Math.min(100, Math.round((usage.used / usage.window) * 100))
  return (
    <div className="ctx-gauge" ref={wrap} onKeyDown={onKey}>
      <button
        ref={button}
        type="button"
        className={`ctx-gauge__btn ctx-gauge--${level}`}
        data-testid="context-gauge"
        data-used={usage.used}
        data-window={usage.window}
        data-level={level}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? `${ids}-pop` : undefined}
        title={t('context.gaugeTitle', { used: digits(usage.used), window: digits(usage.window) })}
        onClick={() => setOpen((v) => !v)}
      >
        <span className="ctx-gauge__ring" aria-hidden="true" style={{ ['--pct' as string]: `${pct}%` }} />
        <span className="ctx-gauge__num">{t('context.gauge', { used: compactTokens(usage.used), window: compactTokens(usage.window) })}</span>
      </button>
      {open && <ContextDetails id={`${ids}-pop`} chatId={chatId} usage={usage} />}
    </div>
  )
}

function ContextDetails({ id, chatId, usage: u }: { id: string; chatId: string; usage: ContextUsage }) {
  const { t } = useTranslation()
  const busy = useContextUsage((s) => !!s.compacting[chatId])
  const free = Math.max(0, u.window - u.reserve - u.used)
  const rows: { key: string; label: string; n: number }[] = [
    { key: 'instructions', label: t('context.instructions'), n: u.parts.instructions },
    { key: 'history', label: t('context.history'), n: u.parts.history },
    { key: 'results', label: t('context.results'), n: u.parts.results },
    ...(u.parts.attachments > 0 ? [{ key: 'attachments', label: t('attachments.gaugeAttachments'), n: u.parts.attachments }] : []),
    { key: 'reserve', label: t('context.reserve'), n: u.reserve },
    { key: 'free', label: t('context.free'), n: free },
  ]
  const total = Math.max(u.window, u.used + u.reserve)
  return (
    <div className="popover ctx-gauge__pop" role="dialog" id={id} aria-labelledby={`${id}-title`} data-testid="context-details">
      <h2 className="popover__title" id={`${id}-title`}>
        {t('context.title')}
      </h2>
      <p className="popover__sub">{t('context.sub', { model: u.model || '—' })}</p>
      <div className="ctx-bar" aria-hidden="true">
        {rows.map((r) => (
          <span key={r.key} className={`ctx-bar__part ctx-part--${r.key}`} style={{ width: `${(r.n / total) * 100}%` }} />
        ))}
      </div>
      <ul className="ctx-legend">
        {rows.map((r) => (
          <li key={r.key} data-testid={`context-part-${r.key}`} data-tokens={r.n}>
            <span className={`ctx-legend__dot ctx-part--${r.key}`} aria-hidden="true" />
            <span className="ctx-legend__label">{r.label}</span>
            <span className="ctx-legend__n">{digits(r.n)}</span>
          </li>
        ))}
      </ul>
      <div className="popover__divider" />
      <p className="ctx-note" data-testid="context-window-source">
        {t('context.window', { window: digits(u.window) })} · {sourceText(t, u.source)}
      </p>
      {u.tooLarge && <p className="ctx-note ctx-note--over">{t('context.tooLarge')}</p>}
      {(u.elided > 0 || u.dropped > 0) && (
        <p className="ctx-note" data-testid="context-fitted">
          {u.dropped > 0 ? t('context.fitted', { elided: u.elided, dropped: u.dropped }) : t('context.fittedElided', { elided: u.elided })}{' '}
          {t('context.full', { full: digits(u.full) })}
        </p>
      )}
      {u.cut > 0 && <p className="ctx-note">{t('context.fittedCut', { cut: u.cut })}</p>}
      {u.summarized > 0 && <p className="ctx-note">{t('context.summarized', { count: u.summarized })}</p>}
      <p className="ctx-note ctx-note--quiet">
        {u.calibrated ? t('context.calibrated') : t('context.uncalibrated')}
        {u.reported > 0 && <> {t('context.reported', { tokens: digits(u.reported) })}</>}
      </p>
      <div className="popover__divider" />
      <label className="ctx-mode">
        {t('context.modeLabel')}
        <select data-testid="compaction-mode" value={u.compaction} onChange={(e) => void setCompaction(chatId, e.target.value as Compaction)}>
          {COMPACTION_MODES.map((m) => (
            <option key={m} value={m}>
              {t(`context.modes.${m}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="btn btn--sm btn--secondary" data-testid="compact-now" disabled={busy} onClick={() => void compactNow(chatId)}>
        {busy ? t('context.compacting') : t('context.compactNow')}
      </button>
    </div>
  )
}

/** Above the composer: the draft will not fit the window even fitted. */
export function ContextWarning() {
  const { t } = useTranslation()
  const { usage, draft, files } = useActiveContextUsage()
  if (!usage || (!draft.trim() && !files.length) || !usage.tooLarge) return null
  return (
    <p className="ctx-warning" role="status" data-testid="context-warning">
      {t('context.warnTooLarge', { window: digits(usage.window) })}
    </p>
  )
}
