import { useId, useState } from 'react'
import { useTranslation } from '../i18n'

const DIFF_COLLAPSE_LINES = 24

/** The class a unified-diff line is coloured with. */
export function diffLineClass(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file'
  if (line.startsWith('+')) return 'diff-add'
  if (line.startsWith('-')) return 'diff-del'
  if (line.startsWith('@@')) return 'diff-hunk'
  return undefined
}

/**
 * A unified diff, coloured line by line (added, removed, hunk headers, file
 * names). Long diffs start collapsed to `collapseAt` lines with a toggle.
 * Shared by the tool cards' previews and the files panel's changes view.
 */
export function DiffView({
  diff,
  testId = 'call-diff',
  collapseAt = DIFF_COLLAPSE_LINES,
  className,
}: {
  diff: string
  testId?: string
  collapseAt?: number
  className?: string
}) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const id = useId()
  const lines = diff ? diff.replace(/\n$/, '').split('\n') : []
  if (lines.length === 0) return null
  const long = lines.length > collapseAt
  const shown = long && !open ? lines.slice(0, collapseAt) : lines
  return (
    <>
      <pre id={id} className={`tool-card__pre tool-card__diff ${className ?? ''}`} data-testid={testId}>
        {shown.map((line, i) => (
          <span key={i} className={diffLineClass(line)}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
      {long && (
        <button
          type="button"
          className="tool-card__toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((v) => !v)}
        >
          {open ? t('calls.collapse') : t('calls.expand', { count: lines.length })}
        </button>
      )}
    </>
  )
}
