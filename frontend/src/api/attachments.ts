// Files attached to a message, and what is known of whether a model takes
// images (facade/attachments.go).
import { call, type go } from './core'
import { normalizeMessage } from './chats'
import type { Message } from './chats'

export type Attachment = go.Attachment
export type NewAttachment = go.NewAttachment
export type ModelVision = go.ModelVision

const arr = <T,>(v: T[] | null | undefined): T[] => v ?? []

export const attachmentsApi = {
  /** Sends a message with files (base64); each is checked by its bytes in Go and refused with a sentence. */
  sendWithFiles: async (chatId: string, text: string, files: NewAttachment[]) =>
    arr(await call<Message[] | null>('SendWithFiles', chatId, text, files)).map(normalizeMessage),
  /** A file of the chat's workspace, read and checked in Go for the message being written (bytes base64). */
  workspaceAttachment: (chatId: string, path: string) => call<NewAttachment>('WorkspaceAttachment', chatId, path),
  /** An attached file's bytes, base64. */
  attachmentBytes: (sha256: string) => call<string>('AttachmentBytes', sha256),
  /** '' provider and model: the active one. */
  modelVision: (providerId = '', model = '') => call<ModelVision>('ModelVision', providerId, model),
  setModelVision: (providerId: string, model: string, sees: '' | 'yes' | 'no') =>
    call<ModelVision>('SetModelVision', providerId, model, sees),
  toolImages: (chatId: string) => call<boolean>('ToolImages', chatId),
  setToolImages: (chatId: string, on: boolean) => call<void>('SetToolImages', chatId, on),
}
