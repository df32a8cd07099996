import { useState } from 'react'
import { useTranslation } from '../i18n'
import { errorSentence } from '../i18n/backendText'
import { pickFolder } from '../store/requests'
import { chatWorkspace, toApiError } from '../api'
import { useStore } from '../store'
import { FolderOpenIcon } from './icons'

/**
 * What to do when a chat's folder cannot be used (it vanished since it was
 * chosen): choose it again, or switch the chat to Scratch. Nothing is ever
 * sent in another workspace than the one the chat says it has.
 */
export function WorkspaceFix({ chatId }: { chatId: string | null }) {
  const { t } = useTranslation()
  const setWorkspace = useStore((s) => s.setWorkspace)
  const toast = useStore((s) => s.toast)
  const toastError = useStore((s) => s.toastError)
  const kind = useStore((s) => (chatId ? chatWorkspace(s.chats.find((c) => c.id === chatId)).kind : s.newChatWorkspace.kind))
  const [busy, setBusy] = useState(false)

  const apply = async (choice: { kind: 'scratch' | 'folder' | 'overlay'; dir: string }) => {
    setBusy(true)
    const err = await setWorkspace(chatId, choice)
    setBusy(false)
    if (err) toastError('errors.setWorkspace', err)
    else if (chatId) toast({ kind: 'success', title: 'finish.workspace.switched' })
  }
  const chooseAgain = async () => {
    try {
      const dir = await pickFolder()
      if (dir) await apply({ kind: kind === 'scratch' ? 'folder' : kind, dir })
    } catch (err) {
      toastError('errors.setWorkspace', toApiError(err))
    }
  }

  return (
    <>
      <button type="button" className="btn btn--sm btn--secondary" data-testid="workspace-choose-again" disabled={busy} onClick={() => void chooseAgain()}>
        <FolderOpenIcon size={14} />
        {t('finish.workspace.chooseAgain')}
      </button>
      <button type="button" className="btn btn--sm btn--ghost" data-testid="workspace-use-scratch" disabled={busy} onClick={() => void apply({ kind: 'scratch', dir: '' })}>
        {t('finish.workspace.useScratch')}
      </button>
    </>
  )
}

/** The new chat's first message was not sent: its folder cannot be used. Stays until the choice changes. */
export function NewChatWorkspaceError() {
  const { t } = useTranslation()
  const err = useStore((s) => (s.activeChatId ? null : s.newChatWorkspaceError))
  if (!err) return null
  return (
    <div className="msg-error new-chat-ws-error" role="alert" data-testid="new-chat-workspace-error">
      <div className="msg-error__body">
        <p className="msg-error__title">{t('finish.workspace.unavailableTitle')}</p>
        <p className="msg-error__text">{t('finish.workspace.unavailableNew')}</p>
        <p className="msg-error__text">{errorSentence(t, err)}</p>
      </div>
      <WorkspaceFix chatId={null} />
    </div>
  )
}
