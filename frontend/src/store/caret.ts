// The resting caret: GTK's text fields stop blinking after the desktop's
// blink timeout (10 s by default) without input; WebKitGTK's caret blinks for
// ever, and each blink repaints (CPU all day while the composer has focus).
// After the timeout with the composer focused and no key or pointer input, the
// backend makes the blink time very long; WebKit keeps the caret in whatever
// phase it was in, so the composer is focused again a moment later, which
// restarts the caret shown. Any input gives the blinking back.
import { api } from '../api'

/** The gap between blur and focus: WebKit must see the caret stop before it starts again. */
const REFOCUS_MS = 100

const isComposer = (el: Element | null): el is HTMLTextAreaElement =>
  el instanceof HTMLTextAreaElement && el.dataset.testid === 'composer'

/** Starts watching input; returns the function that stops it. Does nothing where the caret never needs to rest. */
export function subscribeCaretRest(): () => void {
  let stopped = false
  let restAfter = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let resting = false
  let refocusing: HTMLTextAreaElement | null = null

  const rest = () => {
    timer = undefined
    const el = document.activeElement
    if (stopped || !isComposer(el) || !document.hasFocus()) return
    resting = true
    refocusing = el
    void api.setCaretResting(true).catch(() => {}).then(() => {
      // Without transitions: the composer's focus ring animating out and back
      // cost ~150 ms of CPU in the web process, more than a minute of blinking.
      const root = document.documentElement
      root.classList.add('no-transitions')
      el.blur()
      setTimeout(() => {
        if (refocusing === el && document.activeElement === document.body) el.focus({ preventScroll: true })
        refocusing = null
        requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove('no-transitions')))
      }, REFOCUS_MS)
    })
  }

  const wake = (e: Event) => {
    if (refocusing) {
      if (e.type === 'focusin') return // our own refocus
      // A key pressed in the gap goes to the composer (focus moved in keydown takes the character).
      if (e.type === 'keydown' && document.activeElement === document.body) refocusing.focus({ preventScroll: true })
      refocusing = null
    }
    if (resting) {
      resting = false
      void api.setCaretResting(false).catch(() => {})
    }
    clearTimeout(timer)
    timer = setTimeout(rest, restAfter)
  }

  const events = ['keydown', 'pointerdown', 'focusin'] as const
  void api.caretRestAfter().then(
    (ms) => {
      if (stopped || !(ms > 0)) return
      restAfter = ms
      for (const type of events) document.addEventListener(type, wake, { capture: true, passive: true })
      timer = setTimeout(rest, restAfter)
    },
    () => {}, // no backend method (the browser preview): the caret blinks as the engine likes
  )
  return () => {
    stopped = true
    clearTimeout(timer)
    for (const type of events) document.removeEventListener(type, wake, { capture: true })
    if (resting) void api.setCaretResting(false).catch(() => {})
  }
}
