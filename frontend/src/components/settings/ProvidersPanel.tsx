// Settings ▸ Providers: the list of providers and the one being edited.
import './ProvidersPanel.css'
import { useEffect, useState } from 'react'
import { takeProviderIntent } from '../../lib/settingsIntent'
import { useTranslation } from '../../i18n'
import { useStore } from '../../store'
import { LogoMark, PlusIcon, ServerIcon } from '../icons'
import { ModelWindowSection } from './ModelWindowSection'
import { ProviderForm } from './ProviderForm'
import { isDemo } from './providers'
import { type Status } from './fields'

const NEW_ID = '__new__'

export function ProvidersPanel() {
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
                  <span className="provider-row__model">
                    {p.model || t('provider.noModel')}
                    {p.kind === 'anthropic' ? ` · ${t('providers.kindAnthropic')}` : ''}
                  </span>
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
        {current?.model && <ModelWindowSection key={`${current.id}\n${current.model}`} providerId={current.id} model={current.model} />}
      </div>
    </div>
  )
}
