// Huge messages: a pasted log or a long code block is shown by its first lines
// with "Show all", so opening the chat renders (and lays out) a few dozen
// lines, not thousands. Pure functions; the components decide what to show.

export type Collapse = { head: string; totalLines: number }

/** Limits for a user message's bubble. */
export const USER_LIMITS = { maxLines: 30, showLines: 12, maxChars: 6000 }
/** Limits for a code block in an answer. */
export const CODE_LIMITS = { maxLines: 60, showLines: 25, maxChars: 12000 }

/** Counts lines without splitting the whole text. */
export function countLines(text: string): number {
  let n = 1
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}

/**
 * The part of `text` to show collapsed, or null when it is short enough to
 * show whole (at most maxLines lines and maxChars characters). The head is the
 * first showLines lines, cut to a share of maxChars if those are very long.
 */
export function collapseText(text: string, limits: { maxLines: number; showLines: number; maxChars: number }): Collapse | null {
  const totalLines = countLines(text)
  if (totalLines <= limits.maxLines && text.length <= limits.maxChars) return null
  let end = 0
  for (let i = 0; i < limits.showLines; i++) {
    const nl = text.indexOf('\n', end)
    if (nl < 0) {
      end = text.length
      break
    }
    end = nl + 1
  }
  let head = text.slice(0, end).replace(/\n$/, '')
  const cap = Math.floor(limits.maxChars / 3)
  if (head.length > cap) head = head.slice(0, cap) + '…'
  return { head, totalLines }
}
