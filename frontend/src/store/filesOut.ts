// Files ▸ Save as… and Open in editor: a workspace file taken out to the rest
// of the computer. Drives the main store's toasts; keeps no state.
import { filesOutApi } from '../api'
import i18n from '../i18n'
import { keepFocus } from '../lib/focus'
import { useStore } from './index'

const main = () => useStore.getState()

/** Saves a copy of the file where the user picks: the path written, or '' (cancelled or failed: the error is toasted). */
export async function saveFileAs(chatId: string, path: string): Promise<string> {
  try {
    const title = i18n.t('filesOut.dialogTitle', { name: path.split('/').pop() ?? path })
    const to = await keepFocus(() => filesOutApi.saveWorkspaceFileAs(chatId, path, title))
    if (to) main().toast({ kind: 'success', title: 'filesOut.saved', message: i18n.t('filesOut.savedTo', { path: to }) })
    return to
  } catch (err) {
    main().toastError('filesOut.errors.save', err)
    return ''
  }
}

/** Opens a folder workspace's file with the system's default application. */
export async function openInEditor(chatId: string, path: string): Promise<boolean> {
  try {
    await filesOutApi.openWorkspaceFile(chatId, path)
    return true
  } catch (err) {
    main().toastError('filesOut.errors.open', err)
    return false
  }
}
