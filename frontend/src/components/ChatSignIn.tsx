// Above the composer: the chat's MCP servers that need the person to sign in
// (signed out, expired, refused, or signing in now), each with the same Sign
// in / Cancel buttons as Settings ▸ MCP.
import { useShallow } from 'zustand/react/shallow'
import { useTranslation } from '../i18n'
import { useStore } from '../store'
import { selectActiveChatServers, useMcp } from '../store/mcp'
import { McpSignInRow } from './McpSignIn'
import { InfoIcon } from './icons'

const NEEDS = new Set(['signed_out', 'expired', 'refused', 'signing_in'])

export function ChatSignIn() {
  const { t } = useTranslation()
  const chosen = useStore(useShallow(selectActiveChatServers))
  const servers = useMcp(useShallow((s) => s.servers.filter((x) => x.config.enabled && NEEDS.has(x.auth ?? '') && (!chosen || chosen.includes(x.name)))))
  if (!servers.length) return null
  return (
    <div className="chat-signin" data-testid="chat-signin">
      {servers.map((s) => (
        <div key={s.name} className="notice-bar chat-signin__row" role="status" data-testid="chat-signin-row" data-name={s.name}>
          <InfoIcon size={16} />
          <div className="notice-bar__body">
            <p className="notice-bar__title">{t('mcpOffers.signIn.title', { server: s.name })}</p>
            <McpSignInRow s={s} />
          </div>
        </div>
      ))}
    </div>
  )
}
