import { useEffect, useId } from 'react'
import { useTranslation } from '../i18n'
import { useStore } from '../store'
import { loadMcpServers, selectActiveChatServers, setChatServers, useMcp } from '../store/mcp'
import '../styles/mcp.css'

const EMPTY: string[] = []

/** In the chat's tool options: which MCP servers' tools this chat offers (all enabled ones, or a chosen few). */
export function ChatMcpChoice({ onOpenSettings }: { onOpenSettings: () => void }) {
  const { t } = useTranslation()
  const chatId = useStore((s) => s.activeChatId)
  const chosen = useStore(selectActiveChatServers)
  const servers = useMcp((s) => s.servers)
  const loaded = useMcp((s) => s.loaded)
  const openSettings = useStore((s) => s.openSettings)
  const ids = useId()

  useEffect(() => {
    void loadMcpServers()
  }, [])

  if (!loaded) return null

  if (servers.length === 0 && !chosen?.length) {
    return (
      <div className="chat-mcp" data-testid="chat-mcp">
        <p className="chat-mcp__none" data-testid="chat-mcp-none">
          {t('chatOptions.mcpNone')}{' '}
          <button
            type="button"
            className="link-btn"
            data-testid="chat-mcp-settings"
            onClick={() => {
              onOpenSettings()
              openSettings('tools')
            }}
          >
            {t('chatOptions.mcpAddInSettings')}
          </button>
        </p>
      </div>
    )
  }

  const all = chosen === null
  const picked = chosen ?? EMPTY
  const names = servers.map((s) => s.name)
  // A name the chat keeps that no server has any more (removed, or from a file not read this session).
  const missing = picked.filter((n) => !names.includes(n))
  const toggle = (name: string, on: boolean) => {
    const next = on ? [...picked.filter((n) => n !== name), name] : picked.filter((n) => n !== name)
    void setChatServers(chatId, false, next)
  }

  return (
    <div className="chat-mcp" data-testid="chat-mcp">
      <h3 className="chat-mcp__title" id={`${ids}-title`}>
        {t('chatOptions.mcpTitle')}
      </h3>
      <div className="paradigm-list" role="radiogroup" aria-labelledby={`${ids}-title`}>
        <label className={`paradigm-opt ${all ? 'is-selected' : ''}`}>
          <input
            type="radio"
            name={`${ids}-mode`}
            checked={all}
            onChange={() => void setChatServers(chatId, true, [])}
            data-testid="chat-mcp-all"
          />
          <span className="paradigm-opt__text">
            <span className="paradigm-opt__label">{t('chatOptions.mcpAll')}</span>
            <span className="paradigm-opt__desc">{t('chatOptions.mcpAllDesc')}</span>
          </span>
        </label>
        <label className={`paradigm-opt ${!all ? 'is-selected' : ''}`}>
          <input
            type="radio"
            name={`${ids}-mode`}
            checked={!all}
            // Starts from what the chat offers now: the enabled servers.
            onChange={() => void setChatServers(chatId, false, servers.filter((s) => s.config.enabled).map((s) => s.name))}
            data-testid="chat-mcp-choose"
          />
          <span className="paradigm-opt__text">
            <span className="paradigm-opt__label">{t('chatOptions.mcpChoose')}</span>
            <span className="paradigm-opt__desc">{t('chatOptions.mcpChooseDesc')}</span>
          </span>
        </label>
      </div>
      {!all && (
        <ul className="chat-mcp__list" aria-label={t('chatOptions.mcpListLabel')}>
          {servers.map((s) => (
            <li key={s.name}>
              <label className={`check chat-mcp__server ${s.config.enabled ? '' : 'is-disabled'}`}>
                <input
                  type="checkbox"
                  checked={picked.includes(s.name)}
                  onChange={(e) => toggle(s.name, e.target.checked)}
                  data-testid="chat-mcp-server"
                  data-name={s.name}
                />
                <span className="chat-mcp__name">{s.name}</span>
                {!s.config.enabled && <span className="chat-mcp__tag">{t('chatOptions.mcpDisabled')}</span>}
              </label>
            </li>
          ))}
          {missing.map((n) => (
            <li key={`missing-${n}`}>
              <label className="check chat-mcp__server is-disabled">
                <input type="checkbox" checked onChange={() => toggle(n, false)} data-testid="chat-mcp-server" data-name={n} />
                <span className="chat-mcp__name">{n}</span>
                <span className="chat-mcp__tag">{t('chatOptions.mcpMissing')}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
