import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { takeProviderIntent } from '../lib/settingsIntent'
import { useTranslation } from 'react-i18next'
import {
  DEMO_PROVIDER_ID,
  ENV_PROVIDER_ID,
  TOOL_MODES,
  toApiError,
  type Language,
  type Provider,
  type Settings,
  type Theme,
  type ToolMode,
} from '../api'
import { useStore, type SettingsTab } from '../store'
import { listModels, testConnection } from '../store/requests'
import { modLabel } from '../lib/hooks'
import { ConfirmDialog, Dialog } from './Dialog'
import { Switch } from './Switch'
import { DataPanel } from './DataPanel'
import { McpServersPanel } from './McpServers'
import { PermissionsPanel } from './settings/PermissionsPanel'
import { AlertIcon, CheckIcon, EyeIcon, EyeOffIcon, InfoIcon, LogoMark, PlusIcon, ServerIcon, TrashIcon } from './icons'

export const PRESETS: { id: string; name: string; baseUrl: string }[] = [
  { id: 'openai', name: 'OpenAI', baseUrl: 'https://api.openai.com/v1' },
  { id: 'ollama', name: 'Ollama', baseUrl: 'http://localhost:11434/v1' },
  { id: 'lmstudio', name: 'LM Studio', baseUrl: 'http://localhost:1234/v1' },
  { id: 'openrouter', name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1' },
  { id: 'deepseek', name: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1' },
]

const TABS: SettingsTab[] = ['providers', 'general', 'tools', 'permissions', 'data', 'about']

export function SettingsDialog() {
  const { t } = useTranslation()
  const open = useStore((s) => s.settingsOpen)
  const tab = useStore((s) => s.settingsTab)
  const close = useStore((s) => s.closeSettings)
  const openSettings = useStore((s) => s.openSettings)
  const tabIds = useId()

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.indexOf(tab)
    let next = -1
    if (e.key === 'ArrowDown' || e.key === 'ArrowRight') next = (i + 1) % TABS.length
    else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') next = (i - 1 + TABS.length) % TABS.length
    else if (e.key === 'Home') next = 0
    else if (e.key === 'End') next = TABS.length - 1
    if (next < 0) return
    e.preventDefault()
    openSettings(TABS[next])
    requestAnimationFrame(() => document.getElementById(`${tabIds}-tab-${TABS[next]}`)?.focus())
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={t('settings.title')}
      testId="settings-dialog"
      className="dialog--settings"
      initialFocus={`[aria-selected="true"]`}
    >
      <div className="settings">
        <div className="settings__tabs" role="tablist" aria-orientation="vertical" aria-label={t('settings.title')}>
          {TABS.map((k) => (
            <button
              key={k}
              id={`${tabIds}-tab-${k}`}
              type="button"
              role="tab"
              aria-selected={tab === k}
              aria-controls={`${tabIds}-panel`}
              tabIndex={tab === k ? 0 : -1}
              className="settings__tab"
              data-testid={`settings-tab-${k}`}
              onClick={() => openSettings(k)}
              onKeyDown={onTabKey}
            >
              {t(`settings.tabs.${k}`)}
            </button>
          ))}
        </div>
        <div
          className="settings__panel"
          role="tabpanel"
          id={`${tabIds}-panel`}
          aria-labelledby={`${tabIds}-tab-${tab}`}
        >
          {tab === 'providers' && <ProvidersPanel />}
          {tab === 'general' && <GeneralPanel />}
          {tab === 'tools' && <McpServersPanel />}
          {tab === 'permissions' && <PermissionsPanel />}
          {tab === 'data' && <DataPanel />}
          {tab === 'about' && <AboutPanel />}
        </div>
      </div>
    </Dialog>
  )
}

/* ───────────────────────────── Providers ───────────────────────────── */

const NEW_ID = '__new__'
const emptyProvider = (): Provider => ({ id: '', name: '', baseUrl: '', apiKey: '', model: '', demo: false })
const isDemo = (p: Provider) => p.demo || p.id === DEMO_PROVIDER_ID
const isEnv = (p: Provider) => p.id === ENV_PROVIDER_ID

function ProvidersPanel() {
  const { t } = useTranslation()
  const providers = useStore((s) => s.providers)
  const activeId = useStore((s) => s.settings?.activeProviderId)
  const loadProviders = useStore((s) => s.loadProviders)
  const [selected, setSelected] = useState<string>(() => (takeProviderIntent() === 'new' ? NEW_ID : activeId ?? providers[0]?.id ?? NEW_ID))
  // Feedback that must survive the form remounting (a new provider gets its id on save).
  const [flash, setFlash] = useState<{ id: string; status: Status } | null>(null)

  useEffect(() => {
    void loadProviders()
  }, [loadProviders])

  useEffect(() => {
    if (selected !== NEW_ID && !providers.some((p) => p.id === selected)) {
      setSelected(activeId && providers.some((p) => p.id === activeId) ? activeId : providers[0]?.id ?? NEW_ID)
    }
  }, [providers, selected, activeId])

  const current = selected === NEW_ID ? null : providers.find((p) => p.id === selected) ?? null

  return (
    <div className="providers">
      <div className="providers__list">
        <ul aria-label={t('providers.listLabel')}>
          {providers.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className={`provider-row ${selected === p.id ? 'is-selected' : ''}`}
                aria-pressed={selected === p.id}
                data-testid="provider-row"
                data-provider-id={p.id}
                onClick={() => {
                  setFlash(null)
                  setSelected(p.id)
                }}
              >
                <span className="provider-row__icon">{isDemo(p) ? <LogoMark size={18} /> : <ServerIcon size={15} />}</span>
                <span className="provider-row__text">
                  <span className="provider-row__name">{p.name || p.id}</span>
                  <span className="provider-row__model">{p.model || t('provider.noModel')}</span>
                </span>
                {p.id === activeId && <span className="badge badge--accent">{t('providers.active')}</span>}
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className={`btn btn--ghost btn--sm providers__add ${selected === NEW_ID ? 'is-selected' : ''}`}
          onClick={() => {
            setFlash(null)
            setSelected(NEW_ID)
          }}
          data-testid="provider-add"
        >
          <PlusIcon size={14} />
          {t('providers.add')}
        </button>
      </div>
      <div className="providers__form">
        <ProviderForm
          key={selected}
          provider={current}
          isActive={!!current && current.id === activeId}
          initialStatus={flash && flash.id === selected ? flash.status : null}
          onFlash={(id, status) => setFlash({ id, status })}
          onSaved={(p) => setSelected(p.id)}
          onDeleted={() => setSelected(activeId ?? NEW_ID)}
        />
      </div>
    </div>
  )
}

/** Inline feedback: `key` (+vars) for our own sentences, so they follow a language switch; `text` for the backend's. */
type Status = { kind: 'ok' | 'error' | 'info'; text?: string; key?: string; vars?: Record<string, unknown>; code?: string } | null

function ProviderForm({
  provider,
  isActive,
  initialStatus,
  onFlash,
  onSaved,
  onDeleted,
}: {
  provider: Provider | null
  isActive: boolean
  initialStatus: Status
  onFlash: (id: string, status: Status) => void
  onSaved: (p: Provider) => void
  onDeleted: () => void
}) {
  const { t } = useTranslation()
  const saveProvider = useStore((s) => s.saveProvider)
  const deleteProvider = useStore((s) => s.deleteProvider)
  const setActiveProvider = useStore((s) => s.setActiveProvider)
  const keyStorage = useStore((s) => s.info?.keyStorage)
  const [draft, setDraft] = useState<Provider>(() => provider ?? emptyProvider())
  const [showKey, setShowKey] = useState(false)
  const [models, setModels] = useState<string[]>([])
  const [busy, setBusy] = useState<null | 'save' | 'test' | 'models' | 'active' | 'delete'>(null)
  const [status, setStatus] = useState<Status>(initialStatus)
  const [modelStatus, setModelStatus] = useState<Status>(null)
  const [confirm, setConfirm] = useState(false)
  const ids = useId()
  const statusBox = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (initialStatus) setStatus(initialStatus)
  }, [initialStatus])

  // A result (Test connection, Save) is scrolled into view: below the fold it looks as if the button did nothing.
  useEffect(() => {
    if (status) statusBox.current?.scrollIntoView?.({ block: 'nearest' })
  }, [status])

  const isNew = !provider
  const readOnly = !!provider && (isDemo(provider) || isEnv(provider))
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(provider ?? emptyProvider()), [draft, provider])
  const valid = draft.name.trim() !== '' && /^https?:\/\/\S+$/i.test(draft.baseUrl.trim())

  const set = <K extends keyof Provider>(k: K, v: Provider[K]) => {
    setDraft((d) => ({ ...d, [k]: v }))
    setStatus(null)
  }
  const clean = (): Provider => ({ ...draft, name: draft.name.trim(), baseUrl: draft.baseUrl.trim(), model: draft.model.trim() })

  const run = async <T,>(kind: NonNullable<typeof busy>, fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(kind)
    try {
      return await fn()
    } catch (err) {
      const e = toApiError(err)
      const target = kind === 'models' ? setModelStatus : setStatus
      target({ kind: 'error', text: e.message, code: e.code !== 'unknown' ? e.code : undefined })
      return undefined
    } finally {
      setBusy(null)
    }
  }

  const save = async () => {
    const saved = await run('save', () => saveProvider(clean()))
    if (saved) {
      setDraft(saved)
      setStatus({ kind: 'ok', key: 'providers.saved' })
      onFlash(saved.id, { kind: 'ok', key: 'providers.saved' })
      onSaved(saved)
    }
    return saved
  }

  const test = async () => {
    setStatus(null)
    const sentence = await run('test', () => testConnection(clean()))
    if (sentence !== undefined) setStatus(sentence ? { kind: 'ok', text: sentence } : { kind: 'ok', key: 'providers.testOk' })
  }

  const loadModels = async () => {
    setModelStatus(null)
    const list = await run('models', () => listModels(clean()))
    if (list) {
      const sorted = [...new Set(list)].sort((a, b) => a.localeCompare(b))
      setModels(sorted)
      setModelStatus({ kind: 'info', key: 'providers.modelsLoaded', vars: { count: sorted.length } })
    }
  }

  const makeActive = async () => {
    let id = provider?.id
    if (!readOnly && (dirty || isNew)) {
      const saved = await save()
      if (!saved) return
      id = saved.id
    }
    if (!id) return
    setBusy('active')
    let next: Status
    try {
      await setActiveProvider(id)
      next = { kind: 'ok', key: 'providers.nowActive' }
    } catch (err) {
      const e = toApiError(err)
      next = { kind: 'error', text: e.message, code: e.code !== 'unknown' ? e.code : undefined }
    } finally {
      setBusy(null)
    }
    // The form may have remounted (a new provider got its id): report through the panel too.
    setStatus(next)
    onFlash(id, next)
  }

  const doDelete = async () => {
    if (!provider) return
    const ok = await run('delete', async () => {
      await deleteProvider(provider.id)
      return true
    })
    setConfirm(false)
    if (ok) onDeleted()
  }

  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault()
        if (!readOnly && valid) void save()
      }}
      data-testid="provider-form"
    >
      <div className="form__head">
        <h3 className="form__title">{isNew ? t('providers.newTitle') : draft.name || draft.id}</h3>
        {provider && isActive && <span className="badge badge--accent">{t('providers.active')}</span>}
        {provider && isDemo(provider) && <span className="badge badge--demo">{t('provider.demoBadge')}</span>}
        {provider && isEnv(provider) && <span className="badge">{t('provider.envBadge')}</span>}
      </div>
      {provider && isDemo(provider) && <p className="form__note">{t('providers.demoNote')}</p>}
      {provider && isEnv(provider) && <p className="form__note">{t('providers.envNote')}</p>}

      <Field id={`${ids}-name`} label={t('providers.name')}>
        <input
          id={`${ids}-name`}
          className="input"
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
          readOnly={readOnly}
          placeholder={t('providers.namePlaceholder')}
          data-autofocus={isNew ? true : undefined}
          data-testid="provider-name"
        />
      </Field>

      {!(provider && isDemo(provider)) && (
        <Field id={`${ids}-url`} label={t('providers.baseUrl')} hint={readOnly ? undefined : t('providers.baseUrlHint')}>
          <input
            id={`${ids}-url`}
            className="input input--mono"
            value={draft.baseUrl}
            onChange={(e) => set('baseUrl', e.target.value)}
            readOnly={readOnly}
            placeholder="https://api.example.com/v1"
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            inputMode="url"
            data-testid="provider-base-url"
          />
          {!readOnly && (
            <div className="presets" role="group" aria-label={t('providers.presets')}>
              {PRESETS.map((p) => (
                <button
                  key={p.id}
                  type="button"
                  className={`chip ${draft.baseUrl === p.baseUrl ? 'is-selected' : ''}`}
                  aria-pressed={draft.baseUrl === p.baseUrl}
                  onClick={() => {
                    setDraft((d) => ({
                      ...d,
                      baseUrl: p.baseUrl,
                      name: !d.name.trim() || PRESETS.some((x) => x.name === d.name) ? p.name : d.name,
                    }))
                    setStatus(null)
                  }}
                  title={p.baseUrl}
                >
                  {p.name}
                </button>
              ))}
            </div>
          )}
        </Field>
      )}

      {!(provider && isDemo(provider)) && (
        <Field
          id={`${ids}-key`}
          label={t('providers.apiKey')}
          hint={
            readOnly || keyStorage === 'database'
              ? undefined // the fallback note below says where the key goes
              : t(keyStorage === 'keychain' ? 'providers.apiKeyHintKeychain' : 'providers.apiKeyHint')
          }
        >
          <div className="input-group">
            <input
              id={`${ids}-key`}
              className="input input--mono"
              type={showKey ? 'text' : 'password'}
              value={draft.apiKey}
              onChange={(e) => set('apiKey', e.target.value)}
              readOnly={readOnly}
              autoComplete="off"
              spellCheck={false}
              placeholder={t('providers.apiKeyPlaceholder')}
              data-testid="provider-api-key"
            />
            <button
              type="button"
              className="icon-btn"
              onClick={() => setShowKey((v) => !v)}
              aria-label={showKey ? t('providers.hideKey') : t('providers.showKey')}
              aria-pressed={showKey}
              title={showKey ? t('providers.hideKey') : t('providers.showKey')}
            >
              {showKey ? <EyeOffIcon /> : <EyeIcon />}
            </button>
          </div>
          {!readOnly && keyStorage === 'database' && (
            <p className="field__hint" role="note" data-testid="keychain-fallback">
              {t('providers.apiKeyNoKeychain')}
            </p>
          )}
        </Field>
      )}

      <Field id={`${ids}-model`} label={t('providers.model')} hint={readOnly ? undefined : t('providers.modelHint')}>
        <div className="input-group">
          <ModelCombobox
            id={`${ids}-model`}
            value={draft.model}
            models={models}
            readOnly={readOnly}
            onChange={(v) => set('model', v)}
          />
          {!readOnly && (
            <button
              type="button"
              className="btn btn--secondary btn--sm"
              onClick={() => void loadModels()}
              disabled={busy !== null || !/^https?:\/\//i.test(draft.baseUrl.trim())}
              data-testid="load-models"
            >
              {busy === 'models' ? <span className="spinner" aria-hidden="true" /> : null}
              {t('providers.loadModels')}
            </button>
          )}
        </div>
        {modelStatus && <StatusLine status={modelStatus} />}
      </Field>

      <div className="form__actions">
        <div className="form__actions-left">
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => void test()}
            disabled={busy !== null || (!readOnly && !valid)}
            data-testid="test-connection"
          >
            {busy === 'test' && <span className="spinner" aria-hidden="true" />}
            {t('providers.test')}
          </button>
          {provider && !readOnly && (
            <button
              type="button"
              className="btn btn--ghost btn--danger-text"
              onClick={() => setConfirm(true)}
              disabled={busy !== null}
              data-testid="provider-delete"
            >
              <TrashIcon size={14} />
              {t('providers.delete')}
            </button>
          )}
        </div>
        <div className="form__actions-right">
          {!isActive && (
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => void makeActive()}
              disabled={busy !== null || (!readOnly && !valid)}
              data-testid="provider-make-active"
            >
              {t('providers.makeActive')}
            </button>
          )}
          {!readOnly && (
            <button
              type="submit"
              className="btn btn--primary"
              disabled={busy !== null || !valid || (!dirty && !isNew)}
              data-testid="provider-save"
            >
              {busy === 'save' && <span className="spinner" aria-hidden="true" />}
              {t('common.save')}
            </button>
          )}
        </div>
        {/* Beside the buttons, inside the sticky bar: a result below the fold looks like a dead button. */}
        <div ref={statusBox} className="form__actions-status">
          {status && <StatusLine status={status} testId="provider-status" />}
        </div>
      </div>

      <ConfirmDialog
        open={confirm}
        title={t('providers.deleteTitle')}
        message={t('providers.deleteMessage', { name: provider?.name ?? '' })}
        confirmLabel={t('providers.delete')}
        busy={busy === 'delete'}
        onCancel={() => setConfirm(false)}
        onConfirm={() => void doDelete()}
      />
    </form>
  )
}

