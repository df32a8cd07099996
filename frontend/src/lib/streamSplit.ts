// While an answer streams, only its last block changes. Splitting the text
// at the last blank line outside a code fence lets the finished blocks keep
// one memoized render while only the tail is parsed again per delta — the
// whole message is not re-parsed (and re-highlighted) on every delta.

/**
 * [stable, tail]: stable ends at a blank line outside any fence (and is
 * rendered once per new block), tail is the rest. A fence still open keeps
 * everything from its opening line in the tail.
 */
export function splitStable(text: string): [string, string] {
  let fence: string | null = null
  let cut = 0
  let pos = 0
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos)
    const end = nl < 0 ? text.length : nl
    const line = text.slice(pos, end)
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (m) {
      if (fence === null) fence = m[1]
      else if (m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = null
    } else if (fence === null && line.trim() === '' && nl >= 0) {
      cut = nl + 1
    }
    if (nl < 0) break
    pos = nl + 1
  }
  return [text.slice(0, cut), text.slice(cut)]
}
