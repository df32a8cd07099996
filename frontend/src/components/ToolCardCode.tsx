// The card of a code run (run_javascript, run_python): before the run the
// code itself, numbered and highlighted, with the engine, its bounds and
// whether it may write; after it the run's report: output, return value,
// the files it changed (with diffs), time and memory, and the bound it hit.
import './ToolCardCode.css'
import { Suspense } from 'react'
import { useTranslation } from '../i18n'
import type { Call, CodeBounds, CodePlan, CodeReport } from '../api'
import { formatDuration } from '../lib/calls'
import { formatSize } from '../lib/tree'
import { lazyWithPreload } from '../lib/lazy'
import { DiffView } from './Diff'
import { AlertIcon, ShieldIcon } from './icons'

const CodeListing = lazyWithPreload(() => import('./CodeListing'))

type Args = { code?: unknown; read_only?: unknown; timeout?: unknown }

const argsOf = (c: Call): Args => ((c.edited ?? c.arguments ?? {}) as Args) || {}

/** The report of a finished run, when the call has one. */
export function codeReport(c: Call): CodeReport | null {
  const s = c.structured as Partial<CodeReport> | undefined
  return s && typeof s === 'object' && typeof s.engine === 'string' && typeof s.stdout === 'string' ? (s as CodeReport) : null
}

function planOf(c: Call): Partial<CodePlan> {
  const r = codeReport(c)
  if (r) return r
  return (c.preview && typeof c.preview === 'object' ? c.preview : {}) as Partial<CodePlan>
}

/** The code, the engine, the bounds and read-only or read-write. */
export function CodePlanBox({ call: c }: { call: Call }) {
  const { t } = useTranslation()
  const args = argsOf(c)
  const code = typeof args.code === 'string' ? args.code : ''
  const plan = planOf(c)
  const language = c.name === 'run_python' ? 'python' : 'javascript'
  const readOnly = plan.readOnly ?? args.read_only === true
  return (
    <div className="code-plan" data-testid="code-plan" data-read-only={readOnly ? 'true' : 'false'}>
      <div className="code-plan__meta">
        {plan.engine && (
          <span className="code-chip" data-testid="code-engine" title={t('code.engine')}>
            {plan.engine}
          </span>
        )}
        <span
          className={`code-chip ${readOnly ? 'code-chip--ro' : 'code-chip--rw'}`}
          data-testid="code-access"
          title={t(readOnly ? 'code.readOnlyHint' : 'code.readWriteHint')}
        >
          <ShieldIcon size={11} />
          {t(readOnly ? 'code.readOnly' : 'code.readWrite')}
        </span>
        {plan.bounds && <BoundsChips bounds={plan.bounds} />}
      </div>
      <div className="code-plan__label">
        {t('code.code')} · {t('code.lines', { count: code.replace(/\n$/, '').split('\n').length })}
      </div>
      <Suspense fallback={<PlainListing code={code} />}>
        <CodeListing code={code} language={language} />
      </Suspense>
    </div>
  )
}

function PlainListing({ code }: { code: string }) {
  const lines = code.replace(/\n$/, '').split('\n')
  return (
    <div className="code-listing" data-testid="code-listing">
      <pre className="code-listing__gutter" aria-hidden="true">
        {lines.map((_, i) => `${i + 1}\n`).join('')}
      </pre>
      <pre className="code-listing__code">
        <code>{code}</code>
      </pre>
    </div>
  )
}

function BoundsChips({ bounds: b }: { bounds: CodeBounds }) {
  const { t } = useTranslation()
  return (
    <span className="code-plan__bounds" data-testid="code-bounds" title={t('code.bounds')}>
      <span className="code-chip">{t('code.bound.time', { value: formatDuration(b.timeoutMs) })}</span>
      <span className="code-chip">{t('code.bound.memory', { value: formatSize(b.memoryBytes) })}</span>
      <span className="code-chip">{t('code.bound.output', { value: formatSize(b.outputBytes) })}</span>
      <span className="code-chip">{t('code.bound.files', { value: b.maxFiles })}</span>
      <span className="code-chip">{t('code.bound.write', { value: formatSize(b.writeBytes) })}</span>
    </span>
  )
}

/** What the run did. */
export function CodeReportBox({ report: r }: { report: CodeReport }) {
  const { t } = useTranslation()
  const stopped = r.cancelled ? t('code.cancelled') : r.bound ? t(`code.hit.${r.bound}`) : ''
  return (
    <div className="code-report" data-testid="code-report" data-bound={r.bound || undefined}>
      {(stopped || r.error) && (
        <div className={`code-report__stop ${r.error ? 'is-error' : ''}`} data-testid="code-stop" role="note">
          <AlertIcon size={14} />
          <span>
            {stopped} {r.error && r.error !== stopped ? r.error : ''}
          </span>
        </div>
      )}
      {r.stdout || r.stdoutCut ? <Stream label={t('code.stdout')} text={r.stdout} cut={r.stdoutCut} testId="code-stdout" /> : null}
      {r.stderr || r.stderrCut ? <Stream label={t('code.stderr')} text={r.stderr} cut={r.stderrCut} testId="code-stderr" tone="error" /> : null}
      {!r.stdout && !r.stderr && !r.value && !r.error && <p className="code-report__none">{t('code.noOutput')}</p>}
      {r.value && (
        <div className="code-report__value" data-testid="code-value">
          <span className="code-report__label">{t('code.value')}</span>
          <code>{r.value}</code>
        </div>
      )}
      {r.files && r.files.length > 0 && (
        <div className="code-report__files" data-testid="code-files">
          <span className="code-report__label">{t('code.filesChanged')}</span>
          <ul>
            {r.files.map((f) => (
              <li key={f.path} data-testid="code-file" data-path={f.path} data-change={f.change}>
                <span className={`code-report__change code-report__change--${f.change}`}>{t(`code.change.${f.change}`)}</span>
                <code>{f.path}</code>
                {f.change !== 'deleted' && !f.path.endsWith('/') && <span className="code-report__size">{formatSize(f.size)}</span>}
                {f.diff && <DiffView diff={f.diff} testId="code-file-diff" collapseAt={12} />}
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.readOnlyRefused ? <p className="code-report__note">{t('code.refused', { count: r.readOnlyRefused })}</p> : null}
      <p className="code-report__stats" data-testid="code-stats">
        {t('code.took', { time: formatDuration(r.durationMs) })}
        {' · '}
        {t('code.started', { time: formatDuration(r.startMs) })}
        {r.memoryBytes ? <> · {t('code.memoryUsed', { size: formatSize(r.memoryBytes) })}</> : null}
      </p>
    </div>
  )
}

function Stream({ label, text, cut, testId, tone }: { label: string; text: string; cut?: number; testId: string; tone?: 'error' }) {
  const { t } = useTranslation()
  return (
    <div className={`code-report__stream ${tone ? `is-${tone}` : ''}`}>
      <span className="code-report__label">{label}</span>
      <pre className="tool-card__pre tool-card__pre--wrap" data-testid={testId}>
        {text}
      </pre>
      {cut ? <p className="code-report__note">{t('code.cut', { size: formatSize(cut) })}</p> : null}
    </div>
  )
}

/** The arguments a "Run read-only" approval runs with. */
export function readOnlyArgs(c: Call): Record<string, unknown> | null {
  const a = argsOf(c) as Record<string, unknown>
  return a.read_only === true ? null : { ...a, read_only: true }
}
