// Settings ▸ Providers: one provider's form (test connection, models, make active, delete).
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { markUnsaved } from '../../lib/unsaved'
import { useTranslation } from '../../i18n'
import { errorSentence } from '../../i18n/backendText'
import { toApiError, type Provider } from '../../api'
import { useStore } from '../../store'
import { listModels, testConnection } from '../../store/requests'
import { ConfirmDialog } from '../Dialog'
import { EyeIcon, EyeOffIcon, TrashIcon } from '../icons'
import { ModelCombobox } from './ModelCombobox'
import { PRESETS, emptyProvider, isDemo, isEnv, kindOf, type ProviderKind } from './providers'
import { ProviderKindField } from './ProviderKindField'
import { Field, type Status, StatusLine } from './fields'

export function ProviderForm({
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

  // Closing Settings over edits not saved asks first.
  useEffect(() => {
    markUnsaved('provider', dirty && !readOnly)
    return () => markUnsaved('provider', false)
  }, [dirty, readOnly])

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
      target({ kind: 'error', text: errorSentence(t, e), code: e.code !== 'unknown' ? e.code : undefined })
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
      next = { kind: 'error', text: errorSentence(t, e), code: e.code !== 'unknown' ? e.code : undefined }
    } finally {
      setBusy(null)
    }
    // The form may have remounted (a new provider got its id): report through the panel too.
    setStatus(next)
    onFlash(id, next)
  }

  const kind = kindOf(draft)
  // The demo server speaks both wires: its kind is saved at once (its other fields are fixed).
  const changeKind = async (k: ProviderKind) => {
    if (provider && isDemo(provider)) {
      const saved = await run('save', () => saveProvider({ ...provider, kind: k }))
      if (saved) {
        setDraft(saved)
        setStatus({ kind: 'ok', key: 'providers.saved' })
        onSaved(saved)
      }
      return
    }
    set('kind', k)
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

      <ProviderKindField
        id={`${ids}-kind`}
        value={kind}
        disabled={busy !== null || (!!provider && isEnv(provider))}
        onChange={(k) => void changeKind(k)}
      />

      {!(provider && isDemo(provider)) && (
        <Field
          id={`${ids}-url`}
          label={t('providers.baseUrl')}
          hint={readOnly ? undefined : t(kind === 'anthropic' ? 'providers.baseUrlHintAnthropic' : 'providers.baseUrlHint')}
        >
          <input
            id={`${ids}-url`}
            className="input input--mono"
            value={draft.baseUrl}
            onChange={(e) => set('baseUrl', e.target.value)}
            readOnly={readOnly}
            placeholder={kind === 'anthropic' ? 'https://api.anthropic.com' : 'https://api.example.com/v1'}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            inputMode="url"
            data-testid="provider-base-url"
          />
          {!readOnly && (
            <div className="presets" role="group" aria-label={t('providers.presets')}>
              {PRESETS.filter((p) => p.kind === kind).map((p) => (
                <button
                  key={p.id}
                  type="button"
                  className={`chip ${draft.baseUrl === p.baseUrl ? 'is-selected' : ''}`}
                  aria-pressed={draft.baseUrl === p.baseUrl}
                  onClick={() => {
                    setDraft((d) => ({
                      ...d,
                      baseUrl: p.baseUrl,
                      kind: p.kind,
                      name: !d.name.trim() || PRESETS.some((x) => x.name === d.name) ? p.name : d.name,
                    }))
                    setStatus(null)
                  }}
                  title={p.baseUrl}
                  data-testid={`preset-${p.id}`}
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

      {kind === 'anthropic' && !(provider && isDemo(provider)) && (
        <Field id={`${ids}-thinking`} label={t('providers.thinkingBudget')} hint={readOnly ? undefined : t('providers.thinkingBudgetHint')}>
          <input
            id={`${ids}-thinking`}
            className="input"
            type="number"
            min={0}
            max={128000}
            step={1024}
            value={draft.thinkingBudget || 0}
            onChange={(e) => set('thinkingBudget', Math.max(0, Math.floor(Number(e.target.value) || 0)))}
            readOnly={readOnly}
            data-testid="provider-thinking-budget"
          />
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
