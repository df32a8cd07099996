import { useEffect, useRef, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import type { SearchHit } from '../api'
import { clearSearch, moveSearchActive, openHit, setSearchQuery, useHistory } from '../store/history'
import { CloseIcon, SearchIcon } from './icons'
import '../styles/history.css'

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/**
 * The sidebar search: a combobox whose results replace the chat list while the
 * query is not blank. Ctrl+Shift+F (⌘⇧F) focuses it; ↑↓ move through the
 * results, Enter opens one, Esc clears.
 */
export function SidebarSearch({ listId }: { listId: string }) {
  const { t } = useTranslation()
  const query = useHistory((s) => s.query)
  const results = useHistory((s) => s.results)
  const active = useHistory((s) => s.searchActive)
  const ref = useRef<HTMLInputElement>(null)

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.defaultPrevented) return
      const mod = isMac() ? e.metaKey : e.ctrlKey
      if (mod && e.shiftKey && !e.altKey && (e.key.toLowerCase() === 'f' || e.code === 'KeyF')) {
        if (document.querySelector('[role="dialog"][aria-modal="true"], [role="alertdialog"]')) return
        e.preventDefault()
        ref.current?.focus()
        ref.current?.select()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const open = (hit: SearchHit | undefined) => {
    if (hit) void openHit(hit)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = results?.length ?? 0
    if (e.key === 'Escape') {
      if (query) {
        e.preventDefault()
        e.stopPropagation()
        clearSearch()
      } else ref.current?.blur()
    } else if (e.key === 'ArrowDown' && n > 0) {
      e.preventDefault()
      moveSearchActive(1)
    } else if (e.key === 'ArrowUp' && n > 0) {
      e.preventDefault()
      moveSearchActive(-1)
    } else if (e.key === 'Enter') {
      e.preventDefault()
      open(results?.[active])
    }
  }

  const showing = query.trim() !== '' && !!results && results.length > 0
  return (
    <div className="sidebar-search" role="search">
      <SearchIcon size={15} className="sidebar-search__icon" />
      <input
        ref={ref}
        type="text"
        className="sidebar-search__input"
        data-testid="search"
        role="combobox"
        aria-expanded={showing}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showing ? `${listId}-${active}` : undefined}
        aria-label={t('history.search.label')}
        aria-keyshortcuts={isMac() ? 'Meta+Shift+F' : 'Control+Shift+F'}
        placeholder={t('history.search.placeholder')}
        title={`${t('history.search.label')} (${isMac() ? '⌘⇧F' : 'Ctrl+Shift+F'})`}
        value={query}
        spellCheck={false}
        onChange={(e) => setSearchQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {query ? (
        <button
          type="button"
          className="icon-btn icon-btn--sm sidebar-search__clear"
          data-testid="search-clear"
          aria-label={t('history.search.clear')}
          onClick={() => {
            clearSearch()
            ref.current?.focus()
          }}
        >
          <CloseIcon size={13} />
        </button>
      ) : (
        <kbd className="kbd sidebar-search__kbd" aria-hidden="true">
          {isMac() ? '⌘⇧F' : 'Ctrl⇧F'}
        </kbd>
      )}
    </div>
  )
}
