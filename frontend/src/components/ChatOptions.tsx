import './ChatOptions.css'
import { Suspense } from 'react'
import { useTranslation, type TFunction } from '../i18n'
import type { ModelModeInfo, Paradigm, ToolMode } from '../api'
import { selectActiveChatOptions, useStore } from '../store'
import { useAutoModelMode } from '../store/modelMode'
import { lazyWithPreload } from '../lib/lazy'
import { usePopover } from '../lib/popover'
// The lazy popover's sheets, imported here so they keep their place in the cascade (see styles/cascade.ts).
import '../styles/mcp.css'
import '../styles/toolmode.css'
import { ChevronDownIcon, SlidersIcon } from './icons'

// The popover (tool mode, format, MCP servers) is its own chunk, preloaded while idle after start.
const ChatOptionsPopover = lazyWithPreload(() => import('./ChatOptionsPopover').then((m) => ({ default: m.ChatOptionsPopover })))
export const preloadChatOptions = () => void ChatOptionsPopover.preload()

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
  const { open, setOpen, wrap, button, ids, onKey } = usePopover(chatId)

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
        <Suspense fallback={null}>
          <ChatOptionsPopover ids={ids} chatId={chatId} opts={opts} formatUnused={formatUnused} save={save} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  )
}

/** The header chip: "JSON", "Native", "Auto · native", "Auto · JSON" ("Auto" until Auto's knowledge is read). */
export function toolModeChip(t: TFunction, mode: ToolMode, paradigm: Paradigm, info: ModelModeInfo | null): string {
  const format = t(`chatOptions.paradigms.${paradigm}.label`)
  if (mode === 'text') return format
  if (mode === 'native') return t('chatOptions.chipNative')
  if (!info) return t('chatOptions.toolModes.auto.label')
  return t('chatOptions.chipAuto', { mode: info.effective === 'native' ? t('chatOptions.chipAutoNative') : format })
}
