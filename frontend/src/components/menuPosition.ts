import { useLayoutEffect, useState, type MutableRefObject, type RefObject } from 'react'

/**
 * Where a menu opened from a trigger button goes (position: fixed): below
 * it, right-aligned, or above it when there is no room below; kept inside
 * the window. null until measured (render it hidden meanwhile).
 */
export function useMenuPosition(
  open: boolean,
  trigger: RefObject<HTMLElement | null>,
  menu: MutableRefObject<HTMLDivElement | null>,
  guess = { height: 280, width: 220 },
) {
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null)
  useLayoutEffect(() => {
    if (!open) return
    const r = trigger.current?.getBoundingClientRect()
    if (!r) return
    const h = menu.current?.offsetHeight ?? guess.height
    const w = menu.current?.offsetWidth ?? guess.width
    const top = r.bottom + 4 + h > window.innerHeight ? Math.max(8, r.top - 4 - h) : r.bottom + 4
    setPos({ top, left: Math.max(8, Math.min(r.right - w, window.innerWidth - w - 8)) })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])
  return pos
}
