import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '../i18n'
import type { Message } from '../api'
import { selectIsStreaming, useStore } from '../store'
import { editAndResend, regenerate, switchVersion, useHistory } from '../store/history'
import { ChevronLeftIcon, ChevronRightIcon, PencilIcon, RetryIcon, SendIcon } from './icons'
import '../styles/history.css'
import { RegenerateWith } from './ModelPicker'

/** Streaming or a version action running: versions can't change now. */
const useLocked = (chatId: string) => {
  const streaming = useStore((s) => selectIsStreaming(s, chatId))
  const busy = useHistory((s) => !!s.busy[chatId])
  return streaming || busy
}

export function EditButton({ m, onEdit }: { m: Message; onEdit: () => void }) {
  const { t } = useTranslation()
  const locked = useLocked(m.chatId)
  return (
    <button
      type="button"
      className="icon-btn icon-btn--sm"
      data-testid="edit-message"
      aria-label={t('history.edit.button')}
      title={t('history.edit.button')}
      disabled={locked}
      onClick={onEdit}
    >
      <PencilIcon size={14} />
    </button>
  )
}

/** Edits a user message in place: Save & send adds a new version of it and answers it anew. */
export function MessageEditor({ m, onClose }: { m: Message; onClose: () => void }) {
  const { t } = useTranslation()
  const [text, setText] = useState(m.content)
  const [sending, setSending] = useState(false)
  const locked = useLocked(m.chatId)
  const ref = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    const el = ref.current
    if (!el) return
    el.focus()
    el.setSelectionRange(el.value.length, el.value.length)
  }, [])

  const canSend = text.trim() !== '' && !sending && !locked
  const send = async () => {
    if (!canSend) return
    setSending(true)
    const err = await editAndResend(m, text)
    setSending(false)
    if (!err) onClose()
  }

  return (
    <div className="msg-edit" data-testid="message-editor">
      <textarea
        ref={ref}
        className="msg-edit__input"
        data-testid="edit-input"
        aria-label={t('history.edit.label')}
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            void send()
          } else if (e.key === 'Escape') {
            e.preventDefault()
            e.stopPropagation()
            onClose()
          }
        }}
      />
      <div className="msg-edit__bar">
        <span className="msg-edit__hint">{t('history.edit.hint')}</span>
        <button type="button" className="btn btn--sm btn--ghost" data-testid="edit-cancel" onClick={onClose}>
          {t('history.edit.cancel')}
        </button>
        <button type="button" className="btn btn--sm btn--primary" data-testid="edit-send" disabled={!canSend} onClick={() => void send()}>
          {sending ? <span className="spinner" aria-hidden="true" /> : <SendIcon size={13} />}
          {t('history.edit.send')}
        </button>
      </div>
    </div>
  )
}

export function RegenerateButton({ m }: { m: Message }) {
  const { t } = useTranslation()
  const locked = useLocked(m.chatId)
  return (
    <>
    <button
      type="button"
      className="icon-btn icon-btn--sm"
      data-testid="regenerate"
      aria-label={t('history.regenerate')}
      title={t('history.regenerateHint')}
      disabled={locked}
      onClick={() => void regenerate(m)}
    >
      <RetryIcon size={14} />
    </button>
    <RegenerateWith m={m} locked={locked} />
    </>
  )
}

/** ‹ 2/3 › for a message whose turn has more than one version. */
export function VersionSwitcher({ m }: { m: Message }) {
  const { t } = useTranslation()
  const locked = useLocked(m.chatId)
  const total = m.versions ?? 1
  if (total <= 1) return null
  const current = Math.min(Math.max(m.version ?? total, 1), total)
  return (
    <span className="versions" data-testid="versions" role="group" aria-label={t('history.version.label', { current, total })}>
      <button
        type="button"
        className="icon-btn icon-btn--sm"
        data-testid="version-prev"
        aria-label={t('history.version.prev')}
        title={t('history.version.prev')}
        disabled={locked || current <= 1}
        onClick={() => void switchVersion(m, -1)}
      >
        <ChevronLeftIcon size={14} />
      </button>
      <span className="versions__label" data-testid="version-label" aria-hidden="true">
        {current}/{total}
      </span>
      <button
        type="button"
        className="icon-btn icon-btn--sm"
        data-testid="version-next"
        aria-label={t('history.version.next')}
        title={t('history.version.next')}
        disabled={locked || current >= total}
        onClick={() => void switchVersion(m, 1)}
      >
        <ChevronRightIcon size={14} />
      </button>
    </span>
  )
}