function ModelCombobox({
  id,
  value,
  models,
  readOnly,
  onChange,
}: {
  id: string
  value: string
  models: string[]
  readOnly: boolean
  onChange: (v: string) => void
}) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const listId = `${id}-list`
  const listRef = useRef<HTMLUListElement>(null)
  const prevCount = useRef(models.length)

  const q = value.trim().toLowerCase()
  const filtered = useMemo(() => {
    if (!q || models.includes(value)) return models
    return models.filter((m) => m.toLowerCase().includes(q))
  }, [models, q, value])

  // Open the list when a fresh set of models arrives.
  useEffect(() => {
    if (models.length > 0 && models.length !== prevCount.current) setOpen(true)
    prevCount.current = models.length
  }, [models])

  useEffect(() => {
    if (active >= 0) listRef.current?.children[active]?.scrollIntoView({ block: 'nearest' })
  }, [active])

  const show = open && !readOnly && filtered.length > 0
  const pick = (m: string) => {
    onChange(m)
    setOpen(false)
    setActive(-1)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (readOnly) return
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      if (!open) setOpen(true)
      setActive((a) => Math.min(a + 1, filtered.length - 1))
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((a) => Math.max(a - 1, 0))
    } else if (e.key === 'Enter' && show && active >= 0) {
      e.preventDefault()
      pick(filtered[active])
    } else if (e.key === 'Escape' && show) {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
    }
  }

  return (
    <div className="combo">
      <input
        id={id}
        className="input input--mono"
        role="combobox"
        aria-expanded={show}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={show && active >= 0 ? `${id}-opt-${active}` : undefined}
        value={value}
        readOnly={readOnly}
        spellCheck={false}
        autoComplete="off"
        placeholder={t('providers.modelPlaceholder')}
        onChange={(e) => {
          onChange(e.target.value)
          setOpen(true)
          setActive(-1)
        }}
        onFocus={() => models.length > 0 && setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        data-testid="provider-model"
      />
      {show && (
        <ul className="combo__list" id={listId} role="listbox" ref={listRef} aria-label={t('providers.model')}>
          {filtered.map((m, i) => (
            <li
              key={m}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={m === value}
              className={`combo__opt ${i === active ? 'is-active' : ''} ${m === value ? 'is-current' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault()
                pick(m)
              }}
              onMouseEnter={() => setActive(i)}
            >
              {m}
              {m === value && <CheckIcon size={14} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/* ───────────────────────────── General ───────────────────────────── */

function GeneralPanel() {
  const { t } = useTranslation()
  const settings = useStore((s) => s.settings)
  const saveSettings = useStore((s) => s.saveSettings)
  const [draft, setDraft] = useState<Settings | null>(settings)
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState<Status>(null)
  const ids = useId()
  const lastTemp = useRef(settings && settings.temperature >= 0 ? settings.temperature : 0.7)

  useEffect(() => {
    setDraft((d) => d ?? settings)
  }, [settings])

  if (!draft) return <p className="form__note">{t('common.loading')}</p>

  const dirty = JSON.stringify(draft) !== JSON.stringify(settings)
  const useDefault = draft.temperature < 0
  const turnsOk = Number.isInteger(draft.maxTurns) && draft.maxTurns >= 1 && draft.maxTurns <= 1000
  const timeoutOk = Number.isInteger(draft.toolTimeoutSeconds) && draft.toolTimeoutSeconds >= 1 && draft.toolTimeoutSeconds <= 3600
  const valid = turnsOk && timeoutOk
  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => {
    setDraft({ ...draft, [k]: v })
    setStatus(null)
  }

  const save = async () => {
    setBusy(true)
    try {
      const saved = await saveSettings(draft)
      setDraft(saved)
      setStatus({ kind: 'ok', key: 'general.saved' })
      // Save turns disabled once nothing is left to save: focus goes to the
      // "Saved" line instead of falling to the page (Escape still closes).
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="general-status"]')?.focus())
    } catch (err) {
      const e = toApiError(err)
      setStatus({ kind: 'error', text: e.message, code: e.code !== 'unknown' ? e.code : undefined })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault()
        if (valid) void save()
      }}
      data-testid="general-form"
    >
      <Field id={`${ids}-sys`} label={t('general.systemPrompt')} hint={t('general.systemPromptHint')}>
        <textarea
          id={`${ids}-sys`}
          className="input textarea"
          rows={5}
          value={draft.systemPrompt}
          onChange={(e) => set('systemPrompt', e.target.value)}
          placeholder={t('general.systemPromptPlaceholder')}
          data-testid="system-prompt"
        />
      </Field>

      <Field id={`${ids}-temp`} label={t('general.temperature')} hint={t('general.temperatureHint')}>
        <div className="temp">
          <input
            id={`${ids}-temp`}
            type="range"
            min={0}
            max={2}
            step={0.05}
            value={useDefault ? lastTemp.current : draft.temperature}
            disabled={useDefault}
            onChange={(e) => {
              const v = Number(e.target.value)
              lastTemp.current = v
              set('temperature', v)
            }}
            className="range"
            data-testid="temperature"
          />
          <output className="temp__value" htmlFor={`${ids}-temp`}>
            {useDefault ? t('general.default') : draft.temperature.toFixed(2)}
          </output>
          <label className="check">
            <input
              type="checkbox"
              checked={useDefault}
              onChange={(e) => set('temperature', e.target.checked ? -1 : lastTemp.current)}
              data-testid="temperature-default"
            />
            <span>{t('general.providerDefault')}</span>
          </label>
        </div>
      </Field>

      <div className="form__row">
        <Field id={`${ids}-lang`} label={t('general.language')}>
          <select
            id={`${ids}-lang`}
            className="input select"
            value={draft.language}
            onChange={(e) => set('language', e.target.value as Language)}
            data-testid="language"
          >
            <option value="auto">{t('general.languageAuto')}</option>
            <option value="en">{t('general.languageEn')}</option>
            <option value="zh">{t('general.languageZh')}</option>
          </select>
        </Field>
        <Field id={`${ids}-theme`} label={t('general.theme')}>
          <Segmented
            id={`${ids}-theme`}
            value={draft.theme}
            options={(['system', 'light', 'dark'] as Theme[]).map((v) => ({ value: v, label: t(`general.themes.${v}`) }))}
            onChange={(v) => set('theme', v as Theme)}
          />
        </Field>
      </div>

      <h3 className="form__section">{t('general.toolsTitle')}</h3>
      <Switch
        id={`${ids}-auto`}
        checked={draft.autoContinue}
        onChange={(v) => set('autoContinue', v)}
        label={t('general.autoContinue')}
        description={t('general.autoContinueHint')}
        testId="auto-continue"
      />
      <Field id={`${ids}-toolmode`} label={t('general.toolMode')} hint={t('general.toolModeHint')}>
        <Segmented
          id={`${ids}-toolmode`}
          value={draft.toolMode}
          options={TOOL_MODES.map((v) => ({ value: v, label: t(`general.toolModes.${v}`) }))}
          onChange={(v) => set('toolMode', v as ToolMode)}
          testId="settings-tool-mode"
        />
      </Field>
      <div className="form__row">
        <Field
          id={`${ids}-turns`}
          label={t('general.maxTurns')}
          hint={turnsOk ? t('general.maxTurnsHint') : undefined}
          error={turnsOk ? undefined : t('general.rangeError', { min: 1, max: 1000 })}
        >
          <input
            id={`${ids}-turns`}
            className="input input--num"
            type="number"
            min={1}
            max={1000}
            step={1}
            inputMode="numeric"
            value={Number.isNaN(draft.maxTurns) ? '' : draft.maxTurns}
            onChange={(e) => set('maxTurns', e.target.value === '' ? NaN : Number(e.target.value))}
            aria-invalid={!turnsOk}
            data-testid="max-turns"
          />
        </Field>
        <Field
          id={`${ids}-timeout`}
          label={t('general.toolTimeout')}
          hint={timeoutOk ? t('general.toolTimeoutHint') : undefined}
          error={timeoutOk ? undefined : t('general.rangeError', { min: 1, max: 3600 })}
        >
          <input
            id={`${ids}-timeout`}
            className="input input--num"
            type="number"
            min={1}
            max={3600}
            step={1}
            inputMode="numeric"
            value={Number.isNaN(draft.toolTimeoutSeconds) ? '' : draft.toolTimeoutSeconds}
            onChange={(e) => set('toolTimeoutSeconds', e.target.value === '' ? NaN : Number(e.target.value))}
            aria-invalid={!timeoutOk}
            data-testid="tool-timeout"
          />
        </Field>
      </div>

      {status && <StatusLine status={status} testId="general-status" />}

      <div className="form__actions">
        <div className="form__actions-left" />
        <div className="form__actions-right">
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => {
              setDraft(settings)
              setStatus(null)
            }}
            disabled={!dirty || busy}
          >
            {t('common.reset')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={!dirty || busy || !valid} data-testid="settings-save">
            {busy && <span className="spinner" aria-hidden="true" />}
            {t('common.save')}
          </button>
        </div>
      </div>
    </form>
  )
}

function Segmented({
  id,
  value,
  options,
  onChange,
  testId = 'theme',
}: {
  id: string
  value: string
  options: { value: string; label: string }[]
  onChange: (v: string) => void
  testId?: string
}) {
  const onKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    let n = -1
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') n = (i + 1) % options.length
    if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') n = (i - 1 + options.length) % options.length
    if (n < 0) return
    e.preventDefault()
    onChange(options[n].value)
    const group = e.currentTarget.parentElement
    requestAnimationFrame(() => (group?.children[n] as HTMLElement | undefined)?.focus())
  }
  return (
    <div className="segmented" role="radiogroup" id={id} data-testid={testId}>
      {options.map((o, i) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          tabIndex={value === o.value ? 0 : -1}
          className={`segmented__opt ${value === o.value ? 'is-selected' : ''}`}
          onClick={() => onChange(o.value)}
          onKeyDown={(e) => onKey(e, i)}
          data-value={o.value}
        >
          {o.label}
        </button>
      ))}
    </div>
  )
}

/* ───────────────────────────── About ───────────────────────────── */

function AboutPanel() {
  const { t } = useTranslation()
  const info = useStore((s) => s.info)
  const openAbout = useStore((s) => s.openAbout)
  const mod = modLabel()
  const shortcuts: [string, string][] = [
    [`${mod} N`, t('about.shortcuts.newChat')],
    [`${mod} K`, t('about.shortcuts.focus')],
    [`${mod} ,`, t('about.shortcuts.settings')],
    [`${mod} Shift E`, t('about.shortcuts.files')],
    ['Enter', t('about.shortcuts.send')],
    ['Shift Enter', t('about.shortcuts.newline')],
    ['F2', t('about.shortcuts.rename')],
    ['Del', t('about.shortcuts.delete')],
    ['Y', t('about.shortcuts.run')],
    ['N', t('about.shortcuts.deny')],
    ['E', t('about.shortcuts.edit')],
    ['Esc', t('about.shortcuts.escape')],
  ]
  return (
    <div className="about">
      <div className="about__hero">
        <LogoMark size={40} />
        <div>
          <p className="about__name">{t('app.name')}</p>
          <p className="about__tagline">{t('app.tagline')}</p>
        </div>
      </div>
      <dl className="about__facts">
        <dt>{t('about.version')}</dt>
        <dd>{info?.version || '—'}</dd>
        <dt>{t('about.dataDir')}</dt>
        <dd className="mono">{info?.dataDir || '—'}</dd>
        <dt>{t('about.envProvider')}</dt>
        <dd>{info?.envProvider ? t('about.envYes') : t('about.envNo')}</dd>
      </dl>
      <button type="button" className="btn btn--secondary btn--sm about__more" data-testid="about-open" onClick={openAbout}>
        <InfoIcon size={14} />
        {t('about.moreInfo')}
      </button>
      <h3 className="about__h">{t('about.shortcutsTitle')}</h3>
      <dl className="shortcuts">
        {shortcuts.map(([k, v]) => (
          <div key={k} className="shortcuts__row">
            <dt>
              {k.split(' ').map((part) => (
                <kbd key={part} className="kbd">
                  {part}
                </kbd>
              ))}
            </dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

/* ───────────────────────────── bits ───────────────────────────── */

function Field({
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

function StatusLine({ status, testId }: { status: NonNullable<Status>; testId?: string }) {
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
