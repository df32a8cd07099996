// Workspaces in the main store: the files panel, where a chat's tools work,
// and an overlay's changes (apply, discard, reset).
import {
  api,
  finishApi,
  chatWorkspace,
  DEFAULT_WORKSPACE,
  toApiError,
  type ApiError,
  type WorkspaceChoice,
} from '../../api'
import { cleanFolder } from '../../lib/tree'
import type { Store } from '../types'
import type { Slice } from './util'
import type { WorkspaceState, WorkspaceSliceState, WorkspaceSlice } from '../types'

export const FILES_KEY = 'airlock.filesPanel'
function readFilesOpen(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(FILES_KEY) === 'open'
  } catch {
    return false
  }
}
function writeFilesOpen(open: boolean) {
  try {
    localStorage.setItem(FILES_KEY, open ? 'open' : 'closed')
  } catch {
    // storage unavailable: the panel just isn't remembered
  }
}
/** Workspace loads in flight (by chat id); `again` = something changed meanwhile, load once more. */
const wsInflight = new Map<string, { again: boolean }>()
/** Debounced refreshes after file-tool calls, by chat id. */
const wsTimers = new Map<string, ReturnType<typeof setTimeout>>()
const WS_REFRESH_MS = 120
const emptyWorkspace = (): WorkspaceState => ({ info: null, changes: [], loading: false, error: null, version: 0 })

export const workspaceInitial = (): WorkspaceSliceState => ({
  filesOpen: readFilesOpen(),
  workspaces: {},
  newChatWorkspace: { ...DEFAULT_WORKSPACE },
  newChatWorkspaceError: null,
})

/** Test helper: forgets loads in flight and pending refreshes. */
export function resetWorkspaceSlice() {
  wsInflight.clear()
  for (const t of wsTimers.values()) clearTimeout(t)
  wsTimers.clear()
}

export const createWorkspaceSlice: Slice<WorkspaceSlice> = (set, get) => {
  /** Runs an overlay action, then reloads the listing (some paths may have gone through even on error). */
  const thenReload = async (chatId: string, fn: () => Promise<unknown>): Promise<ApiError | null> => {
    try {
      await fn()
      return null
    } catch (err) {
      return toApiError(err)
    } finally {
      await get().loadWorkspace(chatId)
    }
  }

  return {
    ...workspaceInitial(),

    toggleFiles: (open) => {
      const next = open ?? !get().filesOpen
      writeFilesOpen(next)
      set({ filesOpen: next })
    },

    loadWorkspace: async (chatId) => {
      const running = wsInflight.get(chatId)
      if (running) {
        running.again = true
        return
      }
      const flight = { again: false }
      wsInflight.set(chatId, flight)
      const patch = (p: Partial<WorkspaceState>) =>
        set((s) => ({ workspaces: { ...s.workspaces, [chatId]: { ...(s.workspaces[chatId] ?? emptyWorkspace()), ...p } } }))
      try {
        do {
          flight.again = false
          patch({ loading: true })
          try {
            const info = await api.getWorkspace(chatId)
            const changes = info.kind === 'overlay' ? await api.workspaceChanges(chatId) : []
            if (!get().chats.some((c) => c.id === chatId) && get().activeChatId !== chatId) break // deleted meanwhile
            set((s) => {
              const prev = s.workspaces[chatId] ?? emptyWorkspace()
              // The listing says where the tools really work: a chat we knew otherwise catches up.
              const chat = s.chats.find((c) => c.id === chatId)
              const known = chatWorkspace(chat)
              const chats =
                chat && (known.kind !== info.kind || (info.kind !== 'scratch' && known.dir !== info.dir))
                  ? s.chats.map((c) => (c.id === chatId ? { ...c, workspaceKind: info.kind, workspaceDir: info.kind === 'scratch' ? '' : info.dir } : c))
                  : s.chats
              return {
                chats,
                workspaces: { ...s.workspaces, [chatId]: { info, changes, loading: false, error: null, version: prev.version + 1 } },
              }
            })
          } catch (err) {
            const e = toApiError(err)
            set((s) => {
              const prev = s.workspaces[chatId] ?? emptyWorkspace()
              return {
                workspaces: {
                  ...s.workspaces,
                  [chatId]: { ...prev, info: null, changes: [], loading: false, error: { code: e.code, message: e.message, text: e.text }, version: prev.version + 1 },
                },
              }
            })
          }
        } while (flight.again)
      } finally {
        wsInflight.delete(chatId)
      }
    },

    setWorkspace: async (chatId, choice) => {
      // The backend keys an open workspace by its cleaned path: always send the same spelling.
      const next: WorkspaceChoice = { kind: choice.kind, dir: choice.kind === 'scratch' ? '' : cleanFolder(choice.dir) ?? choice.dir.trim() }
      if (!chatId) {
        // Checked now, before the chat exists: a folder that cannot be used is refused at Save.
        try {
          await finishApi.checkWorkspaceFolder(next.kind, next.dir)
        } catch (err) {
          return toApiError(err)
        }
        set({ newChatWorkspace: next, newChatWorkspaceError: null })
        return null
      }
      const prev = chatWorkspace(get().chats.find((c) => c.id === chatId))
      try {
        const chat = await api.setWorkspace(chatId, next.kind, next.dir)
        set((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? { ...c, ...chat } : c)) }))
        void get().loadWorkspace(chatId)
        return null
      } catch (err) {
        const e = toApiError(err)
        // The backend saves the choice before it finds the folder unusable: put the previous one back.
        try {
          const back = await api.setWorkspace(chatId, prev.kind, prev.dir)
          set((s) => ({ chats: s.chats.map((c) => (c.id === chatId ? { ...c, ...back } : c)) }))
        } catch {
          void get().loadChats()
        }
        void get().loadWorkspace(chatId)
        return e
      }
    },

    applyChanges: (chatId, paths) => thenReload(chatId, () => api.applyChanges(chatId, paths)),
    discardChanges: (chatId, paths) => thenReload(chatId, () => api.discardChanges(chatId, paths)),
    resetScratch: (chatId) => thenReload(chatId, () => api.resetScratch(chatId)),

    // A tool changed a chat's workspace: what the files panel shows is
    // read again (once for a burst of changes).
    handleWorkspaceChanged: (chatId) => {
      const s = get()
      if (!chatId || !(s.workspaces[chatId] || (s.filesOpen && s.activeChatId === chatId))) return
      const prev = wsTimers.get(chatId)
      if (prev) clearTimeout(prev)
      wsTimers.set(
        chatId,
        setTimeout(() => {
          wsTimers.delete(chatId)
          void get().loadWorkspace(chatId)
        }, WS_REFRESH_MS),
      )
    },
  }
}

/** Where the active chat's tools work (the lazy new chat's choice when none is active). */
export const selectActiveWorkspace = (s: Store): WorkspaceChoice => {
  if (!s.activeChatId) return s.newChatWorkspace
  return chatWorkspace(s.chats.find((c) => c.id === s.activeChatId))
}
