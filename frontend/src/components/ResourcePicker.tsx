// "Attach from an MCP server…": the resources and resource templates of the
// chat's servers, filtered by what is typed. A resource is read and attached
// (text as a named text block, images as pictures: checked and capped like
// any attached file); a template is filled first, with the server's
// suggestions for each variable.
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from '../i18n'
import type { McpOffers, McpPart, McpResource, McpResourceTemplate } from '../api'
import { complete, loadOffers, readResource, readTemplate, useMcpOffers, type PartResult } from '../store/mcpOffers'
import { Dialog } from './Dialog'
import { OfferField } from './OfferField'
import { sizeText } from './useAttachments'

export const ServerIcon = ({ size = 16 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
    strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <rect x="3" y="4" width="18" height="7" rx="2" />
    <rect x="3" y="13" width="18" height="7" rx="2" />
    <path d="M7 7.5h.01M7 16.5h.01" />
  </svg>
)

const has = (q: string, ...s: (string | undefined)[]) => !q || s.some((x) => x?.toLowerCase().includes(q.toLowerCase()))

export function ResourcePicker({ open, chatId, onAttach, onClose }: { open: boolean; chatId: string | null; onAttach: (p: McpPart) => boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const gen = useMcpOffers((s) => s.gen)
  const [offers, setOffers] = useState<McpOffers | null>(null)
  const [query, setQuery] = useState('')
  const [tmpl, setTmpl] = useState<McpResourceTemplate | null>(null)
  const [values, setValues] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState('')
  const [error, setError] = useState('')

  useEffect(() => {
    if (!open) return
    let on = true
    void loadOffers(chatId, 'resources').then((o) => on && setOffers(o))
    return () => {
      on = false
    }
  }, [open, chatId, gen])
  useEffect(() => {
    if (open) return
    setQuery('')
    setTmpl(null)
    setError('')
    setBusy('')
  }, [open])

  const resources = useMemo(() => (offers?.resources ?? []).filter((r) => has(query, r.name, r.title, r.uri, r.server, r.description)), [offers, query])
  const templates = useMemo(() => (offers?.templates ?? []).filter((r) => has(query, r.name, r.title, r.uriTemplate, r.server, r.description)), [offers, query])

  const attach = async (server: string, read: () => Promise<PartResult>) => {
    setBusy(server)
    setError('')
    const r = await read()
    setBusy('')
    if ('error' in r) return setError(r.error)
    if (onAttach(r.part)) onClose()
  }

  const pick = (r: McpResource) => void attach(r.server, () => readResource(r.server, r.uri, r.name))
  const fill = () => {
    if (!tmpl) return
    const missing = tmpl.variables.find((v) => !values[v]?.trim())
    if (missing) return setError(t('mcpOffers.prompts.fillIn', { name: missing }))
    void attach(tmpl.server, () => readTemplate(tmpl.server, tmpl.uriTemplate, values))
  }

  const empty = offers && !offers.resources.length && !offers.templates.length
  return (
    <Dialog open={open} onClose={onClose} title={t('mcpOffers.resources.title')} description={t('mcpOffers.resources.description')}
      className="resource-picker" testId="resource-picker"
      footer={busy || tmpl ? (
        <>
          {busy && <span className="offer-pop__note resource-picker__busy">{t('mcpOffers.resources.attaching', { server: busy })}</span>}
          {tmpl && (
            <>
              <button type="button" className="btn btn--secondary" onClick={() => { setTmpl(null); setError('') }}>
                {t('mcpOffers.resources.back')}
              </button>
              <button type="button" className="btn btn--primary" disabled={!!busy} data-testid="resource-template-attach" onClick={fill}>
                {t('mcpOffers.resources.attach')}
              </button>
            </>
          )}
        </>
      ) : undefined}>
      <div className="dialog__body resource-picker__body">
      {tmpl ? (
        <form className="resource-picker__template" data-testid="resource-template-form" onSubmit={(e) => { e.preventDefault(); e.stopPropagation(); fill() }}>
          <p className="resource-picker__name">
            {tmpl.title || tmpl.name} <span className="offer-pop__server">{tmpl.server}</span>
          </p>
          <code className="resource-picker__uri">{tmpl.uriTemplate}</code>
          <p className="offer-pop__note">{tmpl.description || t('mcpOffers.resources.templateHint')}</p>
          {tmpl.variables.map((v, i) => (
            <OfferField key={v} name={v} label={v} required autoFocus={i === 0} value={values[v] ?? ''}
              onChange={(x) => setValues((s) => ({ ...s, [v]: x }))}
              suggest={(x) => complete(tmpl.server, 'resource', tmpl.uriTemplate, v, x, values)} />
          ))}
          <button type="submit" hidden />
        </form>
      ) : (
        <>
          <input className="input resource-picker__filter" data-autofocus value={query} placeholder={t('mcpOffers.resources.filter')}
            aria-label={t('mcpOffers.resources.filter')} data-testid="resource-filter" onChange={(e) => setQuery(e.target.value)} />
          {!offers && <p className="offer-pop__note">{t('mcpOffers.resources.loading')}</p>}
          {empty && <p className="offer-pop__note" data-testid="resource-none">{t('mcpOffers.resources.none')}</p>}
          {offers && !empty && !resources.length && !templates.length && <p className="offer-pop__note">{t('mcpOffers.resources.noMatch', { query })}</p>}
          <ul className="resource-picker__list" data-testid="resource-list">
            {resources.map((r) => (
              <li key={`${r.server} ${r.uri}`}>
                <button type="button" className="resource-picker__item" data-testid="resource-option" data-uri={r.uri} disabled={!!busy} onClick={() => pick(r)}>
                  <span className="resource-picker__name">
                    {r.title || r.name}
                    <span className="offer-pop__server">{r.server}</span>
                    {(r.mime || r.size) && <span className="resource-picker__meta">{[r.mime, r.size ? sizeText(r.size) : ''].filter(Boolean).join(' · ')}</span>}
                  </span>
                  <code className="resource-picker__uri">{r.uri}</code>
                  {r.description && <span className="prompt-menu__desc">{r.description}</span>}
                </button>
              </li>
            ))}
          </ul>
          {templates.length > 0 && (
            <>
              <h3 className="resource-picker__heading">{t('mcpOffers.resources.templates')}</h3>
              <ul className="resource-picker__list">
                {templates.map((r) => (
                  <li key={`${r.server} ${r.uriTemplate}`}>
                    <button type="button" className="resource-picker__item" data-testid="resource-template" data-template={r.uriTemplate}
                      onClick={() => { setTmpl(r); setValues({}); setError('') }}>
                      <span className="resource-picker__name">
                        {r.title || r.name}
                        <span className="offer-pop__server">{r.server}</span>
                      </span>
                      <code className="resource-picker__uri">{r.uriTemplate}</code>
                      {r.description && <span className="prompt-menu__desc">{r.description}</span>}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
          {offers && offers.problems.length > 0 && (
            <div className="offer-pop__problems" data-testid="offer-problems">
              <p>{t('mcpOffers.resources.problems')}</p>
              <ul>
                {offers.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
      {error && (
        <p className="offer-pop__error" role="alert" data-testid="resource-error">
          {error}
        </p>
      )}
      </div>
    </Dialog>
  )
}
