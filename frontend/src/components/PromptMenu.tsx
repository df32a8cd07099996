// The composer's "/" menu: the prompts of the chat's MCP servers (name,
// server, description), filtered by what follows the "/". Focus stays in the
// message box: ↑/↓ choose, Enter or Tab use, Escape closes. A prompt that
// takes arguments opens PromptForm.
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import type { McpOffers, McpPrompt } from '../api'
import { loadOffers, useMcpOffers } from '../store/mcpOffers'

export type PromptMenuHandle = { key: (e: KeyboardEvent) => boolean }

const matches = (p: McpPrompt, q: string) =>
  !q || [p.name, p.title ?? '', p.server].some((s) => s.toLowerCase().includes(q.toLowerCase()))

type Props = {
  /** The listbox's id; option i is `${id}-${i}` (the message box points at the active one). */
  id: string
  chatId: string | null
  query: string
  onPick: (p: McpPrompt) => void
  onClose: () => void
  /** The active option's id ('' when none), for the message box's aria-activedescendant. */
  onActive: (optionId: string) => void
}

export const PromptMenu = forwardRef<PromptMenuHandle, Props>(
  function PromptMenu({ id, chatId, query, onPick, onClose, onActive }, ref) {
    const { t } = useTranslation()
    const gen = useMcpOffers((s) => s.gen)
    const [offers, setOffers] = useState<McpOffers | null>(null)
    const [active, setActive] = useState(0)
    const list = useRef<HTMLDivElement>(null)

    useEffect(() => {
      let on = true
      void loadOffers(chatId, 'prompts').then((o) => on && setOffers(o))
      return () => {
        on = false
      }
    }, [chatId, gen])

    const shown = useMemo(() => (offers?.prompts ?? []).filter((p) => matches(p, query)), [offers, query])
    useEffect(() => setActive(0), [query])
    useEffect(() => {
      list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' })
      onActive(shown.length ? `${id}-${Math.min(active, shown.length - 1)}` : '')
    }, [active, shown.length, id, onActive])

    useImperativeHandle(ref, () => ({
      key: (e) => {
        if (e.key === 'Escape') {
          onClose()
          return true
        }
        if (!shown.length) return false
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          const d = e.key === 'ArrowDown' ? 1 : -1
          setActive((i) => (i + d + shown.length) % shown.length)
          return true
        }
        if (e.key === 'Enter' || e.key === 'Tab') {
          onPick(shown[Math.min(active, shown.length - 1)])
          return true
        }
        return false
      },
    }), [shown, active, onPick, onClose])

    return (
      <div className="offer-pop prompt-menu" data-testid="prompt-menu">
        <div ref={list} role="listbox" id={id} aria-label={t('mcpOffers.prompts.label')} className="prompt-menu__list">
          {!offers && <p className="offer-pop__note">{t('mcpOffers.prompts.loading')}</p>}
          {offers && !shown.length && (
            <p className="offer-pop__note" data-testid="prompt-menu-empty">
              {offers.prompts.length ? t('mcpOffers.prompts.noMatch', { query }) : t('mcpOffers.prompts.none')}
            </p>
          )}
          {shown.map((p, i) => (
            <div
              key={`${p.server}/${p.name}`}
              role="option"
              id={`${id}-${i}`}
              aria-selected={i === active}
              data-index={i}
              data-testid="prompt-option"
              data-name={p.name}
              className={`prompt-menu__item ${i === active ? 'is-active' : ''}`}
              onMouseDown={(e) => e.preventDefault()} // keep the focus in the message box
              onMouseEnter={() => setActive(i)}
              onClick={() => onPick(p)}
            >
              <span className="prompt-menu__head">
                <span className="prompt-menu__name">/{p.name}</span>
                {p.title && p.title !== p.name && <span className="prompt-menu__title">{p.title}</span>}
                <span className="offer-pop__server">{t('mcpOffers.prompts.from', { server: p.server })}</span>
              </span>
              {p.description && <span className="prompt-menu__desc">{p.description}</span>}
            </div>
          ))}
        </div>
        {offers && offers.problems.length > 0 && (
          <ul className="offer-pop__problems" data-testid="offer-problems">
            {offers.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <p className="offer-pop__keys" aria-hidden="true">
          {t('mcpOffers.prompts.hint')}
        </p>
      </div>
    )
  },
)
