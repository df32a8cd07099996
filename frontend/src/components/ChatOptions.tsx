import './ChatOptions.css'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import type { Paradigm, ToolMode } from '../api'
import { selectActiveChatOptions, useStore } from '../store'
import { useAutoModelMode } from '../store/modelMode'
import { Switch } from './Switch'
import { ChatMcpChoice } from './ChatMcpChoice'
import { ToolModeChoice, toolModeChip } from './ToolModeChoice'
import { ChevronDownIcon, SlidersIcon } from './icons'

export const PARADIGMS: Paradigm[] = ['json', 'xml', 'vcp']

/** The header chip showing the chat's tool paradigm; opens the chat's tool options. */
export function ChatOptionsButton() {
  const { t } = useTranslation()
  const chatId = useStore((s) => s.activeChatId)
  // Two primitive selections (a fresh object per call would re-render forever).
  const paradigm = useStore((s) => selectActiveChatOptions(s).paradigm)
  const recognizeOthers = useStore((s) => selectActiveChatOptions(s).recognizeOthers)
  const toolMode = useStore((s) => selectActiveChatOptions(s).toolMode ?? 'auto')
  const opts = { paradigm, recognizeOthers, toolMode }
  const auto = useAutoModelMode(toolMode === 'auto')
  const setChatOptions = useStore((s) => s.setChatOptions)
  const [open, setOpen] = useState(false)
  const wrap = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const ids = useId()

  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', onDown)
    requestAnimationFrame(() => wrap.current?.querySelector<HTMLElement>('input[type="radio"]:checked')?.focus())
    return () => document.removeEventListener('mousedown', onDown)
  }, [open])

  useEffect(() => setOpen(false), [chatId])

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
      button.current?.focus()
    }
  }

  const save = (paradigm: Paradigm, recognizeOthers: boolean, toolMode: ToolMode = opts.toolMode) =>
    void setChatOptions(chatId, { paradigm, recognizeOthers, toolMode })
  // The call format is for calls written as text: not used by Native, nor by Auto while it calls natively.
  const formatUnused = opts.toolMode === 'native' || (opts.toolMode === 'auto' && auto?.effective === 'native')

  return (
    <div className="chat-options" ref={wrap} onKeyDown={onKey}>
      <button
        ref={button}
        type="button"
        className="chat-options__btn"
        data-testid="chat-options"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? `${ids}-pop` : undefined}
        title={t('chatOptions.title')}
        onClick={() => setOpen((v) => !v)}
      >
        <SlidersIcon size={14} />
        <span className="chat-options__label">{t('chatOptions.chipPrefix')}</span>
        <span
          className="chat-options__chip"
          data-testid="paradigm-chip"
          data-paradigm={opts.paradigm}
          data-tool-mode={opts.toolMode}
          data-effective={opts.toolMode === 'auto' ? auto?.effective : opts.toolMode}
        >
          {toolModeChip(t, opts.toolMode, opts.paradigm, auto)}
        </span>
        <ChevronDownIcon size={13} />
      </button>
      {open && (
        <div className="popover chat-options__pop" role="dialog" id={`${ids}-pop`} aria-labelledby={`${ids}-title`} data-testid="chat-options-popover">
          <h2 className="popover__title" id={`${ids}-title`}>
            {t('chatOptions.title')}
          </h2>
          <p className="popover__sub">{chatId ? t('chatOptions.subtitle') : t('chatOptions.subtitleNew')}</p>
          <ToolModeChoice mode={opts.toolMode} onChange={(m) => save(opts.paradigm, opts.recognizeOthers, m)} />
          <div className="popover__divider" />
          <div className={`paradigm-section ${formatUnused ? 'is-dimmed' : ''}`} data-testid="paradigm-section">
            <h3 className="paradigm-section__title" id={`${ids}-format`}>
              {t('chatOptions.paradigmTitle')}
            </h3>
            {opts.toolMode !== 'text' && (
              <p className="paradigm-section__note" data-testid="paradigm-note">
                {opts.toolMode === 'native' ? t('chatOptions.paradigmNativeNote') : t('chatOptions.paradigmAutoNote')}
              </p>
            )}
            <div className="paradigm-list" role="radiogroup" aria-labelledby={`${ids}-format`}>
              {PARADIGMS.map((p) => (
                <label key={p} className={`paradigm-opt ${opts.paradigm === p ? 'is-selected' : ''}`}>
                  <input
                    type="radio"
                    name={`${ids}-paradigm`}
                    value={p}
                    checked={opts.paradigm === p}
                    onChange={() => save(p, opts.recognizeOthers)}
                    data-testid="paradigm-option"
                  />
                  <span className="paradigm-opt__text">
                    <span className="paradigm-opt__label">{t(`chatOptions.paradigms.${p}.label`)}</span>
                    <span className="paradigm-opt__desc">{t(`chatOptions.paradigms.${p}.desc`)}</span>
                  </span>
                </label>
              ))}
            </div>
          </div>
          <div className="popover__divider" />
          <Switch
            id={`${ids}-others`}
            checked={opts.recognizeOthers}
            onChange={(v) => save(opts.paradigm, v)}
            label={t('chatOptions.recognizeOthers')}
            description={t('chatOptions.recognizeOthersDesc')}
            testId="recognize-others"
          />
          <div className="popover__divider" />
          <ChatMcpChoice onOpenSettings={() => setOpen(false)} />
          <p className="popover__foot">{t('chatOptions.appliesNext')}</p>
        </div>
      )}
    </div>
  )
}
