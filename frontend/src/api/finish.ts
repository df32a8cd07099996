// Bindings added for fit and finish (issue 30).
import { call, type WorkspaceKind } from './index'

export const finishApi = {
  /** Whether a folder can be the new chat's workspace now (refused with the reason when not). */
  checkWorkspaceFolder: (kind: WorkspaceKind, dir: string) => call<void>('CheckWorkspaceFolder', kind, dir),
}
