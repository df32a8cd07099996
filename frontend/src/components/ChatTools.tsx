import '../styles/agents.css'
import { useEffect } from 'react'
import { useTranslation, type TFunction } from '../i18n'
import type { ToolOffer } from '../api'
import { useStore } from '../store'
import { loadChatTools, openChatTools, setChatTools, useAgents } from '../store/agents'
import { Dialog } from './Dialog'
import { agentLabel } from '../lib/agentLabel'
import { WrenchIcon } from './icons'

/** Tools grouped as the checklist shows them: built in, files, then each MCP server. */
export function toolGroups(tools: ToolOffer[], t: TFunction): { key: string; label: string; tools: ToolOffer[] }[] {
  const groups = new Map<string, { key: string; label: string; tools: ToolOffer[] }>()
  for (const tool of tools) {
    const key = tool.kind === 'mcp' ? `mcp:${tool.server ?? ''}` : tool.kind ?? 'builtin'
    const label = tool.kind === 'mcp' ? t('agents.tools.groups.mcp', { server: tool.server ?? '' }) : t(`agents.tools.groups.${tool.kind === 'files' ? 'files' : 'builtin'}`)
    if (!groups.has(key)) groups.set(key, { key, label, tools: [] })
    groups.get(key)!.tools.push(tool)
  }
  return [...groups.values()]
}

/** The button in the chat's options that opens its tool checklist. */
export function ChatToolsButton({ onOpen }: { onOpen?: () => void }) {
  const { t } = useTranslation()
  const chatId = useStore((s) => s.activeChatId)
  const info = useAgents((s) => (chatId ? s.tools[chatId] : undefined))
  useEffect(() => {
    if (chatId) void loadChatTools(chatId, true)
  }, [chatId])
  return (
    <div className="chat-tools-open">
      <button type="button" className="btn btn--ghost chat-tools-open__btn" data-testid="chat-tools-open" disabled={!chatId} onClick={() => {
          onOpen?.()
          openChatTools(chatId)
        }}
      >
        <WrenchIcon size={14} />
        {t('agents.tools.open')}
      </button>
      <span className="chat-tools-open__hint">
        {chatId
          ? info
            ? t('agents.tools.openHint', { on: info.offered, all: info.tools.length, tokens: info.tokens })
            : ''
          : t('agents.tools.newChat')}
      </span>
    </div>
  )
}

/** The chat's checklist of tools, one by one, with what each costs. */
export function ChatToolsDialog() {
  const { t } = useTranslation()
  const chatId = useAgents((s) => s.toolsOpen)
  const info = useAgents((s) => (s.toolsOpen ? s.tools[s.toolsOpen] : undefined))
  const agentId = useStore((s) => s.chats.find((c) => c.id === chatId)?.agentId)
  const agent = useAgents((s) => s.agents.find((a) => a.id === agentId))
  const close = () => openChatTools(null)
  const set = (change: Record<string, boolean | null>) => chatId && void setChatTools(chatId, change)
  const all = info?.tools ?? []
  const every = (on: boolean) => set(Object.fromEntries(all.filter((x) => !x.readOnly).map((x) => [x.name, on])))
  return (
    <Dialog
      open={!!chatId}
      onClose={close}
      title={t('agents.tools.title')}
      description={info ? t('agents.tools.subtitle', { agent: agent ? agentLabel(agent, t).name : info.agent }) : undefined}
      testId="chat-tools"
      className="dialog--chat-tools"
      footer={
        <div className="chat-tools__foot">
          <span data-testid="chat-tools-count">{info ? t('agents.tools.count', { on: info.offered, all: all.length, tokens: info.tokens }) : t('common.loading')}</span>
          <span className="chat-tools__actions">
            <button type="button" className="btn btn--ghost" onClick={() => every(true)}>
              {t('agents.tools.allOn')}
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => every(false)}>
              {t('agents.tools.allOff')}
            </button>
            <button
              type="button"
              className="btn btn--ghost"
              data-testid="chat-tools-reset"
              onClick={() => set(Object.fromEntries(all.filter((x) => x.toggled).map((x) => [x.name, null])))}
            >
              {t('agents.tools.resetAll')}
            </button>
            <button type="button" className="btn btn--primary" onClick={close}>
              {t('common.close')}
            </button>
          </span>
        </div>
      }
    >
      <div className="chat-tools__body">
      <p className="chat-tools__note" data-testid="rule-vs-toggle">
        {t('agents.tools.ruleVsToggle')}
      </p>
      <ToolChecklist
        tools={all}
        isOn={(x) => x.on}
        onToggle={(x, on) => set({ [x.name]: on === x.agentOn ? null : on })}
        note={(x) => (x.readOnly ? t('agents.tools.readOnly') : !x.available ? t('agents.tools.notInChat') : x.toggled ? t('agents.tools.toggled') : t('agents.tools.fromAgent'))}
      />
      </div>
    </Dialog>
  )
}

/** Checkboxes of tools, grouped, each with its token cost (shared by chats and agents). */
export function ToolChecklist({
  tools,
  isOn,
  onToggle,
  note,
}: {
  tools: ToolOffer[]
  isOn: (t: ToolOffer) => boolean
  onToggle: (t: ToolOffer, on: boolean) => void
  note?: (t: ToolOffer) => string
}) {
  const { t } = useTranslation()
  return (
    <div className="tool-checklist">
      {toolGroups(tools, t).map((g) => (
        <fieldset key={g.key} className="tool-checklist__group" data-testid="tool-group" data-group={g.key}>
          <legend>
            {g.label} <span className="tool-checklist__count">{g.tools.filter(isOn).length}/{g.tools.length}</span>
          </legend>
          {g.tools.map((x) => (
            <label key={x.name} className={`tool-row ${x.readOnly ? 'is-blocked' : ''}`} title={x.description}>
              <input
                type="checkbox"
                data-testid="tool-toggle"
                data-tool={x.name}
                checked={isOn(x)}
                disabled={x.readOnly}
                onChange={(e) => onToggle(x, e.target.checked)}
              />
              <span className="tool-row__name">{x.name}</span>
              {x.changes && <span className="tool-row__tag">{t('agents.tools.writes')}</span>}
              {note && <span className="tool-row__note">{note(x)}</span>}
              <span className="tool-row__tokens">{t('agents.tools.tokens', { n: x.tokens })}</span>
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  )
}
