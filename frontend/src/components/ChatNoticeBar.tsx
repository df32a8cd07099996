import { useState } from 'react'
import { useTranslation } from '../i18n'
import { renderText } from '../i18n/backendText'
import { useStore } from '../store'
import { AlertIcon, CloseIcon, InfoIcon, PlayIcon } from './icons'

/**
 * The bottom of the chat when the loop waits: tool results not yet sent
 * (auto-continue off, or the turn cap paused it) get a Continue button; other
 * notices (e.g. the next turn failed to start) are shown with a dismiss.
 */
export function ChatNoticeBar({ chatId, canContinue }: { chatId: string; canContinue: boolean }) {
  const { t } = useTranslation()
  const notice = useStore((s) => s.notices[chatId])
  const continueChat = useStore((s) => s.continueChat)
  const dismiss = useStore((s) => s.dismissNotice)
  const [busy, setBusy] = useState(false)
  if (!canContinue && !notice) return null
  const paused = notice?.code === 'turn_cap'
  const learned = notice?.code === 'tool_mode_learned'
  const provider = notice?.code === 'provider_notice'
  const problem = !!notice && !paused && !learned && !provider
  const text = notice ? renderText(t, notice.text, notice.message) : t('continue.ready')
  return (
    <div
      className={`notice-bar ${problem ? 'notice-bar--error' : paused ? 'notice-bar--paused' : ''}`}
      data-testid="chat-notice"
      data-code={notice?.code ?? 'results_waiting'}
      role={problem ? 'alert' : 'status'}
    >
      {problem ? <AlertIcon size={16} /> : <InfoIcon size={16} />}
      <div className="notice-bar__body">
        <p className="notice-bar__title">
          {paused
            ? t('notices.turnCapTitle')
            : learned
              ? t('notices.toolModeTitle')
              : provider
                ? t('notices.providerTitle')
                : problem
                  ? t('notices.title')
                  : t('continue.title')}
        </p>
        <p className="notice-bar__text">{text}</p>
      </div>
      {canContinue && (
        <button
          type="button"
          className="btn btn--sm btn--primary"
          data-testid="continue"
          disabled={busy}
          onClick={async () => {
            setBusy(true)
            await continueChat(chatId)
            setBusy(false)
          }}
        >
          {busy ? <span className="spinner" aria-hidden="true" /> : <PlayIcon size={12} />}
          {t('continue.button')}
        </button>
      )}
      {notice && !canContinue && (
        <button type="button" className="icon-btn icon-btn--sm" onClick={() => dismiss(chatId)} aria-label={t('common.dismiss')}>
          <CloseIcon size={14} />
        </button>
      )}
    </div>
  )
}
