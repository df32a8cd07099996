// The model field: type a name or pick one the provider listed.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../../i18n'
import { CheckIcon } from '../icons'

export function ModelCombobox({
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
