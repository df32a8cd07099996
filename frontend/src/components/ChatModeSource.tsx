// In Chat options: whether the chat's tool mode and call format follow its agent (re-read every turn) or are the chat's own.
import { useTranslation } from '../i18n'
import type { Paradigm, ToolMode } from '../api'
import { agentLabel } from '../lib/agentLabel'
import { useStore } from '../store'
import { useAgents } from '../store/agents'

export function ChatModeSource({ chatId, save }: { chatId: string | null; save: (paradigm: Paradigm, toolMode: ToolMode) => void }) {
  const { t } = useTranslation()
  const c = useStore((s) => (chatId ? s.chats.find((x) => x.id === chatId) : undefined))
  const agent = useAgents((s) => (c ? s.agents.find((a) => a.id === c.agentId) : undefined))
  if (!c || !agent) return null
  const name = agentLabel(agent, t).name
  const ownMode = !!c.toolModeOwn
  const ownFormat = !!c.paradigmOwn
  if (!ownMode && !ownFormat) {
    return (
      <p className="popover__sub chat-mode-source" data-testid="chat-mode-source" data-own="none">
        {t('agentFollow.follows', { name })}
      </p>
    )
  }
  const what = ownMode && ownFormat ? 'ownBoth' : ownMode ? 'ownMode' : 'ownFormat'
  const says = [ownMode ? t(`chatOptions.toolModes.${agent.toolMode}.label`) : '', ownFormat ? t(`chatOptions.paradigms.${agent.paradigm}.label`) : '']
    .filter(Boolean)
    .join(' · ')
  return (
    <p className="popover__sub chat-mode-source" data-testid="chat-mode-source" data-own={ownMode && ownFormat ? 'both' : ownMode ? 'mode' : 'format'}>
      {t('agentFollow.own', { what: t(`agentFollow.${what}`), name, agent: says })}{' '}
      <button type="button" className="link-btn" data-testid="chat-mode-follow" onClick={() => save(agent.paradigm, agent.toolMode)}>
        {t('agentFollow.follow')}
      </button>
    </p>
  )
}
