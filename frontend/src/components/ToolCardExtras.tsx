// Pieces of a tool card for MCP tools and pictures: the note that an MCP
// server acts outside Airlock, its badge, and the pictures a tool returned.
import { useState } from 'react'
import { useTranslation } from '../i18n'
import type { ToolImage } from '../api'
import { useStore } from '../store'
import { imageSrc, mcpServerOf } from '../lib/mcp'
import { Dialog } from './Dialog'
import { AlertIcon, ServerIcon } from './icons'
import '../styles/mcp.css'

/** The MCP server a tool belongs to (null for Airlock's own tools). */
export function useMcpServer(toolName: string): string | null {
  return useStore((s) => mcpServerOf(toolName, s.tools))
}

export function McpBadge({ server }: { server: string }) {
  const { t } = useTranslation()
  return (
    <span className="mcp-tool-badge" data-testid="mcp-badge" title={t('calls.mcpBadgeTitle', { server })}>
      <ServerIcon size={11} />
      {server}
    </span>
  )
}

/** Said on every MCP card: the server acts on its own, not in the chat's workspace. */
export function McpNote({ server, testId = 'mcp-note' }: { server: string; testId?: string }) {
  const { t } = useTranslation()
  return (
    <div className="tool-card__note tool-card__note--mcp" role="note" data-testid={testId}>
      <ServerIcon size={14} />
      <span>{t('calls.mcpNote', { server })}</span>
    </div>
  )
}

/** Said when the arguments name a key twice or two keys differ only by case: no exact-value rule runs such a call. */
export function AmbiguousKeysNote({ keys }: { keys: string[] | undefined }) {
  const { t } = useTranslation()
  if (!keys || keys.length === 0) return null
  return (
    <div className="tool-card__guard" role="note" data-testid="ambiguous-keys-note">
      <AlertIcon size={15} />
      <span>{t('calls.ambiguousKeys', { keys: keys.join(', ') })}</span>
    </div>
  )
}

/** Thumbnails of the pictures a tool returned; a click opens one larger. Only raster types are shown. */
export function CallImages({ images, toolName }: { images: ToolImage[] | undefined; toolName: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<number | null>(null)
  if (!images || images.length === 0) return null
  const items = images.map((img, i) => ({ img, n: i + 1, src: imageSrc(img) }))
  const current = open !== null ? items[open] : null
  return (
    <div className="call-images" data-testid="call-images">
      <p className="codebox__label">{t('calls.images', { count: images.length })}</p>
      <div className="call-images__grid">
        {items.map(({ img, n, src }, i) =>
          src ? (
            <button
              key={i}
              type="button"
              className="call-images__thumb"
              aria-label={t('calls.openImage', { n })}
              title={t('calls.openImage', { n })}
              onClick={() => setOpen(i)}
            >
              <img src={src} alt={t('calls.imageAlt', { n, name: toolName })} data-testid="call-image" loading="lazy" />
            </button>
          ) : (
            <p key={i} className="call-images__skipped" data-testid="call-image-skipped">
              <AlertIcon size={13} />
              <span>{t('calls.imageNotShown', { mime: img.mime || '?' })}</span>
            </p>
          ),
        )}
      </div>
      <Dialog
        open={!!current?.src}
        onClose={() => setOpen(null)}
        title={current ? t('calls.imageTitle', { n: current.n, name: toolName }) : ''}
        className="dialog--image"
        testId="call-image-dialog"
      >
        {current?.src && (
          <div className="call-images__large">
            <img src={current.src} alt={t('calls.imageAlt', { n: current.n, name: toolName })} />
          </div>
        )}
      </Dialog>
    </div>
  )
}
