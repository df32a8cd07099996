// Requests to Go that keep no state in a store: a dialog's folder picker, a
// read-only file view, the Tool lab's listing and scanner, a provider test,
// an edit's preview. Components call these (the rule: components never call
// `api`; they read and act through the stores, and these forward to it).
// Each returns the backend's answer and throws an ApiError-convertible error.
import { api, type AboutInfo, type FileView, type Provider, type ScanParadigm, type ScanResult, type ToolLab } from '../api'

/** About dialog. */
export const loadAbout = (): Promise<AboutInfo> => api.about()
export const openDataDir = (): Promise<void> => api.openDataDir()

/** Settings ▸ Providers: check a provider before saving it; list its models. */
export const testConnection = (p: Provider): Promise<string> => api.testConnection(p)
export const listModels = (p: Provider): Promise<string[]> => api.listModels(p)

/** Tool lab: the tools, each paradigm's prompt, the formats; and what the scanner reads in a text. */
export const loadToolLab = (): Promise<ToolLab> => api.toolLab()
export const scanText = (text: string, paradigm: ScanParadigm, recognizeOthers: boolean): Promise<ScanResult> =>
  api.scanText(text, paradigm, recognizeOthers)

/** Files panel: one workspace file, read-only. */
export const readWorkspaceFile = (chatId: string, path: string): Promise<FileView> => api.readWorkspaceFile(chatId, path)

/** Opens a link in the system browser (lib/links.ts says when none opens). */
export const openURL = (url: string): Promise<void> => api.openURL(url)

/** The native folder picker ('' = cancelled). */
export const pickFolder = (): Promise<string> => api.pickFolder()

/** What an edited call would change (the card's diff follows the edit). */
export const previewCall = (callId: string, args: object): Promise<unknown> => api.previewCall(callId, args)
