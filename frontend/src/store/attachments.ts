// Attachments as the UI needs them: thumbnails of sent images (blob: URLs
// made here from the stored bytes, only for the four image types Go
// accepts), what is known of the model's vision, and the chat's switch for
// tools' images. Only store/ calls the bindings.
import { attachmentsApi, type Attachment, type ModelVision } from '../api'

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/** Whether an attachment is shown as a picture (sniffed type, never SVG). */
export const isPicture = (a: Pick<Attachment, 'kind' | 'mime'>) => a.kind === 'image' && IMAGE_TYPES.has(a.mime)

const urls = new Map<string, Promise<string>>()

/** A blob: URL for a stored picture ('' when it cannot be read). Cached per content. */
export function attachmentUrl(a: Attachment): Promise<string> {
  if (!isPicture(a)) return Promise.resolve('')
  let u = urls.get(a.sha256)
  if (!u) {
    u = attachmentsApi
      .attachmentBytes(a.sha256)
      .then((b64) => URL.createObjectURL(new Blob([base64Bytes(b64)], { type: a.mime })))
      .catch(() => {
        urls.delete(a.sha256)
        return ''
      })
    urls.set(a.sha256, u)
  }
  return u
}

/** Where files for the message being written go (the composer registers itself). */
type Sink = (files: File[]) => void
let composerSink: Sink | null = null

/** The composer takes the files attached from elsewhere (the Files panel) while it is there. */
export function setComposerSink(sink: Sink | null) {
  composerSink = sink
}

/**
 * Attaches a workspace file to the message being written, as the paperclip does: Go reads it from the chat's
 * workspace and checks it (refusing it with a sentence), then the composer adds it with its own caps.
 */
export async function attachWorkspaceFile(chatId: string, path: string): Promise<void> {
  const sink = composerSink
  if (!sink) throw new Error('no composer')
  const f = await attachmentsApi.workspaceAttachment(chatId, path)
  sink([new File([base64Bytes(f.data)], f.name)])
}

/** Bytes of base64 text (what Go sends for []byte). */
export function base64Bytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

/** What is known of whether the active model takes images (null when it cannot be asked). */
export const modelVision = (): Promise<ModelVision | null> => attachmentsApi.modelVision().catch(() => null)

export const toolImages = (chatId: string): Promise<boolean> => attachmentsApi.toolImages(chatId).catch(() => true)
export const setToolImages = (chatId: string, on: boolean) => attachmentsApi.setToolImages(chatId, on)
/** The user's word on whether the active model takes images ('' forgets it). */
export const setModelVision = (sees: '' | 'yes' | 'no') => attachmentsApi.setModelVision('', '', sees)
