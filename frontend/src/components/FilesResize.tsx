// The files panel's width: a drag handle (or arrow keys), remembered across launches.
import { type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react'
import { useTranslation } from '../i18n'

const WIDTH_KEY = 'airlock.filesWidth'
const MIN_W = 280
const MAX_W = 760
const DEFAULT_W = 380

export function readWidth(): number {
  try {
    const n = Number(localStorage.getItem(WIDTH_KEY))
    return Number.isFinite(n) && n >= MIN_W && n <= MAX_W ? n : DEFAULT_W
  } catch {
    return DEFAULT_W
  }
}

/** Drag (or arrow keys) to resize the panel; the width is remembered. */
export function ResizeHandle({ width, onWidth }: { width: number; onWidth: (w: number) => void }) {
  const { t } = useTranslation()
  const save = (w: number) => {
    const clamped = Math.round(Math.min(MAX_W, Math.max(MIN_W, w)))
    onWidth(clamped)
    try {
      localStorage.setItem(WIDTH_KEY, String(clamped))
    } catch {
      // not remembered
    }
  }
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    e.preventDefault()
    const startX = e.clientX
    const startW = width
    const move = (ev: PointerEvent) => save(startW + (startX - ev.clientX))
    const up = () => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
      document.documentElement.classList.remove('is-resizing')
    }
    document.documentElement.classList.add('is-resizing')
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
  }
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 64 : 16
    if (e.key === 'ArrowLeft') save(width + step)
    else if (e.key === 'ArrowRight') save(width - step)
    else if (e.key === 'Home') save(MAX_W)
    else if (e.key === 'End') save(MIN_W)
    else return
    e.preventDefault()
  }
  return (
    <div
      className="files__resize"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('files.resize')}
      aria-valuemin={MIN_W}
      aria-valuemax={MAX_W}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKey}
      data-testid="files-resize"
    />
  )
}
