// The "⋯" menu of the file open in the Files panel: Save as… (a copy on the
// computer) and, in a folder workspace, Open in editor.
import { useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from '../i18n'
import type { WorkspaceKind } from '../api'
import { openInEditor, saveFileAs } from '../store/filesOut'
import { KeyboardMenu } from './KeyboardMenu'
import { DownloadIcon, ExternalIcon, MoreIcon } from './icons'
import { useMenuPosition } from './menuPosition'
import '../styles/history.css'

export function FileMenu({ chatId, kind, path }: { chatId: string; kind: WorkspaceKind; path: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const trigger = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement | null>(null)
  const name = path.split('/').pop() ?? path

  const pos = useMenuPosition(open, trigger, menu, { height: 90, width: 220 })

  const close = (focusBack = true) => {
    setOpen(false)
    if (focusBack) requestAnimationFrame(() => trigger.current?.focus())
  }
  const item = (testId: string, label: string, hint: string, icon: JSX.Element, run: () => void) => (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className="cmenu__item"
      data-testid={testId}
      title={hint}
      onClick={() => {
        close(false)
        run()
      }}
    >
      <span className="cmenu__icon">{icon}</span>
      <span className="cmenu__label">{label}</span>
    </button>
  )

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="icon-btn icon-btn--sm"
        data-testid="file-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('filesOut.menu', { name })}
        title={t('filesOut.menu', { name })}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault()
            setOpen(true)
          }
        }}
      >
        <MoreIcon size={14} />
      </button>
      {open &&
        createPortal(
          <KeyboardMenu
            menuRef={menu}
            trigger={trigger}
            className="cmenu"
            testId="file-menu-list"
            label={t('filesOut.menu', { name })}
            style={pos ? { top: pos.top, left: pos.left } : { visibility: 'hidden', top: 0, left: 0 }}
            onClose={close}
          >
            {kind === 'folder' &&
              item('file-open-editor', t('filesOut.openInEditor'), t('filesOut.openInEditorHint'), <ExternalIcon size={14} />, () => void openInEditor(chatId, path))}
            {item('file-save-as', t('filesOut.saveAs'), t('filesOut.saveAsHint'), <DownloadIcon size={14} />, () => void saveFileAs(chatId, path))}
          </KeyboardMenu>,
          document.body,
        )}
    </>
  )
}
