import { useEffect, useRef } from 'react'
import { useTranslation } from '../i18n'
import type { Paradigm, ToolMode } from '../api'
import { Switch } from './Switch'
import { ChatMcpChoice } from './ChatMcpChoice'
import { ChatToolsButton } from './ChatTools'
import { ToolModeChoice } from './ToolModeChoice'
import { ChatModeSource } from './ChatModeSource'
import { ImageOptions } from './ImageOptions'

const PARADIGMS: Paradigm[] = ['json', 'xml', 'vcp']

/**
 * The chat's tool options (tool mode, call format, MCP servers), opened from
 * ChatOptionsButton: its own chunk, not needed before the first paint.
 */
export function ChatOptionsPopover({
  ids,
  chatId,
  opts,
  formatUnused,
  save,
  onClose,
}: {
  ids: string
  chatId: string | null
  opts: { paradigm: Paradigm; recognizeOthers: boolean; toolMode: ToolMode }
  formatUnused: boolean
  save: (paradigm: Paradigm, recognizeOthers: boolean, toolMode?: ToolMode) => void
  onClose: () => void
}) {
  const { t } = useTranslation()
  const root = useRef<HTMLDivElement>(null)
  // Focus the chosen format on open (here, so it also works when this chunk arrives late).
  useEffect(() => {
    const id = requestAnimationFrame(() => root.current?.querySelector<HTMLElement>('input[type="radio"]:checked')?.focus())
    return () => cancelAnimationFrame(id)
  }, [])

  return (
    <div ref={root} className="popover chat-options__pop" role="dialog" id={`${ids}-pop`} aria-labelledby={`${ids}-title`} data-testid="chat-options-popover">
      <h2 className="popover__title" id={`${ids}-title`}>
        {t('chatOptions.title')}
      </h2>
      <p className="popover__sub">{chatId ? t('chatOptions.subtitle') : t('chatOptions.subtitleNew')}</p>
      <ToolModeChoice mode={opts.toolMode} onChange={(m) => save(opts.paradigm, opts.recognizeOthers, m)} />
      <ChatModeSource chatId={chatId} save={(p, m) => save(p, opts.recognizeOthers, m)} />
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
      <ChatMcpChoice onOpenSettings={onClose} />
      <div className="popover__divider" />
      <ChatToolsButton onOpen={onClose} />
      <div className="popover__divider" />
      <ImageOptions ids={ids} chatId={chatId} />
      <p className="popover__foot">{t('chatOptions.appliesNext')}</p>
    </div>
  )
}
