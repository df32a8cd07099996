import { useEffect, useId, useRef, useState, type RefObject } from 'react'

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

/** A popover's open state, its wrapper and button (focus returns there), closed by useDismiss and when `resetKey` changes. */
export function usePopover(resetKey?: unknown) {
  const [open, setOpen] = useState(false)
  const wrap = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const ids = useId()
  useDismiss(open, wrap, () => setOpen(false), button)
  useEffect(() => setOpen(false), [resetKey])
  return { open, setOpen, wrap, button, ids }
}
