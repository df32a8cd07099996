import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from '../i18n'
import { previewCall } from '../store/requests'
import { parseArgs } from '../lib/calls'
import { wordDiff } from '../lib/wordDiff'
import './EditPreview.css'

/**
 * Proposed vs edited arguments as one text with the changed words marked
 * (removed struck through, added highlighted), wrapped so nothing that
 * differs is cut off at the right edge.
 */
export function ArgsDiff({ before, after, label, testId = 'call-args-diff' }: { before: string; after: string; label: string; testId?: string }) {
  const { t } = useTranslation()
  const parts = useMemo(() => wordDiff(before, after), [before, after])
  return (
    <div className="codebox">
      <div className="codebox__label">
        <span>{label}</span>
        <span className="args-diff__legend" aria-hidden="true">
          <del>{t('calls.diffRemoved')}</del> <ins>{t('calls.diffAdded')}</ins>
        </span>
      </div>
      <pre className="tool-card__pre tool-card__pre--wrap args-diff" data-testid={testId}>
        {parts.map((p, i) =>
          p.op === 'same' ? (
            <span key={i}>{p.text}</span>
          ) : p.op === 'add' ? (
            <ins key={i} className="args-diff__add">
              {p.text}
            </ins>
          ) : (
            <del key={i} className="args-diff__del">
              {p.text}
            </del>
          ),
        )}
      </pre>
    </div>
  )
}

/** How long typing pauses before the diff is recomputed. */
const PREVIEW_DELAY_MS = 250

export type EditPreview = { preview: unknown } | { error: string } | null

/**
 * While a card is being edited: what the edited call would change, computed
 * by the backend through the same preview the card got (PreviewCall). Null
 * while the text is unchanged or not yet previewed; only the latest answer
 * counts.
 */
export function useEditPreview(callId: string, text: string | null, initial: string): EditPreview {
  const [state, setState] = useState<EditPreview>(null)
  useEffect(() => {
    if (text === null || text === initial) {
      setState(null)
      return
    }
    const parsed = parseArgs(text)
    if (!parsed.ok) return // the form says what is wrong; keep the last preview
    let live = true
    const timer = window.setTimeout(() => {
      previewCall(callId, parsed.value).then(
        (preview) => live && setState({ preview }),
        (err: unknown) => live && setState({ error: err instanceof Error ? err.message : String(err) }),
      )
    }, PREVIEW_DELAY_MS)
    return () => {
      live = false
      window.clearTimeout(timer)
    }
  }, [callId, text, initial])
  return state
}
