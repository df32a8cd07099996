// Workspaces: where a chat's file tools work.
import { arr, call, type go, type Narrow } from './core'
import { asKind, normalizeChat, type Chat, type WorkspaceKind } from './chats'
import { normalizeRunOutput } from './calls'

export type ChangeOp = 'added' | 'modified' | 'deleted'
/** One file or folder of a workspace (sorted by path; `changed` only in an overlay). */
export type WorkspaceEntry = Narrow<go.WorkspaceEntry, { changed?: ChangeOp }>
export type WorkspaceInfo = Narrow<go.WorkspaceInfo, { kind: WorkspaceKind; entries: WorkspaceEntry[] }>
/** A workspace file opened read-only. */
export type FileView = go.FileView
/** What an overlay's Apply would write to the real folder. */
export type Change = Narrow<go.Change, { op: ChangeOp }>

export function normalizeWorkspace(w: WorkspaceInfo): WorkspaceInfo {
  return {
    kind: asKind(w?.kind),
    dir: w?.dir ?? '',
    entries: arr(w?.entries).map((e) => ({ ...e, isDir: !!e.isDir, size: e.size ?? 0 })),
    truncated: !!w?.truncated,
  }
}

export const workspaceApi = {
  // Workspaces: where a chat's file tools work.
  getWorkspace: async (chatId: string) => normalizeWorkspace(await call<WorkspaceInfo>('GetWorkspace', chatId)),
  readWorkspaceFile: async (chatId: string, path: string): Promise<FileView> => {
    const v = await call<FileView>('ReadWorkspaceFile', chatId, path)
    return { path: v?.path ?? path, content: v?.content ?? '', binary: !!v?.binary, size: v?.size ?? 0, truncated: !!v?.truncated }
  },
  /** Rejects an unusable folder with a message saying why. */
  setWorkspace: async (chatId: string, kind: WorkspaceKind, dir: string) =>
    normalizeChat(await call<Chat>('SetWorkspace', chatId, kind, kind === 'scratch' ? '' : dir)),
  /** The native folder dialog: '' when cancelled. */
  pickFolder: async () => (await call<string | null>('PickFolder')) ?? '',
  workspaceChanges: async (chatId: string) => arr(await call<Change[] | null>('WorkspaceChanges', chatId)),
  /** [] = all. A file changed on disk since the model read it is refused (code apply_conflict); the others apply. */
  applyChanges: (chatId: string, paths: string[]) => call<void>('ApplyChanges', chatId, paths),
  discardChanges: (chatId: string, paths: string[]) => call<void>('DiscardChanges', chatId, paths),
  resetScratch: (chatId: string) => call<void>('ResetScratch', chatId),
  /** Runs a tool by hand on the chat's workspace (validated like a model's call). */
  runTool: async (chatId: string, name: string, args: Record<string, unknown>) =>
    normalizeRunOutput(await call<unknown>('RunTool', chatId, name, args)),
}
