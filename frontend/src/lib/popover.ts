// A header popover's behaviour: a click outside closes it, Escape closes it
// and gives the focus back to its button, and it closes when the chat changes.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'

export function usePopover(chatId: string | null) {
  const [open, setOpen] = useState(false)
  const wrap = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const ids = useId()

  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open])

  useEffect(() => setOpen(false), [chatId])

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
      button.current?.focus()
    }
  }
  return { open, setOpen, wrap, button, ids, onKey }
}
