import { useEffect, useRef, type CSSProperties, type KeyboardEvent, type MutableRefObject, type ReactNode, type RefObject } from 'react'

/** How long typed letters add up to one type-ahead search. */
const TYPE_AHEAD_MS = 600

const itemsOf = (root: HTMLElement | null) =>
  Array.from(root?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled]):not([aria-disabled="true"])') ?? [])

/**
 * The one keyboard menu (role="menu") the app's menus are built on: it is
 * mounted while open. On open the first item takes focus; ↑/↓ move (and
 * wrap), Home/End jump, a typed letter jumps to the next item starting with
 * it (type-ahead), Enter/Space activate the item (they are buttons), Escape
 * closes and gives focus back, Tab closes, a press outside (and not on
 * `trigger`) closes.
 */
export function KeyboardMenu({
  label,
  onClose,
  trigger,
  menuRef,
  id,
  className = 'menu',
  style,
  testId,
  children,
}: {
  label: string
  /** focusBack: give focus back to the trigger (Escape), not when focus moves on (Tab, a press outside). */
  onClose: (focusBack: boolean) => void
  /** The button that opens it: a press on it is the trigger's own toggle, not "outside". */
  trigger?: RefObject<HTMLElement | null>
  /** The menu element, for a parent that positions it. */
  menuRef?: MutableRefObject<HTMLDivElement | null>
  id?: string
  className?: string
  style?: CSSProperties
  testId?: string
  children: ReactNode
}) {
  const own = useRef<HTMLDivElement | null>(null)
  const typed = useRef({ text: '', at: 0 })
  const close = useRef(onClose)
  close.current = onClose

  const setRef = (el: HTMLDivElement | null) => {
    own.current = el
    if (menuRef) menuRef.current = el
  }

  useEffect(() => {
    const frame = requestAnimationFrame(() => itemsOf(own.current)[0]?.focus())
    const onDown = (e: MouseEvent) => {
      const target = e.target as Node
      if (own.current?.contains(target) || trigger?.current?.contains(target)) return
      close.current(false)
    }
    document.addEventListener('mousedown', onDown)
    return () => {
      cancelAnimationFrame(frame)
      document.removeEventListener('mousedown', onDown)
    }
  }, [trigger])

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = itemsOf(own.current)
    if (items.length === 0) return
    const i = items.indexOf(document.activeElement as HTMLElement)
    let next = -1
    if (e.key === 'ArrowDown') next = (i + 1) % items.length
    else if (e.key === 'ArrowUp') next = i <= 0 ? items.length - 1 : i - 1
    else if (e.key === 'Home') next = 0
    else if (e.key === 'End') next = items.length - 1
    else if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      close.current(true)
      return
    } else if (e.key === 'Tab') {
      e.preventDefault()
      close.current(true)
      return
    } else if (e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // Type-ahead: letters typed quickly add up; the search starts after the current item.
      const now = Date.now()
      const t = typed.current
      t.text = now - t.at < TYPE_AHEAD_MS ? t.text + e.key.toLowerCase() : e.key.toLowerCase()
      t.at = now
      // The same letter again ("a", "a") moves on to the next item with it, as menus do.
      const same = [...t.text].every((c) => c === t.text[0])
      const want = same ? t.text[0] : t.text
      const from = t.text.length > 1 && !same ? Math.max(i, 0) : i + 1
      for (let k = 0; k < items.length; k++) {
        const item = items[(from + k) % items.length]
        const text = (item.dataset.label ?? item.textContent ?? '').trim().toLowerCase()
        if (text.startsWith(want)) {
          next = (from + k) % items.length
          break
        }
      }
      e.stopPropagation() // a letter is not also the card's shortcut
    }
    if (next >= 0) {
      e.preventDefault()
      items[next]?.focus()
    }
  }

  return (
    <div ref={setRef} role="menu" id={id} className={className} style={style} aria-label={label} data-testid={testId} onKeyDown={onKeyDown}>
      {children}
    </div>
  )
}
