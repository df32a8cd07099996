import './Composer.css'
import { forwardRef, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import { SendIcon, StopIcon } from './icons'
import { AttachButton, PendingAttachments } from './Attachments'
import { useAttachments } from './useAttachments'
import { useComposerOffers } from './ComposerOffers'
import { modelVision, setComposerSink } from '../store/attachments'
import { setDraftFiles } from '../store/context'
import type { NewAttachment } from '../api'

export type ComposerHandle = { focus: () => void; addFiles: (files: File[]) => void }

type Props = {
  /** Controlled text (e.g. the store's draft for this chat). Uncontrolled when omitted. */
  value?: string
  onChange?: (text: string) => void
  initialValue?: string
  streaming: boolean
  /** Disabled entirely (e.g. no backend). */
  disabled?: boolean
  placeholder?: string
  /** Resolves true when the message was accepted (the box is then cleared for good). */
  onSend: (text: string, files?: NewAttachment[]) => Promise<boolean> | boolean
  onStop: () => void
  onDraftChange?: (text: string) => void
  /** Replaces the hint under the box (e.g. tool calls are waiting). */
  hint?: string
  /** The chat whose MCP servers' prompts ("/") and resources the composer offers (null: a new chat). */
  chatId?: string | null
}

const MAX_HEIGHT = 240

export const Composer = forwardRef<ComposerHandle, Props>(function Composer(
  { value: controlledValue, onChange, initialValue = '', streaming, disabled, placeholder, onSend, onStop, onDraftChange, hint, chatId = null },
  ref,
) {
  const { t } = useTranslation()
  const [inner, setInner] = useState(initialValue)
  const controlled = controlledValue !== undefined
  const value = controlled ? controlledValue : inner
  const [sending, setSending] = useState(false)
  const area = useRef<HTMLTextAreaElement>(null)
  // Always write through the latest callbacks: the chat may change while a send is in flight.
  const cb = useRef({ onChange, onDraftChange })
  cb.current = { onChange, onDraftChange }

  const attached = useAttachments()
  const { add: addFiles } = attached
  const [dragging, setDragging] = useState(false)
  const noVision = useNoVision(attached.hasImage)

  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus(), addFiles: (f) => void addFiles(f) }), [addFiles])
  // The files waiting here count in the context gauge before they are sent.
  useEffect(() => {
    setDraftFiles(attached.items.map((p) => ({ name: p.name, image: p.image !== '', size: p.size, width: p.width, height: p.height })))
  }, [attached.items])
  useEffect(() => () => setDraftFiles([]), [])
  // Files attached from the Files panel join the ones waiting here.
  useEffect(() => {
    setComposerSink((f) => void addFiles(f))
    return () => setComposerSink(null)
  }, [addFiles])

  // Autosize: grow with the content up to MAX_HEIGHT, then scroll.
  useLayoutEffect(() => {
    const el = area.current
    if (!el) return
    el.style.height = 'auto'
    const full = el.scrollHeight // one forced layout per change, not two (read before the writes)
    el.style.height = `${Math.max(Math.min(full, MAX_HEIGHT), 24)}px`
    el.style.overflowY = full > MAX_HEIGHT ? 'auto' : 'hidden'
  }, [value])

  const update = (v: string) => {
    if (!controlled) setInner(v)
    cb.current.onChange?.(v)
    cb.current.onDraftChange?.(v)
  }

  const offers = useComposerOffers({
    chatId,
    value,
    setText: (v) => update(v),
    addFiles: attached.addChecked,
    focus: () => area.current?.focus(),
    disabled,
  })

  const canSend = !streaming && !disabled && !sending && (value.trim().length > 0 || attached.items.length > 0)

  const submit = useCallback(async () => {
    if (!canSend) return
    const text = value
    const files = attached.files()
    setSending(true)
    update('') // clear right away; restore if the backend refused it
    let ok = false
    try {
      ok = files.length ? await onSend(text, files) : await onSend(text)
    } catch {
      ok = false
    }
    setSending(false)
    if (!ok) update(text)
    else attached.clear()
    area.current?.focus()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canSend, value, onSend, attached.files])

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (offers.onKey(e)) return
    if (e.key !== 'Enter') return
    // Don't hijack Enter while an input method (e.g. Chinese pinyin) is composing.
    if (e.nativeEvent.isComposing || e.keyCode === 229) return
    if (e.shiftKey || e.altKey) return // newline (default behaviour)
    e.preventDefault()
    void submit()
  }

  return (
    <form
      className={`composer ${streaming ? 'is-streaming' : ''} ${dragging ? 'is-dragging' : ''}`}
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        setDragging(false)
        const files = [...e.dataTransfer.files]
        if (!files.length) return
        e.preventDefault()
        e.stopPropagation()
        void addFiles(files)
      }}
    >
      {offers.popover}
      <div className={`composer__box ${attached.items.length ? 'composer__box--files' : ''}`}>
        {attached.items.length > 0 && (
          <div className="composer__files">
            <PendingAttachments items={attached.items} onRemove={attached.remove} />
          </div>
        )}
        <AttachButton onFiles={(f) => void addFiles(f)} disabled={disabled} />
        {offers.button}
        <textarea
          ref={area}
          data-testid="composer"
          className="composer__input"
          rows={1}
          value={value}
          disabled={disabled}
          placeholder={placeholder ?? t('composer.placeholder')}
          aria-label={t('composer.label')}
          aria-keyshortcuts="Control+K"
          {...offers.aria}
          onChange={(e) => update(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={(e) => {
            const files = [...e.clipboardData.files]
            if (!files.length) return
            e.preventDefault() // a pasted screenshot becomes an attachment, not text
            void addFiles(files)
          }}
        />
        <div className="composer__actions">
          {streaming ? (
            <button
              type="button"
              className="composer__btn composer__btn--stop"
              data-testid="stop"
              onClick={onStop}
              aria-label={t('composer.stop')}
              title={t('composer.stop')}
            >
              <StopIcon size={14} />
              <span>{t('composer.stop')}</span>
            </button>
          ) : (
            <button
              type="submit"
              className="composer__btn"
              data-testid="send"
              disabled={!canSend}
              aria-label={t('composer.send')}
              title={t('composer.sendHint')}
            >
              <SendIcon size={16} />
            </button>
          )}
        </div>
      </div>
      {(attached.error || offers.error || noVision.model) && !streaming ? (
        <p className="composer__hint composer__hint--warn" role="status" data-testid="attach-warning">
          {attached.error ||
            offers.error ||
            t(noVision.server ? 'attachments.noVisionServer' : 'attach.noVision', { model: noVision.model })}
        </p>
      ) : (
        <p className={`composer__hint ${hint && !streaming ? 'composer__hint--warn' : ''}`} aria-hidden={hint ? undefined : true}>
          {streaming ? t('composer.hintStreaming') : hint ?? t('composer.hint')}
        </p>
      )}
    </form>
  )
})

type NoVision = { model: string; server: boolean }
const SEES = { model: '', server: false }

/** The model's name when it is known not to take images and images are attached (else ''), and whether its server said so. */
function useNoVision(hasImage: boolean): NoVision {
  const [state, setState] = useState<NoVision>(SEES)
  useEffect(() => {
    if (!hasImage) return setState(SEES)
    let on = true
    void modelVision().then((v) => on && setState(v?.sees === 'no' ? { model: v.model, server: v.source === 'server' } : SEES))
    return () => {
      on = false
    }
  }, [hasImage])
  return state
}
