// "Attach to message" in the Files panel: the file joins the files waiting
// in the composer, read and checked in Go like the paperclip's; a refusal
// says why.
import { useCallback } from 'react'
import { useStore } from '../store'
import { attachWorkspaceFile } from '../store/attachments'

export function useAttachFile(chatId: string): (path: string) => void {
  const toastError = useStore((s) => s.toastError)
  const toast = useStore((s) => s.toast)
  return useCallback(
    (path: string) => {
      attachWorkspaceFile(chatId, path).then(
        () => toast({ kind: 'success', title: 'attachments.attachedFromFiles', message: path, duration: 2500 }),
        (err) =>
          err instanceof Error && err.message === 'no composer'
            ? toast({ kind: 'error', title: 'attachments.noComposer' })
            : toastError('attachments.attachFailed', err),
      )
    },
    [chatId, toast, toastError],
  )
}
