// Bindings added for fit and finish (issue 30). index.ts builds them with its
// `call` (this file imports nothing from it: the api has no import circles).
type Call = <T>(name: string, ...args: unknown[]) => Promise<T>

export const makeFinishApi = (call: Call) => ({
  /** Whether a folder can be the new chat's workspace now (refused with the reason when not). */
  checkWorkspaceFolder: (kind: 'scratch' | 'folder' | 'overlay', dir: string) => call<void>('CheckWorkspaceFolder', kind, dir),
})
