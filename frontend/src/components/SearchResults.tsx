import { forwardRef, useEffect, useId, useRef } from 'react'
import { twinLabels } from '../lib/twins'
import { useStore } from '../store'
import { useTranslation } from '../i18n'
import type { SearchHit } from '../api'
import { openHit, setSearchActive, snippetParts, useHistory } from '../store/history'
import { BotIcon, SearchIcon, UserIcon, WrenchIcon } from './icons'

// The sidebar search's results: their own chunk (the box, SidebarSearch, is in the start bundle).

/** A search snippet: plain text, the matched words in <mark> (never HTML). */
export function Snippet({ text }: { text: string }) {
  return (
    <>
      {snippetParts(text).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </>
  )
}

/** The results that replace the chat list while searching. */
export const SearchResults = forwardRef<HTMLDivElement, { listId: string }>(function SearchResults({ listId }, ref) {
  const { t } = useTranslation()
  const query = useHistory((s) => s.query)
  const results = useHistory((s) => s.results)
  const searching = useHistory((s) => s.searching)
  const error = useHistory((s) => s.searchError)
  const active = useHistory((s) => s.searchActive)
  const headingId = useId()

  if (!results) {
    return (
      <div className="search-state" data-testid="search-searching" role="status" ref={ref}>
        <span className="spinner" aria-hidden="true" />
        {t('history.search.searching')}
      </div>
    )
  }
  if (error) {
    return (
      <div className="search-state search-state--error" role="alert" data-testid="search-error" ref={ref}>
        {t('history.search.failed', { message: error })}
      </div>
    )
  }
  if (results.length === 0) {
    return (
      <div className="search-state" role="status" data-testid="search-empty" ref={ref}>
        <SearchIcon size={18} />
        <p>{t('history.search.none', { query: query.trim() })}</p>
      </div>
    )
  }
  return (
    <section className="search-results" aria-labelledby={headingId} aria-busy={searching} ref={ref}>
      <h3 className="chat-group__title" id={headingId}>
        {t('history.search.results')}
      </h3>
      <ul id={listId} role="listbox" aria-labelledby={headingId}>
        {results.map((hit, i) => (
          <SearchResult key={`${hit.messageId}:${hit.callId ?? ''}:${i}`} hit={hit} id={`${listId}-${i}`} active={i === active} index={i} />
        ))}
      </ul>
      <p className="search-results__hint">{t('history.search.hint')}</p>
    </section>
  )
})

function SearchResult({ hit, id, active, index }: { hit: SearchHit; id: string; active: boolean; index: number }) {
  const { t, i18n } = useTranslation()
  // A chat whose title another chat shares: when it was started, as the sidebar shows it.
  const twin = useStore((s) => twinLabels(s.chats, i18n.language, t('chat.untitled')).get(hit.chatId))
  const ref = useRef<HTMLLIElement>(null)
  useEffect(() => {
    if (active) ref.current?.scrollIntoView?.({ block: 'nearest' })
  }, [active])
  const role = hit.role === 'user' || hit.role === 'assistant' || hit.role === 'system' ? hit.role : 'assistant'
  return (
    <li
      ref={ref}
      id={id}
      role="option"
      aria-selected={active}
      className={`search-result ${active ? 'is-active' : ''}`}
      data-testid="search-result"
      data-chat-id={hit.chatId}
      data-message-id={hit.messageId}
      data-kind={hit.kind}
      onMouseDown={(e) => e.preventDefault() /* keep focus in the box */}
      onMouseEnter={() => setSearchActive(index)}
      onClick={() => void openHit(hit)}
    >
      <span className="search-result__head">
        <span className="search-result__role" title={t(`history.search.roles.${role}`)} aria-label={t(`history.search.roles.${role}`)}>
          {hit.kind === 'tool_call' || hit.tools ? <WrenchIcon size={13} /> : role === 'user' ? <UserIcon size={13} /> : <BotIcon size={13} />}
        </span>
        <span className="search-result__chat">{hit.chatTitle || t('chat.untitled')}</span>
        {twin && (
          <span className="search-result__twin" data-testid="search-result-twin">
            {twin}
          </span>
        )}
        {hit.kind === 'tool_call' && (
          <span className="badge search-result__badge" data-testid="search-result-tool">
            {t('history.search.toolCall')}
          </span>
        )}
        {hit.tools && (
          <span className="badge search-result__badge" data-testid="search-result-results" title={hit.tools}>
            {t('finish.searchResultsOf', { tools: hit.tools })}
          </span>
        )}
      </span>
      <span className="search-result__snippet">
        <Snippet text={hit.snippet} />
      </span>
      {hit.attachments?.length ? (
        <span className="search-result__files" data-testid="search-result-files">
          📎 {hit.attachments.join(', ')}
        </span>
      ) : null}
    </li>
  )
}
