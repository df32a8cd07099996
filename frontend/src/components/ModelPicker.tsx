import '../styles/agents.css'
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import { DEMO_PROVIDER_ID, type Message, type ProviderModels } from '../api'
import { useStore } from '../store'
import { loadModels, pickModel, regenerateWith, useAgents, useChatSetup } from '../store/agents'
import { usePopover } from '../lib/useDismiss'
import { ChevronDownIcon, RetryIcon, SearchIcon } from './icons'

/** The header chip naming the chat's model; opens the picker (this chat only). */
export function ModelChip() {
  const { t } = useTranslation()
  const setup = useChatSetup()
  const providers = useStore((s) => s.providers)
  const chatId = useStore((s) => s.activeChatId)
  const { open, setOpen, wrap, button, ids } = usePopover(chatId)

  const provider = providers.find((p) => p.id === setup?.providerId) ?? null
  const model = setup?.model || provider?.model || ''
  const label = model || provider?.name || '…'
  return (
    <div className="model-chip" ref={wrap}>
      <button
        ref={button}
        type="button"
        className="chat__model model-chip__btn"
        data-testid="model-chip"
        data-model={model}
        data-provider={setup?.providerId ?? ''}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? `${ids}-pop` : undefined}
        title={t('agents.models.chipTitle', { model: label, provider: provider?.name ?? '' })}
        onClick={() => setOpen((v) => !v)}
      >
        <span className="chat__model-dot" aria-hidden="true" />
        <span className="model-chip__label">{label}</span>
        {setup?.providerId === DEMO_PROVIDER_ID && <span className="badge badge--demo">{t('provider.demoBadge')}</span>}
        <ChevronDownIcon size={12} />
      </button>
      {open && (
        <div className="popover model-pop" role="dialog" id={`${ids}-pop`} aria-label={t('agents.models.title')} data-testid="model-picker">
          <ModelMenu
            providerId={setup?.providerId ?? ''}
            model={model}
            hint={t('agents.models.hint')}
            onPick={(p, m) => {
              setOpen(false)
              button.current?.focus()
              void pickModel(p, m)
            }}
          />
        </div>
      )}
    </div>
  )
}

/** A provider's models that match the search. */
function matching(p: ProviderModels, q: string): string[] {
  if (!q) return p.models
  return p.models.filter((m) => m.toLowerCase().includes(q) || p.name.toLowerCase().includes(q))
}

/**
 * The searchable list of every provider's models (what the servers list;
 * a server that lists none offers its own model and what is typed).
 */
export function ModelMenu({
  providerId,
  model,
  hint,
  onPick,
}: {
  providerId: string
  model: string
  hint?: string
  onPick: (providerId: string, model: string) => void
}) {
  const { t } = useTranslation()
  const lists = useAgents((s) => s.models)
  const loading = useAgents((s) => s.modelsLoading)
  const [query, setQuery] = useState('')
  const listRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    void loadModels()
  }, [])
  const q = query.trim().toLowerCase()
  const groups = useMemo(() => (lists ?? []).map((p) => ({ p, models: matching(p, q) })), [lists, q])
  const shown = groups.reduce((n, g) => n + g.models.length, 0)

  const options = () => Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('[data-testid="model-option"]') ?? [])
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = options()
    const i = all.indexOf(document.activeElement as HTMLButtonElement)
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const next = e.key === 'ArrowDown' ? (i + 1) % all.length : i <= 0 ? all.length - 1 : i - 1
      all[next]?.focus()
    } else if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT' && all[0]) {
      e.preventDefault()
      all[0].click()
    }
  }

  return (
    <div className="model-menu" onKeyDown={onKey}>
      <div className="model-menu__search">
        <SearchIcon size={14} />
        <input
          type="search"
          value={query}
          autoFocus
          placeholder={t('agents.models.search')}
          aria-label={t('agents.models.search')}
          data-testid="model-search"
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="button" className="icon-btn" title={t('agents.models.refresh')} aria-label={t('agents.models.refresh')} onClick={() => void loadModels(true)}>
          <RetryIcon size={14} />
        </button>
      </div>
      <div className="model-menu__list" ref={listRef} role="listbox" aria-label={t('agents.models.title')}>
        {lists === null && loading && <p className="model-menu__note">{t('agents.models.loading')}</p>}
        {groups.map(({ p, models }) => {
          const typed = q && p.error && !models.includes(query.trim()) ? query.trim() : ''
          if (models.length === 0 && !typed && !(p.error && !q)) return null
          return (
            <div key={p.id} role="group" aria-label={p.name} className="model-menu__group" data-testid="model-group" data-provider={p.id}>
              <div className="model-menu__provider">
                {p.name}
              </div>
              {p.error && <p className="model-menu__note model-menu__note--warn">{t('agents.models.noList', { error: p.error })}</p>}
              {models.map((m) => {
                const current = p.id === providerId && m === model
                return (
                  <button
                    key={m}
                    type="button"
                    role="option"
                    aria-selected={current}
                    className={`model-option ${current ? 'is-current' : ''}`}
                    data-testid="model-option"
                    data-model={m}
                    data-provider={p.id}
                    onClick={() => onPick(p.id, m)}
                  >
                    <span className="model-option__name">{m}</span>
                    {current && <span className="model-option__tag">{t('agents.models.current')}</span>}
                  </button>
                )
              })}
              {typed && (
                <button type="button" role="option" aria-selected={false} className="model-option" data-testid="model-option" data-model={typed} data-provider={p.id} onClick={() => onPick(p.id, typed)}>
                  <span className="model-option__name">{t('agents.models.useTyped', { model: typed })}</span>
                </button>
              )}
            </div>
          )
        })}
        {lists !== null && shown === 0 && q && <p className="model-menu__note">{t('agents.models.empty', { query })}</p>}
      </div>
      {hint && <p className="model-menu__hint">{hint}</p>}
    </div>
  )
}

/** Beside Regenerate: regenerate the answer with another model (the chat switches to it). */
export function RegenerateWith({ m, locked }: { m: Message; locked: boolean }) {
  const { t } = useTranslation()
  const setup = useChatSetup()
  const { open, setOpen, wrap, button } = usePopover()
  return (
    <div className="regen-with" ref={wrap}>
      <button
        ref={button}
        type="button"
        className="icon-btn icon-btn--sm"
        data-testid="regenerate-with"
        aria-label={t('agents.models.regenerateWith')}
        title={t('agents.models.regenerateWith')}
        aria-expanded={open}
        disabled={locked}
        onClick={() => setOpen((v) => !v)}
      >
        <ChevronDownIcon size={12} />
      </button>
      {open && (
        <div className="popover model-pop model-pop--up" role="dialog" aria-label={t('agents.models.regenerateWith')}>
          <ModelMenu
            providerId={setup?.providerId ?? ''}
            model={setup?.model ?? ''}
            hint={t('agents.models.hint')}
            onPick={(p, model) => {
              setOpen(false)
              void regenerateWith(m, p, model)
            }}
          />
        </div>
      )}
    </div>
  )
}
