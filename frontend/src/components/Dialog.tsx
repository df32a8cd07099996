import { useEffect, useId, useRef, type ReactNode, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from '../i18n'
import { CloseIcon } from './icons'

const FOCUSABLE =
  'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Tab cycles inside `root`. Returns true if it handled the key. */
export function trapTab(e: KeyboardEvent | globalThis.KeyboardEvent, root: HTMLElement | null): boolean {
  if (e.key !== 'Tab' || !root) return false
  const items = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true',
  )
  if (items.length === 0) {
    e.preventDefault()
    root.focus()
    return true
  }
  const first = items[0]
  const last = items[items.length - 1]
  const active = document.activeElement
  if (e.shiftKey && (active === first || !root.contains(active))) {
    e.preventDefault()
    last.focus()
    return true
  }
  if (!e.shiftKey && (active === last || !root.contains(active))) {
    e.preventDefault()
    first.focus()
    return true
  }
  return false
}

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  className,
  testId,
  initialFocus,
  role = 'dialog',
}: {
  open: boolean
  onClose: () => void
  title: ReactNode
  description?: ReactNode
  children?: ReactNode
  footer?: ReactNode
  className?: string
  testId?: string
  /** CSS selector (inside the dialog) of the element to focus first. */
  initialFocus?: string
  role?: 'dialog' | 'alertdialog'
}) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const descId = useId()
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose

  useEffect(() => {
    if (!open) return
    const restore = document.activeElement as HTMLElement | null
    const root = ref.current
    const target =
      (initialFocus && root?.querySelector<HTMLElement>(initialFocus)) ||
      root?.querySelector<HTMLElement>('[data-autofocus]') ||
      root?.querySelector<HTMLElement>(FOCUSABLE) ||
      root
    target?.focus()
    return () => {
      // Give focus back to whatever opened us.
      if (restore && document.contains(restore)) restore.focus()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])

  // Focus that fell to the page (a control turned disabled, a native dialog
  // closed) still lets Escape close the topmost dialog.
  useEffect(() => {
    if (!open) return
    const onDocKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      if (document.activeElement && document.activeElement !== document.body) return
      const dialogs = document.querySelectorAll('[aria-modal="true"]')
      if (dialogs[dialogs.length - 1] !== ref.current) return
      e.preventDefault()
      onCloseRef.current()
    }
    document.addEventListener('keydown', onDocKey)
    return () => document.removeEventListener('keydown', onDocKey)
  }, [open])

  if (!open) return null

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Events from a nested dialog (portaled elsewhere) bubble through React: not ours.
    if (!ref.current || !ref.current.contains(e.target as Node)) return
    if (e.key === 'Escape') {
      e.stopPropagation()
      e.preventDefault()
      onCloseRef.current()
      return
    }
    trapTab(e, ref.current)
  }

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onCloseRef.current()
      }}
    >
      <div
        ref={ref}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descId : undefined}
        className={`dialog ${className ?? ''}`}
        data-testid={testId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="dialog__header">
          <div>
            <h2 id={titleId} className="dialog__title">
              {title}
            </h2>
            {description && (
              <p id={descId} className="dialog__desc">
                {description}
              </p>
            )}
          </div>
          <button type="button" className="icon-btn" onClick={() => onCloseRef.current()} aria-label={t('common.close')}>
            <CloseIcon />
          </button>
        </header>
        {children}
        {footer && <footer className="dialog__footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  )
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
  testId = 'confirm-delete',
}: {
  open: boolean
  title: ReactNode
  message: ReactNode
  confirmLabel: string
  onConfirm: () => void
  onCancel: () => void
  busy?: boolean
  testId?: string
}) {
  const { t } = useTranslation()
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      description={message}
      role="alertdialog"
      className="dialog--confirm"
      testId="confirm-dialog"
      initialFocus="[data-cancel]"
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={onCancel} data-cancel>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn--danger" onClick={onConfirm} disabled={busy} data-testid={testId}>
            {confirmLabel}
          </button>
        </>
      }
    />
  )
}
