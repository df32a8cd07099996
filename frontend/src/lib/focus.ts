// Focus that a native dialog (save, open, pick a folder) or a control that
// turns disabled would otherwise drop on the page body, where no shortcut
// and no Escape reaches anything.

const dropped = () => !document.activeElement || document.activeElement === document.body

/**
 * Runs fn (which opens a native dialog) and, if focus is lost afterwards,
 * gives it back to the element that had it, or to fallback() when that one
 * is gone. A few frames at most, for the opener to be enabled again.
 */
export async function keepFocus<T>(fn: () => Promise<T>, fallback?: () => HTMLElement | null): Promise<T> {
  const opener = dropped() ? null : (document.activeElement as HTMLElement)
  try {
    return await fn()
  } finally {
    restoreFocus(opener, fallback)
  }
}

function restoreFocus(opener: HTMLElement | null, fallback?: () => HTMLElement | null, tries = 4) {
  requestAnimationFrame(() => {
    if (!dropped()) return
    const to = opener?.isConnected ? opener : (fallback?.() ?? null)
    if (!to) return
    if ((to as HTMLButtonElement).disabled && tries > 0) return restoreFocus(opener, fallback, tries - 1)
    to.focus()
  })
}
