// Settings ▸ Agents: the list, export/import, and the editor (AgentForm).
import '../../styles/agents.css'
import { useEffect, useState } from 'react'
import { useTranslation } from '../../i18n'
import { blankAgent, type Agent } from '../../api'
import { useStore } from '../../store'
import { deleteAgent, exportAgents, importAgents, loadAgents, useAgents } from '../../store/agents'
import { BotIcon, DownloadIcon, DuplicateIcon, PencilIcon, PlusIcon, TrashIcon, UploadIcon } from '../icons'
import { AgentForm } from './AgentForm'
import { agentLabel } from '../../lib/agentLabel'

export function AgentsPanel() {
  const { t } = useTranslation()
  const agents = useAgents((s) => s.agents)
  const toast = useStore((s) => s.toast)
  const [editing, setEditing] = useState<Agent | null>(null)
  useEffect(() => {
    void loadAgents()
  }, [])

  if (editing) return <AgentForm agent={editing} onDone={() => setEditing(null)} />

  return (
    <div className="agents-panel" data-testid="agents-panel">
      <p className="form__note">{t('agents.panel.intro')}</p>
      <div className="agents-panel__bar">
        <button type="button" className="btn btn--primary" data-testid="agent-add" onClick={() => setEditing(blankAgent())}>
          <PlusIcon size={14} />
          {t('agents.panel.add')}
        </button>
        <span className="agents-panel__spacer" />
        <button
          type="button"
          className="btn btn--ghost"
          data-testid="agents-export"
          title={t('agents.panel.noKey')}
          onClick={async () => {
            const path = await exportAgents([])
            if (path) toast({ kind: 'success', title: 'agents.panel.title', message: t('agents.panel.exported', { path }) })
          }}
        >
          <DownloadIcon size={14} />
          {t('agents.panel.export')}
        </button>
        <button
          type="button"
          className="btn btn--ghost"
          data-testid="agents-import"
          onClick={async () => {
            const added = await importAgents()
            if (added.length) toast({ kind: 'success', title: 'agents.panel.title', message: t('agents.panel.imported', { count: added.length }) })
          }}
        >
          <UploadIcon size={14} />
          {t('agents.panel.import')}
        </button>
      </div>
      <ul className="agents-list">
        {agents.map((a) => (
          <li key={a.id} className="agent-card" data-testid="agent-card" data-agent={a.id}>
            <BotIcon size={16} />
            <div className="agent-card__text">
              <div className="agent-card__name">
                {agentLabel(a, t).name}
                {a.builtIn && <span className="badge">{t('agents.builtIn')}</span>}
                {a.model && <span className="agent-option__model">{a.model}</span>}
              </div>
              {agentLabel(a, t).description && <div className="agent-card__desc">{agentLabel(a, t).description}</div>}
            </div>
            <div className="agent-card__actions">
              <button type="button" className="icon-btn" data-testid="agent-edit" title={t('agents.panel.edit')} aria-label={t('agents.panel.edit')} onClick={() => setEditing(a)}>
                <PencilIcon size={14} />
              </button>
              <button
                type="button"
                className="icon-btn"
                title={t('agents.panel.duplicate')}
                aria-label={t('agents.panel.duplicate')}
                onClick={() => setEditing({ ...a, id: '', builtIn: false, name: `${a.name} 2` })}
              >
                <DuplicateIcon size={14} />
              </button>
              {!a.builtIn && (
                <button
                  type="button"
                  className="icon-btn"
                  data-testid="agent-delete"
                  title={t('agents.panel.delete')}
                  aria-label={t('agents.panel.delete')}
                  onClick={() => {
                    if (window.confirm(t('agents.panel.confirmDelete', { name: agentLabel(a, t).name }))) void deleteAgent(a.id)
                  }}
                >
                  <TrashIcon size={14} />
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}
