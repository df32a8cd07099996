import '../styles/agents.css'
import { useEffect } from 'react'
import { useTranslation } from '../i18n'
import { useStore } from '../store'
import { loadAgents, pickAgent, useAgents, useChatSetup } from '../store/agents'
import { usePopover } from '../lib/useDismiss'
import { agentLabel } from '../lib/agentLabel'
import { BotIcon, CheckIcon, ChevronDownIcon, GearIcon } from './icons'

/** The header chip naming the chat's agent; opens the list of agents. */
export function AgentChip() {
  const { t } = useTranslation()
  const setup = useChatSetup()
  const agents = useAgents((s) => s.agents)
  const chatId = useStore((s) => s.activeChatId)
  const openSettings = useStore((s) => s.openSettings)
  const { open, setOpen, wrap, button, ids } = usePopover(chatId)
  useEffect(() => {
    if (open) requestAnimationFrame(() => wrap.current?.querySelector<HTMLElement>('[aria-checked="true"], [role="menuitemradio"]')?.focus())
  }, [open])

  const agent = agents.find((a) => a.id === setup?.agentId) ?? agents[0]
  if (!agent) return null
  return (
    <div className="agent-chip" ref={wrap}>
      <button
        ref={button}
        type="button"
        className="agent-chip__btn"
        data-testid="agent-chip"
        data-agent={agent.id}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${ids}-menu` : undefined}
        title={t('agents.chipTitle', { name: agentLabel(agent, t).name })}
        onClick={() => {
          if (!open) void loadAgents() // edited elsewhere (Settings, another window's import)
          setOpen((v) => !v)
        }}
      >
        <BotIcon size={14} />
        <span className="agent-chip__label">{agentLabel(agent, t).name}</span>
        <ChevronDownIcon size={12} />
      </button>
      {open && (
        <div className="popover agent-menu" role="menu" id={`${ids}-menu`} aria-label={t('agents.menuTitle')} data-testid="agent-menu">
          <p className="agent-menu__hint">{t('agents.menuHint')}</p>
          {agents.map((a) => (
            <button
              key={a.id}
              type="button"
              role="menuitemradio"
              aria-checked={a.id === agent.id}
              className="agent-option"
              data-testid="agent-option"
              data-agent={a.id}
              onClick={() => {
                setOpen(false)
                button.current?.focus()
                if (a.id !== agent.id) void pickAgent(a.id)
              }}
            >
              <span className="agent-option__check" aria-hidden="true">
                {a.id === agent.id && <CheckIcon size={13} />}
              </span>
              <span className="agent-option__text">
                <span className="agent-option__name">
                  {agentLabel(a, t).name}
                  {a.model && <span className="agent-option__model">{a.model}</span>}
                </span>
                {agentLabel(a, t).description && <span className="agent-option__desc">{agentLabel(a, t).description}</span>}
              </span>
            </button>
          ))}
          <div className="popover__divider" />
          <button
            type="button"
            role="menuitem"
            className="agent-option agent-option--manage"
            data-testid="agent-manage"
            onClick={() => {
              setOpen(false)
              openSettings('agents')
            }}
          >
            <span className="agent-option__check" aria-hidden="true">
              <GearIcon size={13} />
            </span>
            <span className="agent-option__name">{t('agents.manage')}</span>
          </button>
        </div>
      )}
    </div>
  )
}
