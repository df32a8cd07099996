import './Toasts.css'
import { useTranslation } from '../i18n'
import { renderText } from '../i18n/backendText'
import { useStore } from '../store'
import { AlertIcon, CheckIcon, CloseIcon } from './icons'

export function Toasts() {
  const { t } = useTranslation()
  const toasts = useStore((s) => s.toasts)
  const dismiss = useStore((s) => s.dismissToast)
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast--${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          data-testid="toast"
        >
          <span className="toast__icon">{toast.kind === 'error' ? <AlertIcon size={16} /> : <CheckIcon size={16} />}</span>
          <div className="toast__body">
            <p className="toast__title">{t(toast.title)}</p>
            {toast.message && <p className="toast__msg">{renderText(t, toast.text, toast.message)}</p>}
            {toast.code && <code className="toast__code">{toast.code}</code>}
          </div>
          {toast.action && (
            <button
              type="button"
              className="btn btn--sm btn--secondary toast__action"
              data-testid={toast.action.testId}
              onClick={() => {
                toast.action?.run()
                dismiss(toast.id)
              }}
            >
              {t(toast.action.label)}
            </button>
          )}
          <button type="button" className="icon-btn icon-btn--sm" onClick={() => dismiss(toast.id)} aria-label={t('common.dismiss')}>
            <CloseIcon size={14} />
          </button>
        </div>
      ))}
    </div>
  )
}
