import './TrashPanel.css'
import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../../i18n'
import type { TrashedChat } from '../../api'
import { fullDate } from '../../lib/time'
import { useNow } from '../../lib/hooks'
import { daysLeft, deleteForever, emptyTrash, loadTrash, restoreWithNotice, useTrash } from '../../store/trash'
import { ConfirmDialog } from '../Dialog'
import { TrashIcon } from '../icons'

/** Settings ▸ Trash: deleted chats with their date and days left; Restore, Delete forever, Empty Trash. */
export function TrashPanel() {
  const { t, i18n } = useTranslation()
  const { items, loaded, error, busy } = useTrash()
  const now = useNow(60_000)
  const [askDelete, setAskDelete] = useState<TrashedChat | null>(null)
  const [askEmpty, setAskEmpty] = useState(false)
  const titleId = useId()
  useEffect(() => {
    void loadTrash()
  }, [])
  const name = (c: TrashedChat) => c.title || t('chat.untitled')

  return (
    <section className="trash-panel" data-testid="trash-panel" aria-labelledby={titleId}>
      <header className="trash-panel__head">
        <div>
          <h3 id={titleId}>{t('trash.title')}</h3>
          <p className="trash-panel__desc">{t('trash.intro')}</p>
          <p className="trash-panel__desc">{t('trash.forever')}</p>
        </div>
        <button
          type="button"
          className="btn btn--danger-text"
          data-testid="trash-empty"
          disabled={items.length === 0 || busy !== ''}
          onClick={() => setAskEmpty(true)}
        >
          {busy === '*' ? <span className="spinner" aria-hidden="true" /> : <TrashIcon size={14} />}
          {t('trash.emptyTrash')}
        </button>
      </header>

      {error && (
        <p className="trash-panel__error" role="alert">
          <strong>{t('trash.errors.load')}</strong> · {error}
        </p>
      )}
      {loaded && !error && items.length === 0 && (
        <div className="trash-panel__none" data-testid="trash-none">
          <p className="trash-panel__none-title">{t('trash.empty')}</p>
          <p>{t('trash.emptyHint')}</p>
        </div>
      )}
      {items.length > 0 && (
        <ul className="trash-panel__list" aria-label={t('trash.listLabel')}>
          {items.map((c) => {
            const left = daysLeft(c, now)
            return (
              <li key={c.id} className="trash-item" data-testid="trash-item" data-chat-id={c.id}>
                <div className="trash-item__text">
                  <span className="trash-item__title">{name(c)}</span>
                  <span className="trash-item__meta">
                    <time dateTime={new Date(c.deletedAt).toISOString()}>{t('trash.deletedOn', { date: fullDate(c.deletedAt, i18n.language) })}</time>
                    <span aria-hidden="true"> · </span>
                    <span className={left <= 3 ? 'trash-item__left is-soon' : 'trash-item__left'} data-testid="trash-days-left">
                      {left === 0 ? t('trash.lastDay') : t('trash.daysLeft', { count: left })}
                    </span>
                    <span aria-hidden="true"> · </span>
                    {t('trash.messages', { count: c.messages })}
                  </span>
                </div>
                <div className="trash-item__actions">
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    data-testid="trash-restore"
                    aria-label={t('trash.restoreChat', { title: name(c) })}
                    disabled={busy !== ''}
                    onClick={() => void restoreWithNotice(c)}
                  >
                    {busy === c.id ? <span className="spinner" aria-hidden="true" /> : null}
                    {t('trash.restore')}
                  </button>
                  <button
                    type="button"
                    className="btn btn--danger-text btn--sm"
                    data-testid="trash-delete"
                    aria-label={t('trash.deleteForeverChat', { title: name(c) })}
                    disabled={busy !== ''}
                    onClick={() => setAskDelete(c)}
                  >
                    {t('trash.deleteForever')}
                  </button>
                </div>
              </li>
            )
          })}
        </ul>
      )}

      <ConfirmDialog
        open={!!askDelete}
        title={t('trash.confirmDelete.title')}
        message={t('trash.confirmDelete.message', { title: askDelete ? name(askDelete) : '' })}
        confirmLabel={t('trash.deleteForever')}
        testId="confirm-delete-forever"
        onCancel={() => setAskDelete(null)}
        onConfirm={() => {
          const c = askDelete
          setAskDelete(null)
          if (c) void deleteForever(c.id)
        }}
      />
      <ConfirmDialog
        open={askEmpty}
        title={t('trash.confirmEmpty.title')}
        message={t('trash.confirmEmpty.message', { count: items.length })}
        confirmLabel={t('trash.emptyTrash')}
        testId="confirm-empty-trash"
        onCancel={() => setAskEmpty(false)}
        onConfirm={() => {
          setAskEmpty(false)
          void emptyTrash()
        }}
      />
    </section>
  )
}
