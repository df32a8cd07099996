// Attachments: the composer's paperclip, its waiting files (thumbnails and
// chips, removable), and the files shown in a sent message. Pictures are
// only ever shown from blob: URLs made from bytes whose type was sniffed
// (PNG, JPEG, GIF, WebP) — never from anything a model wrote.
import './Attachments.css'
import { useEffect, useRef, useState } from 'react'
import type { Attachment } from '../api'
import { useTranslation } from '../i18n'
import { attachmentUrl, isPicture } from '../store/attachments'
import { CloseIcon, FileIcon } from './icons'
import { sizeText, type Pending } from './useAttachments'

export const PaperclipIcon = ({ size = 16 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
    strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9" />
  </svg>
)

/** The paperclip button and its file input (testing hook: attach-input). */
export function AttachButton({ onFiles, disabled }: { onFiles: (f: File[]) => void; disabled?: boolean }) {
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <button type="button" className="composer__attach" data-testid="attach" disabled={disabled}
        aria-label={t('attach.button')} title={t('attach.button')} onClick={() => input.current?.click()}>
        <PaperclipIcon size={18} />
      </button>
      <input ref={input} type="file" multiple hidden data-testid="attach-input" tabIndex={-1}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          e.target.value = ''
          if (files.length) onFiles(files)
        }} />
    </>
  )
}

/** The files waiting to be sent. */
export function PendingAttachments({ items, onRemove }: { items: Pending[]; onRemove: (id: number) => void }) {
  const { t } = useTranslation()
  if (!items.length) return null
  return (
    <ul className="attachments attachments--pending" data-testid="pending-attachments" aria-label={t('attach.pending')}>
      {items.map((p) => (
        <li key={p.id} className={`attachment ${p.image ? 'attachment--image' : ''}`} data-testid="pending-attachment" title={`${p.name} · ${sizeText(p.size)}`}>
          {p.image ? <img src={p.url} alt={p.name} className="attachment__thumb" /> : <FileChip name={p.name} size={p.size} />}
          <button type="button" className="attachment__remove" data-testid="remove-attachment"
            aria-label={t('attach.remove', { name: p.name })} onClick={() => onRemove(p.id)}>
            <CloseIcon size={12} />
          </button>
        </li>
      ))}
    </ul>
  )
}

function FileChip({ name, size }: { name: string; size: number }) {
  return (
    <span className="attachment__chip">
      <FileIcon size={14} />
      <span className="attachment__name">{name}</span>
      <span className="attachment__size">{sizeText(size)}</span>
    </span>
  )
}

/** The files of a sent message. */
export function MessageAttachments({ items }: { items?: Attachment[] }) {
  const { t } = useTranslation()
  if (!items?.length) return null
  return (
    <ul className="attachments" data-testid="message-attachments" aria-label={t('attach.attached')}>
      {items.map((a, i) => (
        <li key={`${a.sha256}-${i}`} className={`attachment ${isPicture(a) ? 'attachment--image' : ''}`} data-testid="message-attachment"
          title={`${a.name} · ${sizeText(a.size)}${a.width ? ` · ${a.width}×${a.height}` : ''}`}>
          {isPicture(a) ? <StoredPicture a={a} /> : <FileChip name={a.name} size={a.size} />}
        </li>
      ))}
    </ul>
  )
}

function StoredPicture({ a }: { a: Attachment }) {
  const [url, setUrl] = useState('')
  useEffect(() => {
    let on = true
    void attachmentUrl(a).then((u) => on && setUrl(u))
    return () => {
      on = false
    }
  }, [a])
  return url ? <img src={url} alt={a.name} className="attachment__thumb" /> : <span className="attachment__thumb attachment__thumb--loading" aria-label={a.name} />
}
