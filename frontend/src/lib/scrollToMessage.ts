// "Scroll to message id" for a virtualized message list: a message far from
// the screen is not in the DOM, so querySelector cannot find it; the list that
// is showing registers how to bring one into view (and so into the DOM).
// Loading older pages or switching versions first is revealMessage's job
// (store/history.ts); this only scrolls among the messages already loaded.

type Scroller = (messageId: string) => boolean
let current: Scroller | null = null

/** The mounted message list registers itself; the returned function unregisters. */
export function registerMessageScroller(fn: Scroller): () => void {
  current = fn
  return () => {
    if (current === fn) current = null
  }
}

/**
 * Scrolls the open chat's list so the message is on screen (mounted a frame
 * later). False when no list is showing or the message is not loaded.
 */
export function scrollToMessage(messageId: string): boolean {
  return current ? current(messageId) : false
}
