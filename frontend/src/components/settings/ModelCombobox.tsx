// The model field: type a name or pick one the provider listed.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../../i18n'
import { CheckIcon } from '../icons'

/** The list's height at most (as the stylesheet says), and at least (scrolling inside beyond that). */
const LIST_MAX = 220
const MIN_LIST = 96

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
  const [place, setPlace] = useState<{ up: boolean; max: number } | null>(null)

  // The list stays whole inside what clips it (the dialog's scrolling panel):
  // below the field when it fits, above when there is more room there, and
  // never taller than the room it has.
  useLayoutEffect(() => {
    const list = listRef.current
    if (!show || !list) return
    const field = list.parentElement!.getBoundingClientRect()
    let clip: Element | null = list.parentElement
    while (clip && clip !== document.body && !/(auto|scroll|hidden)/.test(getComputedStyle(clip).overflowY)) clip = clip.parentElement
    const box = clip && clip !== document.body ? clip.getBoundingClientRect() : { top: 0, bottom: window.innerHeight }
    const below = box.bottom - field.bottom - 8
    const above = field.top - box.top - 8
    const want = Math.min(list.scrollHeight, LIST_MAX)
    const up = below < want && above > below
    setPlace({ up, max: Math.max(MIN_LIST, Math.min(LIST_MAX, up ? above : below)) })
  }, [show, filtered.length])
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
        <ul
          className={`combo__list ${place?.up ? 'combo__list--up' : ''}`}
          style={place ? { maxHeight: place.max } : undefined}
          id={listId}
          role="listbox"
          ref={listRef}
          aria-label={t('providers.model')}
          data-testid="model-list"
          data-placement={place?.up ? 'above' : 'below'}
        >
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
