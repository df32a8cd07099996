// The files waiting in the composer: read as base64 for Go (which checks them
// again by their bytes), previews through blob: URLs made here from the
// bytes, and the caps checked before anything is read.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { McpFile, NewAttachment } from '../api'
import i18n from '../i18n'
import { base64Bytes } from '../store/attachments'

export const MAX_FILE_BYTES = 20 << 20
export const MAX_MESSAGE_BYTES = 50 << 20
export const MAX_FILES = 20

export type Pending = {
  id: number
  name: string
  size: number
  /** The sniffed image type ('' for other files). */
  image: string
  /** A blob: URL of the bytes, for an image's thumbnail. */
  url: string
  data: string
  /** An image's pixels, from its header (0 when not read): for the context gauge. */
  width: number
  height: number
}

/** The image type by the first bytes (PNG, JPEG, GIF, WebP), or ''. */
export function sniffImage(b: Uint8Array): string {
  const at = (s: string, off = 0) => [...s].every((c, i) => b[off + i] === c.charCodeAt(0))
  if (b[0] === 0x89 && at('PNG', 1)) return 'image/png'
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg'
  if (at('GIF87a') || at('GIF89a')) return 'image/gif'
  if (at('RIFF') && at('WEBP', 8)) return 'image/webp'
  return ''
}

/** An image's width and height from its header (PNG, GIF, WebP, JPEG), or [0, 0]. */
export function imageSize(b: Uint8Array, type: string): [number, number] {
  const u16be = (i: number) => (b[i] << 8) | b[i + 1]
  const u16le = (i: number) => b[i] | (b[i + 1] << 8)
  const u24le = (i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)
  if (b.length < 30) return [0, 0]
  switch (type) {
    case 'image/png':
      return [((b[16] << 24) >>> 0) + (b[17] << 16) + u16be(18), ((b[20] << 24) >>> 0) + (b[21] << 16) + u16be(22)]
    case 'image/gif':
      return [u16le(6), u16le(8)]
    case 'image/webp': {
      const chunk = String.fromCharCode(b[12], b[13], b[14], b[15])
      if (chunk === 'VP8X') return [1 + u24le(24), 1 + u24le(27)]
      if (chunk === 'VP8L') return [1 + (((b[22] & 0x3f) << 8) | b[21]), 1 + (((b[24] & 0xf) << 10) | (b[23] << 2) | ((b[22] & 0xc0) >> 6))]
      if (chunk === 'VP8 ') return [u16le(26) & 0x3fff, u16le(28) & 0x3fff]
      return [0, 0]
    }
    case 'image/jpeg':
      // The first start-of-frame marker says the size (C4, C8 and CC are not frames).
      for (let i = 2; i + 9 < b.length && b[i] === 0xff; ) {
        const m = b[i + 1]
        if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return [u16be(i + 7), u16be(i + 5)]
        i += 2 + u16be(i + 2)
      }
  }
  return [0, 0]
}

function toBase64(b: Uint8Array): string {
  let s = ''
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000))
  return btoa(s)
}

export const sizeText = (n: number) =>
  n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1).replace(/\.0$/, '')} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} B`

let nextId = 1

export function useAttachments() {
  const [items, setItems] = useState<Pending[]>([])
  const [error, setError] = useState('')
  const live = useRef(items)
  live.current = items

  // Revoke the previews' URLs when the composer goes away.
  useEffect(() => () => live.current.forEach((p) => p.url && URL.revokeObjectURL(p.url)), [])

  const add = useCallback(async (files: File[]) => {
    const t = i18n.t.bind(i18n)
    let total = live.current.reduce((n, p) => n + p.size, 0)
    let count = live.current.length
    const added: Pending[] = []
    let problem = ''
    for (const f of files) {
      if (count >= MAX_FILES) {
        problem = t('attach.tooMany', { max: MAX_FILES })
        break
      }
      if (f.size > MAX_FILE_BYTES) {
        problem = t('attach.tooBig', { name: f.name, size: sizeText(f.size), max: sizeText(MAX_FILE_BYTES) })
        continue
      }
      if (total + f.size > MAX_MESSAGE_BYTES) {
        problem = t('attach.tooMuch', { max: sizeText(MAX_MESSAGE_BYTES) })
        continue
      }
      const bytes = new Uint8Array(await f.arrayBuffer())
      const image = sniffImage(bytes)
      const [width, height] = image ? imageSize(bytes, image) : [0, 0]
      added.push({
        id: nextId++,
        name: f.name || t('attach.pasted'),
        size: f.size,
        image,
        url: image ? URL.createObjectURL(new Blob([bytes], { type: image })) : '',
        data: toBase64(bytes),
        width,
        height,
      })
      total += f.size
      count++
    }
    setError(problem)
    if (added.length) setItems((s) => [...s, ...added])
  }, [])

  /** Files an MCP server brought (already checked by Go): the same caps, counted with the rest. */
  const addChecked = useCallback((files: McpFile[]) => {
    const t = i18n.t.bind(i18n)
    const total = live.current.reduce((n, p) => n + p.size, 0) + files.reduce((n, f) => n + f.size, 0)
    let problem = ''
    if (live.current.length + files.length > MAX_FILES) problem = t('attach.tooMany', { max: MAX_FILES })
    else if (total > MAX_MESSAGE_BYTES) problem = t('attach.tooMuch', { max: sizeText(MAX_MESSAGE_BYTES) })
    setError(problem)
    if (problem) return false
    const added = files.map((f) => {
      const bytes = base64Bytes(f.data)
      const [width, height] = f.image ? imageSize(bytes, f.image) : [0, 0]
      return {
        id: nextId++,
        name: f.name,
        size: f.size,
        image: f.image,
        width,
        height,
        url: f.image ? URL.createObjectURL(new Blob([bytes], { type: f.image })) : '',
        data: f.data,
      }
    })
    if (added.length) setItems((s) => [...s, ...added])
    return true
  }, [])

  const remove = useCallback((id: number) => {
    setItems((s) => {
      const gone = s.find((p) => p.id === id)
      if (gone?.url) URL.revokeObjectURL(gone.url)
      return s.filter((p) => p.id !== id)
    })
  }, [])

  /** Empties the list (after a send); the previews' URLs go with it. */
  const clear = useCallback(() => {
    live.current.forEach((p) => p.url && URL.revokeObjectURL(p.url))
    setItems([])
    setError('')
  }, [])

  const files = useCallback((): NewAttachment[] => live.current.map((p) => ({ name: p.name, data: p.data })), [])

  return { items, error, add, addChecked, remove, clear, files, hasImage: items.some((p) => p.image !== '') }
}
