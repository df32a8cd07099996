// The Trash (Settings ▸ Trash): deleted chats, restorable for 30 days.
//
// Kept apart from store/index.ts (like store/policy.ts): it drives the main
// store through its public actions and keeps its own state here.
import { create } from 'zustand'
import { toApiError, trashApi, type TrashedChat } from '../api'
import i18n from '../i18n'
import { useStore } from './index'
import { sortChats } from './slices/util'

export const DAY_MS = 24 * 60 * 60 * 1000

export type TrashState = {
  items: TrashedChat[]
  loaded: boolean
  error: string
  /** An action in flight: a chat id, or '*' for Empty Trash. */
  busy: string
}

const initial = (): TrashState => ({ items: [], loaded: false, error: '', busy: '' })

export const useTrash = create<TrashState>()(() => initial())

const main = () => useStore.getState()

/** Days left before a chat is deleted for good, a part-day counting as a day (30 right after Delete); 0 once due. */
export const daysLeft = (t: TrashedChat, now = Date.now()) => Math.max(0, Math.ceil((t.purgeAt - now) / DAY_MS))

export async function loadTrash() {
  try {
    useTrash.setState({ items: await trashApi.listTrash(), loaded: true, error: '' })
  } catch (err) {
    useTrash.setState({ loaded: true, error: toApiError(err).message })
  }
}

/** Takes a chat out of the Trash and puts it back in the sidebar, where it was. */
export async function restoreChat(id: string, select = false): Promise<boolean> {
  useTrash.setState({ busy: id })
  try {
    const chat = await trashApi.restoreChat(id)
    useStore.setState((s) => ({ chats: sortChats([...s.chats.filter((c) => c.id !== id), chat]) }))
    useTrash.setState((s) => ({ items: s.items.filter((t) => t.id !== id) }))
    if (select) await main().selectChat(id)
    return true
  } catch (err) {
    main().toastError('trash.errors.restore', err)
    return false
  } finally {
    useTrash.setState({ busy: '' })
  }
}

/** Restore from the Trash view: says so, with Open (closes Settings and opens the chat). */
export async function restoreWithNotice(t: TrashedChat) {
  if (!(await restoreChat(t.id))) return
  main().toast({
    kind: 'success',
    title: 'trash.restored',
    message: t.title || i18n.t('chat.untitled'),
    action: {
      label: 'trash.open',
      testId: 'trash-restored-open',
      run: () => {
        main().closeSettings()
        void main().selectChat(t.id)
      },
    },
  })
}

export async function deleteForever(id: string): Promise<boolean> {
  useTrash.setState({ busy: id })
  try {
    await trashApi.deleteChatForever(id)
    useTrash.setState((s) => ({ items: s.items.filter((t) => t.id !== id) }))
    return true
  } catch (err) {
    main().toastError('trash.errors.delete', err)
    return false
  } finally {
    useTrash.setState({ busy: '' })
  }
}

export async function emptyTrash(): Promise<boolean> {
  useTrash.setState({ busy: '*' })
  try {
    const n = await trashApi.emptyTrash()
    useTrash.setState({ items: [] })
    main().toast({ kind: 'success', title: 'trash.emptied', message: i18n.t('trash.emptiedMessage', { count: n }) })
    return true
  } catch (err) {
    main().toastError('trash.errors.empty', err)
    await loadTrash()
    return false
  } finally {
    useTrash.setState({ busy: '' })
  }
}

/** Test helper. */
export function resetTrash() {
  useTrash.setState(initial())
}
