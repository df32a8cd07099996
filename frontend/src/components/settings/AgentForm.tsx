// The agent editor: model (optional), prompt, options, tools one by one, limits.
import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../../i18n'
import { ApiError, TOOL_MODES, type Agent, type ToolMode } from '../../api'
import { errorSentence } from '../../i18n/backendText'
import { loadToolList, saveAgent, useAgents } from '../../store/agents'
import { ToolChecklist } from '../ChatTools'
import { ModelMenu } from '../ModelPicker'
import { Switch } from '../Switch'
import { Field } from './fields'
import { AgentApproval } from './AgentApproval'

/** A number field where empty means "the provider's default" (null). */
function OptionalNumber({
  id,
  label,
  value,
  step,
  min,
  max,
  onChange,
}: {
  id: string
  label: string
  value: number | null
  step: number
  min: number
  max: number
  onChange: (v: number | null) => void
}) {
  const [text, setText] = useState(value === null ? '' : String(value))
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        className="input"
        type="number"
        inputMode="decimal"
        step={step}
        min={min}
        max={max}
        value={text}
        data-testid={`agent-${id.split('-').pop()}`}
        onChange={(e) => {
          setText(e.target.value)
          const v = e.target.value.trim() === '' ? null : Number(e.target.value)
          onChange(v === null || Number.isNaN(v) ? null : v)
        }}
      />
    </Field>
  )
}

