// Bindings added for fit and finish (issue 30): facade/finish.go.
import { call } from './core'

export const finishApi = {
  /** Whether a folder can be the new chat's workspace now (refused with the reason when not). */
  checkWorkspaceFolder: (kind: 'scratch' | 'folder' | 'overlay', dir: string) => call<void>('CheckWorkspaceFolder', kind, dir),
}
