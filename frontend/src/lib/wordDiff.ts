/** One run of a word-level difference: kept, added or removed text. */
export type WordPart = { op: 'same' | 'add' | 'del'; text: string }

// Words, runs of spaces and single punctuation marks, so a JSON value that
// changed in one word highlights that word, not the whole line.
const TOKEN = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu

/** Beyond this many cells the middle is shown as one removed and one added run (a cap on work). */
const MAX_CELLS = 250_000

/**
 * The word-level difference from a to b: common start and end kept, the
 * middle compared by longest common subsequence (capped; past the cap the
 * middle is shown as replaced whole).
 */
export function wordDiff(a: string, b: string): WordPart[] {
  const x = a.match(TOKEN) ?? []
  const y = b.match(TOKEN) ?? []
  let start = 0
  while (start < x.length && start < y.length && x[start] === y[start]) start++
  let endX = x.length
  let endY = y.length
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX--
    endY--
  }
  const parts: WordPart[] = []
  const push = (op: WordPart['op'], text: string) => {
    if (!text) return
    const last = parts[parts.length - 1]
    if (last && last.op === op) last.text += text
    else parts.push({ op, text })
  }
  push('same', x.slice(0, start).join(''))
  const mx = x.slice(start, endX)
  const my = y.slice(start, endY)
  if ((mx.length + 1) * (my.length + 1) > MAX_CELLS) {
    push('del', mx.join(''))
    push('add', my.join(''))
  } else {
    // lcs[i][j]: length of the longest common subsequence of mx[i:] and my[j:].
    const w = my.length + 1
    const lcs = new Uint32Array((mx.length + 1) * w)
    for (let i = mx.length - 1; i >= 0; i--) {
      for (let j = my.length - 1; j >= 0; j--) {
        lcs[i * w + j] = mx[i] === my[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1])
      }
    }
    let i = 0
    let j = 0
    while (i < mx.length && j < my.length) {
      if (mx[i] === my[j]) {
        push('same', mx[i])
        i++
        j++
      } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
        push('del', mx[i++])
      } else {
        push('add', my[j++])
      }
    }
    while (i < mx.length) push('del', mx[i++])
    while (j < my.length) push('add', my[j++])
  }
  push('same', x.slice(endX).join(''))
  const out = regroup(parts)
  // Most of it changed: the old value and the new one, each whole.
  const kept = out.reduce((n, p) => n + (p.op === 'same' ? solid(p.text) : 0), 0)
  if (out.length > 1 && kept < MOSTLY_CHANGED * Math.max(solid(a), solid(b))) return [
    ...(a ? [{ op: 'del' as const, text: a }] : []),
    ...(b ? [{ op: 'add' as const, text: b }] : []),
  ]
  return out
}

/** Below this share of the text kept, a difference is shown as old and new whole. */
const MOSTLY_CHANGED = 0.15
const solid = (s: string) => s.replace(/\s+/g, '').length

/**
 * Reads as a person would: a lone space kept between two changes belongs to
 * the change, and each run of changes shows what was removed, then what was
 * added ("[-with a diff][+the user]" rather than word by word).
 */
function regroup(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = []
  let del = ''
  let add = ''
  const flush = () => {
    if (del) out.push({ op: 'del', text: del })
    if (add) out.push({ op: 'add', text: add })
    del = add = ''
  }
  parts.forEach((p, i) => {
    // A space, or a symbol or two ("+", "2") that happens to be common, kept
    // between two changes belongs to the change: "17 * 23 + 2^8" → "2+2*10"
    // reads as one replacement, not as letters interleaved.
    const between = i > 0 && i < parts.length - 1 && p.op === 'same' && !p.text.includes('\n') && p.text.replace(/\s+/g, '').length <= 2
    if (p.op === 'del' || between) del += p.text
    if (p.op === 'add' || between) add += p.text
    if (p.op === 'same' && !between) {
      flush()
      out.push(p)
    }
  })
  flush()
  return out
}