export function AgentForm({ agent, onDone }: { agent: Agent; onDone: () => void }) {
  const { t } = useTranslation()
  const ids = useId()
  const toolList = useAgents((s) => s.toolList)
  const [a, setA] = useState<Agent>(agent)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const [pickModel, setPickModel] = useState(false)
  useEffect(() => {
    void loadToolList()
  }, [])
  const set = <K extends keyof Agent>(k: K, v: Agent[K]) => {
    setA((x) => ({ ...x, [k]: v }))
    setError('')
  }
  const toolOn = (name: string, readOnly: boolean) => {
    if (a.tools.readOnly && readOnly) return false
    const toggles = a.tools.toggles ?? {}
    return name in toggles ? toggles[name] : a.tools.default
  }

  const save = async () => {
    setBusy(true)
    const r = await saveAgent(a)
    setBusy(false)
    if (r instanceof ApiError) setError(errorSentence(t, r))
    else onDone()
  }

  return (
    <form
      className="form agent-form"
      data-testid="agent-form"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <h3 className="form__section">{a.id ? t('agents.form.titleEdit', { name: agent.name }) : t('agents.form.titleNew')}</h3>
      <div className="form__row">
        <Field id={`${ids}-name`} label={t('agents.form.name')}>
          <input id={`${ids}-name`} className="input" value={a.name} maxLength={80} data-testid="agent-name" autoFocus onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field id={`${ids}-desc`} label={t('agents.form.description')}>
          <input id={`${ids}-desc`} className="input" value={a.description} onChange={(e) => set('description', e.target.value)} />
        </Field>
      </div>
      <Field id={`${ids}-model`} label={t('agents.form.model')}>
        <div className="agent-form__model">
          <button type="button" className="btn btn--ghost" data-testid="agent-model" aria-expanded={pickModel} onClick={() => setPickModel((v) => !v)}>
            {a.model || t('agents.form.modelNone')}
          </button>
          {a.providerId && (
            <button type="button" className="btn btn--ghost" onClick={() => setA((x) => ({ ...x, providerId: '', model: '' }))}>
              {t('agents.form.modelNone')}
            </button>
          )}
        </div>
        {pickModel && (
          <div className="agent-form__picker">
            <ModelMenu
              providerId={a.providerId}
              model={a.model}
              onPick={(p, m) => {
                setA((x) => ({ ...x, providerId: p, model: m }))
                setPickModel(false)
              }}
            />
          </div>
        )}
      </Field>
      <Field id={`${ids}-sys`} label={t('agents.form.systemPrompt')} hint={t('agents.form.systemPromptHint')}>
        <textarea id={`${ids}-sys`} className="input textarea" rows={4} value={a.systemPrompt} data-testid="agent-system" onChange={(e) => set('systemPrompt', e.target.value)} />
      </Field>

      <h3 className="form__section">{t('agents.form.generation')}</h3>
      <p className="form__note">{t('agents.form.generationHint')}</p>
      <div className="form__row form__row--3">
        <OptionalNumber id={`${ids}-temperature`} label={t('agents.form.temperature')} value={a.temperature} step={0.1} min={0} max={2} onChange={(v) => set('temperature', v)} />
        <OptionalNumber id={`${ids}-topp`} label={t('agents.form.topP')} value={a.topP} step={0.05} min={0} max={1} onChange={(v) => set('topP', v)} />
        <OptionalNumber
          id={`${ids}-maxtokens`}
          label={t('agents.form.maxTokens')}
          value={a.maxOutputTokens || null}
          step={1}
          min={1}
          max={1_000_000}
          onChange={(v) => set('maxOutputTokens', v === null ? 0 : Math.round(v))}
        />
      </div>

      <h3 className="form__section">{t('agents.form.tools')}</h3>
      <div className="form__row">
        <Field id={`${ids}-mode`} label={t('agents.form.toolMode')}>
          <select id={`${ids}-mode`} className="input select" value={a.toolMode} onChange={(e) => set('toolMode', e.target.value as ToolMode)}>
            {TOOL_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`general.toolModes.${m}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${ids}-par`} label={t('agents.form.paradigm')}>
          <select id={`${ids}-par`} className="input select" value={a.paradigm} onChange={(e) => set('paradigm', e.target.value as Agent['paradigm'])}>
            {(['json', 'xml', 'vcp'] as const).map((p) => (
              <option key={p} value={p}>
                {t(`chatOptions.paradigms.${p}.label`)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Switch
        id={`${ids}-ro`}
        checked={a.tools.readOnly}
        onChange={(v) => set('tools', { ...a.tools, readOnly: v })}
        label={t('agents.form.readOnly')}
        testId="agent-readonly"
      />
      <label className="agent-form__default">
        {t('agents.form.toolsDefault')}{' '}
        <select className="input select" value={a.tools.default ? 'on' : 'off'} onChange={(e) => set('tools', { ...a.tools, default: e.target.value === 'on' })}>
          <option value="on">{t('agents.form.on')}</option>
          <option value="off">{t('agents.form.off')}</option>
        </select>
      </label>
      <p className="form__note">{t('agents.tools.ruleVsToggle')}</p>
      {toolList && (
        <ToolChecklist
          tools={toolList.map((x) => ({ ...x, readOnly: a.tools.readOnly && x.readOnly }))}
          isOn={(x) => toolOn(x.name, x.readOnly)}
          onToggle={(x, on) => set('tools', { ...a.tools, toggles: { ...(a.tools.toggles ?? {}), [x.name]: on } })}
          note={(x) => (x.readOnly ? t('agents.tools.readOnly') : '')}
        />
      )}

      <AgentApproval mode={a.approval} onChange={(m) => set('approval', m)} />

      <h3 className="form__section">{t('agents.form.limits')}</h3>
      <div className="form__row form__row--3">
        <Field id={`${ids}-turns`} label={t('agents.form.maxTurns')}>
          <input id={`${ids}-turns`} className="input" type="number" min={1} max={1000} value={a.maxTurns} onChange={(e) => set('maxTurns', Math.round(Number(e.target.value)))} />
        </Field>
        <Field id={`${ids}-timeout`} label={t('agents.form.toolTimeout')}>
          <input id={`${ids}-timeout`} className="input" type="number" min={1} max={3600} value={a.toolTimeoutSeconds} onChange={(e) => set('toolTimeoutSeconds', Math.round(Number(e.target.value)))} />
        </Field>
        <Field id={`${ids}-ws`} label={t('agents.form.workspace')}>
          <select id={`${ids}-ws`} className="input select" value={a.workspaceKind} onChange={(e) => set('workspaceKind', e.target.value as Agent['workspaceKind'])}>
            {(['scratch', 'folder', 'overlay'] as const).map((k) => (
              <option key={k} value={k} disabled={k !== 'scratch' && !a.workspaceDir}>
                {t(`workspace.kinds.${k}`)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field id={`${ids}-dir`} label={t('agents.form.workspaceDir')} hint={t('agents.form.workspaceDirHint')}>
        <input
          id={`${ids}-dir`}
          className="input"
          value={a.workspaceDir}
          spellCheck={false}
          onChange={(e) => {
            const dir = e.target.value
            setA((x) => ({ ...x, workspaceDir: dir, workspaceKind: dir.trim() ? x.workspaceKind : 'scratch' }))
          }}
        />
      </Field>
      <Switch
        id={`${ids}-seq`}
        checked={a.sequential}
        onChange={(v) => set('sequential', v)}
        label={t('agents.form.sequential')}
        description={t('agents.form.sequentialHint')}
        testId="agent-sequential"
      />
      {error && (
        <p className="field__error" role="alert" data-testid="agent-error">
          {error}
        </p>
      )}
      <div className="form__actions">
        <div className="form__actions-left" />
        <div className="form__actions-right">
          <button type="button" className="btn btn--ghost" onClick={onDone}>
            {t('agents.form.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy || !a.name.trim()} data-testid="agent-save">
            {t('agents.form.save')}
          </button>
        </div>
      </div>
    </form>
  )
}
