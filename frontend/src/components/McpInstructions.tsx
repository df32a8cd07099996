// A server's instructions in Settings ▸ MCP: what it said about using it, and
// the switch that adds them to the system prompt (kept across restarts).
import { useId, useState } from 'react'
import { useTranslation } from '../i18n'
import type { McpServerInfo } from '../api'
import { setMcpInstructions } from '../store/mcp'
import { Switch } from './Switch'
import { ChevronIcon } from './icons'

export function McpInstructions({ s }: { s: McpServerInfo }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const id = useId()
  if (!s.instructions) return null
  return (
    <div className="mcp-instructions" data-testid="mcp-instructions">
      <Switch
        checked={s.instructionsOn !== false}
        onChange={(on) => void setMcpInstructions(s.name, on)}
        label={t('mcpOffers.instructions.on')}
        description={t('mcpOffers.instructions.onHint')}
        testId="mcp-instructions-switch"
      />
      <button
        type="button"
        className="tool-card__toggle"
        aria-expanded={open}
        aria-controls={`${id}-text`}
        data-testid="mcp-instructions-toggle"
        onClick={() => setOpen((v) => !v)}
      >
        <ChevronIcon size={13} className="tool-card__chev" />
        {open ? t('mcpOffers.instructions.hide') : t('mcpOffers.instructions.show')}
      </button>
      {open && (
        <>
          <pre id={`${id}-text`} className="mcp-row__stderr mcp-instructions__text" data-testid="mcp-instructions-text" tabIndex={0}
            aria-label={t('mcpOffers.instructions.title')}>
            {s.instructions}
          </pre>
          {s.instructionsCut && <p className="mcp-row__note">{t('mcpOffers.instructions.cut')}</p>}
        </>
      )}
    </div>
  )
}
