// The agent editor's approval defaults: which of the person's rules decide the calls of the agent's chats.
import { useId } from 'react'
import { useTranslation } from '../../i18n'
import { APPROVAL_MODES, type ApprovalMode } from '../../api'

export function AgentApproval({ mode, onChange }: { mode: ApprovalMode; onChange: (m: ApprovalMode) => void }) {
  const { t } = useTranslation()
  const ids = useId()
  return (
    <>
      <h3 className="form__section" id={`${ids}-title`}>
        {t('agentApproval.title')}
      </h3>
      <p className="form__note">{t('agentApproval.hint')}</p>
      <div className="paradigm-list" role="radiogroup" aria-labelledby={`${ids}-title`} data-testid="agent-approval">
        {APPROVAL_MODES.map((m) => (
          <label key={m} className={`paradigm-opt ${mode === m ? 'is-selected' : ''}`}>
            <input type="radio" name={`${ids}-approval`} value={m} checked={mode === m} onChange={() => onChange(m)} data-testid={`agent-approval-${m}`} />
            <span className="paradigm-opt__text">
              <span className="paradigm-opt__label">{t(`agentApproval.modes.${m}.label`)}</span>
              <span className="paradigm-opt__desc">{t(`agentApproval.modes.${m}.desc`)}</span>
            </span>
          </label>
        ))}
      </div>
    </>
  )
}
