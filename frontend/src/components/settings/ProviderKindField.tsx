// Settings ▸ Providers: which API a provider speaks (OpenAI-compatible or Anthropic Messages).
import { useTranslation } from '../../i18n'
import { Field } from './fields'
import { PROVIDER_KINDS, type ProviderKind } from './providers'

export function ProviderKindField({
  id,
  value,
  disabled,
  onChange,
}: {
  id: string
  value: ProviderKind
  disabled?: boolean
  onChange: (k: ProviderKind) => void
}) {
  const { t } = useTranslation()
  return (
    <Field id={id} label={t('providers.kind')} hint={t(value === 'anthropic' ? 'providers.kindHintAnthropic' : 'providers.kindHintOpenai')}>
      <div id={id} className="presets" role="radiogroup" aria-label={t('providers.kind')} data-testid="provider-kind">
        {PROVIDER_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            role="radio"
            className={`chip ${value === k ? 'is-selected' : ''}`}
            aria-checked={value === k}
            disabled={disabled}
            onClick={() => value !== k && onChange(k)}
            data-testid={`provider-kind-${k}`}
          >
            {t(k === 'anthropic' ? 'providers.kindAnthropic' : 'providers.kindOpenai')}
          </button>
        ))}
      </div>
    </Field>
  )
}
