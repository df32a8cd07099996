import { useEffect, type RefObject } from 'react'

/** Closes a popover on a click outside `wrap` or on Escape (focus goes back to `button`). */
export function useDismiss(open: boolean, wrap: RefObject<HTMLElement | null>, close: () => void, button?: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => {
      if (!wrap.current?.contains(e.target as Node)) close()
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !wrap.current?.contains(document.activeElement)) return
      e.preventDefault()
      e.stopPropagation()
      close()
      button?.current?.focus()
    }
    document.addEventListener('mousedown', onDown)
    document.addEventListener('keydown', onKey, true)
    return () => {
      document.removeEventListener('mousedown', onDown)
      document.removeEventListener('keydown', onKey, true)
    }
  }, [open, wrap, close, button])
}
