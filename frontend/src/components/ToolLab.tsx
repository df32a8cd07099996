import './ToolLab.css'
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from '../i18n'
import { toApiError, type Call, type ScanParadigm, type ScanResult, type ToolLab as Lab, type ToolSpec } from '../api'
import { useStore } from '../store'
import { loadToolLab, scanText } from '../store/requests'
import { byteToIndex, clip, prettyJSON, schemaParams } from '../lib/calls'
import { CopyButton } from './CopyButton'
import { ToolCard } from './ToolCard'
import { groupTools, RunToolPanel } from './RunTool'
import { Switch } from './Switch'
import { McpNote } from './ToolCardExtras'
import { AlertIcon, ChevronIcon, FlaskIcon, RetryIcon } from './icons'
import { ViewHeading } from './ViewHeading'

type Tab = 'tools' | 'run' | 'prompts' | 'playground' | 'formats'
const TABS: Tab[] = ['tools', 'run', 'prompts', 'playground', 'formats']

/** The Tool lab: what the model is offered, the exact prompts, and a parser playground. */
export function ToolLab() {
  const { t } = useTranslation()
  // The tools change when an MCP server starts, stops or lists new tools: read the lab again.
  const tools = useStore((s) => s.tools)
  const [tab, setTab] = useState<Tab>('tools')
  const [lab, setLab] = useState<Lab | null>(null)
  const [error, setError] = useState<string | null>(null)
  const ids = useId()

  const load = () => {
    setError(null)
    loadToolLab()
      .then(setLab)
      .catch((err) => setError(toApiError(err).message))
  }
  useEffect(load, [tools])

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.indexOf(tab)
    let n = -1
    if (e.key === 'ArrowRight') n = (i + 1) % TABS.length
    else if (e.key === 'ArrowLeft') n = (i - 1 + TABS.length) % TABS.length
    else if (e.key === 'Home') n = 0
    else if (e.key === 'End') n = TABS.length - 1
    if (n < 0) return
    e.preventDefault()
    setTab(TABS[n])
    requestAnimationFrame(() => document.getElementById(`${ids}-tab-${TABS[n]}`)?.focus())
  }

  return (
    <main className="chat lab" aria-label={t('lab.title')} data-testid="tool-lab">
      <header className="chat__header lab__header">
        <ViewHeading icon={<FlaskIcon size={16} />} title={t('lab.title')} backLabel={t('lab.back')} closeTestId="tool-lab-close" />
        <div className="lab__tabs" role="tablist" aria-label={t('lab.title')}>
          {TABS.map((k) => (
            <button
              key={k}
              id={`${ids}-tab-${k}`}
              type="button"
              role="tab"
              className="lab__tab"
              aria-selected={tab === k}
              aria-controls={`${ids}-panel`}
              tabIndex={tab === k ? 0 : -1}
              data-testid={`lab-tab-${k}`}
              onClick={() => setTab(k)}
              onKeyDown={onTabKey}
            >
              {t(`lab.tabs.${k}`)}
            </button>
          ))}
        </div>
      </header>
      <div className="lab__scroll">
        <div className="lab__inner" role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-tab-${tab}`}>
          {error ? (
            <div className="status-line status-line--error" role="alert">
              <AlertIcon size={15} />
              <span>{error}</span>
              <button type="button" className="btn btn--xs btn--ghost" onClick={load}>
                <RetryIcon size={13} />
                {t('lab.retry')}
              </button>
            </div>
          ) : !lab ? (
            <p className="lab__loading">{t('common.loading')}</p>
          ) : tab === 'tools' ? (
            <ToolsPanel tools={lab.tools} />
          ) : tab === 'run' ? (
            <RunToolPanel tools={lab.tools} />
          ) : tab === 'prompts' ? (
            <PromptsPanel lab={lab} />
          ) : tab === 'playground' ? (
            <Playground formats={lab.formats} />
          ) : (
            <FormatsPanel lab={lab} />
          )}
        </div>
      </div>
    </main>
  )
}

/* ───────────── Tools ───────────── */

function ToolsPanel({ tools }: { tools: ToolSpec[] }) {
  const { t } = useTranslation()
  return (
    <section className="lab__section">
      <p className="lab__intro">{t('lab.toolsIntro', { count: tools.length })}</p>
      {groupTools(tools).map((g) => (
        <div key={g.server ?? ''} className="lab-tools__group" data-testid="lab-tool-group" data-server={g.server ?? undefined}>
          {tools.some((x) => x.kind === 'mcp') && (
            <h3 className="lab__h lab-tools__server">
              {g.server === null ? t('lab.builtinTools') : t('lab.serverTools', { server: g.server })}
            </h3>
          )}
          {g.server !== null && <McpNote server={g.server} testId="lab-mcp-note" />}
          <div className="lab-tools">
            {g.tools.map((tool) => (
              <ToolSpecCard key={tool.name} tool={tool} />
            ))}
          </div>
        </div>
      ))}
    </section>
  )
}

function ToolSpecCard({ tool }: { tool: ToolSpec }) {
  const { t } = useTranslation()
  const [showSchema, setShowSchema] = useState(false)
  const params = schemaParams(tool.parameters)
  const id = useId()
  return (
    <article className="lab-tool" data-testid="lab-tool" data-tool={tool.name}>
      <h3 className="lab-tool__name">{tool.name}</h3>
      <p className="lab-tool__desc">{tool.description}</p>
      {params.length === 0 ? (
        <p className="lab-tool__none">{t('lab.noParams')}</p>
      ) : (
        <table className="lab-table lab-table--params">
          <thead>
            <tr>
              <th>{t('lab.param')}</th>
              <th>{t('lab.type')}</th>
              <th>{t('lab.description')}</th>
            </tr>
          </thead>
          <tbody>
            {params.map((p) => (
              <tr key={p.name}>
                <td>
                  <code>{p.name}</code>
                  {p.required && <span className="badge badge--accent lab-table__req">{t('lab.required')}</span>}
                </td>
                <td>
                  <code className="lab-table__type">{p.type}</code>
                  {p.enumValues && <div className="lab-table__enum">{p.enumValues.join(' | ')}</div>}
                </td>
                <td>{p.description || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button
        type="button"
        className="tool-card__toggle"
        aria-expanded={showSchema}
        aria-controls={id}
        onClick={() => setShowSchema((v) => !v)}
      >
        <ChevronIcon size={13} className="tool-card__chev" />
        {showSchema ? t('lab.hideSchema') : t('lab.showSchema')}
      </button>
      {showSchema && (
        <pre id={id} className="tool-card__pre">
          {prettyJSON(tool.parameters ?? {})}
        </pre>
      )}
    </article>
  )
}

/* ───────────── Prompts ───────────── */

function PromptsPanel({ lab }: { lab: Lab }) {
  const { t } = useTranslation()
  const [current, setCurrent] = useState(lab.paradigms[0]?.id ?? 'json')
  const p = lab.paradigms.find((x) => x.id === current) ?? lab.paradigms[0]
  return (
    <section className="lab__section">
      <p className="lab__intro">{t('lab.promptsIntro')}</p>
      <div className="segmented lab__paradigms" role="tablist" aria-label={t('lab.paradigm')}>
        {lab.paradigms.map((x) => (
          <button
            key={x.id}
            type="button"
            role="tab"
            aria-selected={x.id === current}
            className={`segmented__opt ${x.id === current ? 'is-selected' : ''}`}
            onClick={() => setCurrent(x.id)}
            data-testid={`lab-prompt-${x.id}`}
          >
            {x.label}
          </button>
        ))}
      </div>
      {p && (
        <div className="code-block lab__prompt">
          <div className="code-block__bar">
            <span className="lab__prompt-label">{t('lab.promptFor', { label: p.label })}</span>
            <CopyButton text={p.prompt} testId="copy-prompt" />
          </div>
          <pre data-testid="lab-prompt">{p.prompt}</pre>
        </div>
      )}
    </section>
  )
}

/* ───────────── Playground ───────────── */

const SAMPLE = `I'll check the time first.

<think>Maybe {"tool_calls":[{"name":"calculate","arguments":{"expression":"1+1"}}]}? No, the time.</think>

\`\`\`json
{"tool_calls":[{"id":"call_1","name":"get_current_time","arguments":{"timezone":"Europe/Paris"}}]}
\`\`\`

<tool_call>{"name": "calculate", "arguments": {"expression": "17 * 23"}}</tool_call>

<tool_call>{"name": "teleport", "arguments": {"to": "Mars"}}</tool_call>`

type Region = { start: number; end: number; kind: 'call' | 'problem' | 'ignored'; label: string }

function Playground({ formats }: { formats: Lab['formats'] }) {
  const { t } = useTranslation()
  const familyNames = useMemo(() => Object.fromEntries(formats.map((f) => [f.id, f.name])), [formats])
  const [text, setText] = useState(SAMPLE)
  const [paradigm, setParadigm] = useState<ScanParadigm>('json')
  const [others, setOthers] = useState(true)
  const [result, setResult] = useState<ScanResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const seq = useRef(0)
  const ids = useId()

  useEffect(() => {
    const n = ++seq.current
    const timer = window.setTimeout(() => {
      scanText(text, paradigm, others)
        .then((r) => {
          if (n !== seq.current) return
          setResult(r)
          setError(null)
        })
        .catch((err) => {
          if (n === seq.current) setError(toApiError(err).message)
        })
    }, 150)
    return () => window.clearTimeout(timer)
  }, [text, paradigm, others])

  // Cards exactly as the chat would show them (read-only), in text order.
  const cards = useMemo<Call[]>(() => {
    if (!result) return []
    const now = Date.now()
    const base = { chatId: '', messageId: 'lab', createdAt: now, updatedAt: now }
    const all: { at: number; call: Call }[] = [
      ...result.calls.map((c) => ({
        at: c.start,
        call: {
          ...base,
          id: `lab-call-${c.start}`,
          modelCallId: c.id,
          index: 0,
          name: c.name,
          arguments: c.arguments,
          raw: c.raw ?? text.slice(c.start, c.end),
          format: c.format ?? '',
          state: 'pending' as const,
        },
      })),
      ...result.problems.map((p) => ({
        at: p.start,
        call: {
          ...base,
          id: `lab-problem-${p.start}`,
          modelCallId: p.id ?? '',
          index: 0,
          name: p.name ?? '',
          arguments: null,
          raw: p.raw,
          format: p.format ?? '',
          state: 'problem' as const,
          problem: p.message,
        },
      })),
    ]
    return all.sort((a, b) => a.at - b.at).map((x, i) => ({ ...x.call, index: i }))
  }, [result, text])

  const regions = useMemo<Region[]>(() => {
    if (!result) return []
    const toIdx = byteToIndex(text)
    const r: Region[] = [
      ...result.calls.map((c) => ({ start: toIdx(c.start), end: toIdx(c.end), kind: 'call' as const, label: c.name })),
      ...result.problems.map((p) => ({ start: toIdx(p.start), end: toIdx(p.end), kind: 'problem' as const, label: p.message })),
      ...result.ignored.map((g) => ({
        start: toIdx(g.start),
        end: toIdx(g.end),
        kind: 'ignored' as const,
        label: t(`lab.skipped.${g.reason}`, { defaultValue: g.reason }),
      })),
    ]
    return r.filter((x) => x.end > x.start).sort((a, b) => a.start - b.start)
  }, [result, text, t])

  return (
    <section className="lab__section playground">
      <p className="lab__intro">{t('lab.playgroundIntro')}</p>
      <div className="playground__controls">
        <div className="field playground__paradigm">
          <label className="field__label" htmlFor={`${ids}-paradigm`}>
            {t('lab.paradigm')}
          </label>
          <select
            id={`${ids}-paradigm`}
            className="input select"
            value={paradigm}
            onChange={(e) => setParadigm(e.target.value as ScanParadigm)}
            data-testid="lab-paradigm"
          >
            <option value="json">{t('chatOptions.paradigms.json.label')}</option>
            <option value="xml">{t('chatOptions.paradigms.xml.label')}</option>
            <option value="vcp">{t('chatOptions.paradigms.vcp.label')}</option>
            <option value="auto">{t('lab.auto')}</option>
          </select>
        </div>
        <Switch
          id={`${ids}-others`}
          checked={others}
          onChange={setOthers}
          label={t('chatOptions.recognizeOthers')}
          description={t('lab.othersHint')}
          testId="lab-recognize-others"
        />
      </div>
      <div className="field">
        <div className="playground__label-row">
          <label className="field__label" htmlFor={`${ids}-input`}>
            {t('lab.input')}
          </label>
          <div className="playground__label-actions">
            <button type="button" className="link-btn" onClick={() => setText(SAMPLE)}>
              {t('lab.sample')}
            </button>
            <button type="button" className="link-btn" onClick={() => setText('')}>
              {t('lab.clear')}
            </button>
          </div>
        </div>
        <textarea
          id={`${ids}-input`}
          className="input textarea input--mono playground__input"
          data-testid="lab-input"
          value={text}
          rows={10}
          spellCheck={false}
          placeholder={t('lab.inputPlaceholder')}
          onChange={(e) => setText(e.target.value)}
        />
      </div>

      {error && (
        <div className="status-line status-line--error" role="alert">
          <AlertIcon size={15} />
          <span>{error}</span>
        </div>
      )}

      {result && (
        <>
          <div className="playground__summary" role="status" data-testid="lab-summary">
            <span className="lab-count lab-count--call">{t('lab.foundCalls', { count: result.calls.length })}</span>
            <span className="lab-count lab-count--problem">{t('lab.foundProblems', { count: result.problems.length })}</span>
            <span className="lab-count lab-count--ignored">{t('lab.foundIgnored', { count: result.ignored.length })}</span>
          </div>

          {text && regions.length > 0 && <Highlighted text={text} regions={regions} />}

          <div className="playground__cards" data-testid="lab-calls">
            {cards.length === 0 ? (
              <p className="lab__empty">{t('lab.noCalls')}</p>
            ) : (
              cards.map((c) => (
                <ToolCard key={c.id} call={c} paradigm={paradigm === 'auto' ? undefined : paradigm} readOnly familyNames={familyNames} />
              ))
            )}
          </div>

          {result.ignored.length > 0 && (
            <div className="playground__ignored" data-testid="lab-ignored">
              <h3 className="lab__h">{t('lab.ignoredTitle')}</h3>
              <ul>
                {result.ignored.map((g, i) => {
                  const toIdx = byteToIndex(text)
                  const excerpt = text.slice(toIdx(g.start), toIdx(g.end))
                  return (
                    <li key={i}>
                      <span className="lab-skip">{t(`lab.skipped.${g.reason}`, { defaultValue: g.reason })}</span>
                      <code>{clip(excerpt.replace(/\s+/g, ' ').trim(), 120)}</code>
                    </li>
                  )
                })}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  )
}

/** The input with what the scanner found marked: calls, problems, skipped regions. */
function Highlighted({ text, regions }: { text: string; regions: Region[] }) {
  const { t } = useTranslation()
  const parts: ReactNode[] = []
  let pos = 0
  regions.forEach((r, i) => {
    const start = Math.max(r.start, pos)
    if (r.end <= start) return
    if (start > pos) parts.push(text.slice(pos, start))
    parts.push(
      <mark key={i} className={`hl hl--${r.kind}`} title={r.label}>
        {text.slice(start, r.end)}
      </mark>,
    )
    pos = r.end
  })
  if (pos < text.length) parts.push(text.slice(pos))
  return (
    <div className="playground__map">
      <div className="playground__legend" aria-hidden="true">
        <span className="hl hl--call">{t('lab.legendCall')}</span>
        <span className="hl hl--problem">{t('lab.legendProblem')}</span>
        <span className="hl hl--ignored">{t('lab.legendIgnored')}</span>
      </div>
      <pre className="playground__text" data-testid="lab-map">
        {parts}
      </pre>
    </div>
  )
}

/* ───────────── Formats ───────────── */

function FormatsPanel({ lab }: { lab: Lab }) {
  const { t } = useTranslation()
  return (
    <section className="lab__section">
      <p className="lab__intro">{t('lab.formatsIntro', { count: lab.formats.length })}</p>
      <table className="lab-table lab-formats" data-testid="lab-formats">
        <thead>
          <tr>
            <th>{t('lab.format')}</th>
            <th>{t('lab.models')}</th>
            <th>{t('lab.example')}</th>
            <th>{t('lab.source')}</th>
          </tr>
        </thead>
        <tbody>
          {lab.formats.map((f) => (
            <tr key={f.id}>
              <td>
                <span className="lab-formats__name">{f.name}</span>
                <code className="lab-formats__id">{f.id}</code>
              </td>
              <td className="lab-formats__models">{f.models}</td>
              <td>
                <pre className="lab-formats__example">{f.example}</pre>
              </td>
              <td className="lab-formats__source">{f.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
