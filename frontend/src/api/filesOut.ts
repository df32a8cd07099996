// A workspace file taken out to the rest of the computer (facade/files_out.go).
import { call } from './core'

export const filesOutApi = {
  /** Saves a copy of a workspace file where the user picks (native dialog titled `title`): the path written, or '' when cancelled. */
  saveWorkspaceFileAs: (chatId: string, path: string, title: string) => call<string>('SaveWorkspaceFileAs', chatId, path, title),
  /** Opens a folder workspace's file with the system's default application. */
  openWorkspaceFile: (chatId: string, path: string) => call<void>('OpenWorkspaceFile', chatId, path),
}
