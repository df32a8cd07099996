// "Attach to message" in the Files panel: the file joins the files waiting
// in the composer (its chip is the confirmation; the composer takes the
// focus, to write the message), read and checked in Go like the
// paperclip's; a refusal says why.
import { useCallback } from 'react'
import { useStore } from '../store'
import { attachWorkspaceFile } from '../store/attachments'

export function useAttachFile(chatId: string): (path: string) => void {
  const toastError = useStore((s) => s.toastError)
  const toast = useStore((s) => s.toast)
  const focusComposer = useStore((s) => s.focusComposer)
  return useCallback(
    (path: string) => {
      attachWorkspaceFile(chatId, path).then(
        () => focusComposer(),
        (err) =>
          err instanceof Error && err.message === 'no composer'
            ? toast({ kind: 'error', title: 'attachments.noComposer' })
            : toastError('attachments.attachFailed', err),
      )
    },
    [chatId, toast, toastError, focusComposer],
  )
}
