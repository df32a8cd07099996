import { describe, expect, it } from 'vitest'
import { wordDiff } from './wordDiff'

const render = (a: string, b: string) =>
  wordDiff(a, b)
    .map((p) => (p.op === 'same' ? p.text : p.op === 'add' ? `[+${p.text}]` : `[-${p.text}]`))
    .join('')

describe('wordDiff', () => {
  it('marks only the words that changed', () => {
    expect(render('{"new_text": "hello world"}', '{"new_text": "hello there world"}')).toBe(
      '{"new_text": "hello [+there ]world"}',
    )
    expect(render('a b c', 'a x c')).toBe('a [-b][+x] c')
  })

  it('shows a run of changed words as one removal and one addition', () => {
    expect(render('card, with a diff for file changes.', 'card; the user edited this line.')).toBe(
      'card[-, with a diff for file changes][+; the user edited this line].',
    )
  })

  it('keeps both texts whole', () => {
    const a = '{"path":"notes.txt","old_text":"one","new_text":"two"}'
    const b = '{"path":"notes.txt","old_text":"one","new_text":"three and four"}'
    const parts = wordDiff(a, b)
    expect(parts.filter((p) => p.op !== 'add').map((p) => p.text).join('')).toBe(a)
    expect(parts.filter((p) => p.op !== 'del').map((p) => p.text).join('')).toBe(b)
  })

  it('shows an over-long middle as replaced whole instead of comparing it', () => {
    const a = Array.from({ length: 1000 }, (_, i) => `a${i}`).join(' ')
    const b = Array.from({ length: 1000 }, (_, i) => `b${i}`).join(' ')
    const parts = wordDiff(a, b)
    expect(parts.map((p) => p.op)).toEqual(['del', 'add'])
  })

  it('compares Chinese text by runs of letters', () => {
    expect(render('你好 世界', '你好 朋友')).toBe('你好 [-世界][+朋友]')
  })

  // Issue 30, item 9: before, "17 * 23 + 2^8" → "2+2*10" read "17 * 23 2+ 2^8*10".
  it('does not interleave a value that was replaced: a symbol in common stays inside the change', () => {
    expect(render('{\n  "expression": "17 * 23 + 2^8"\n}', '{\n  "expression": "2+2*10"\n}')).toBe(
      '{\n  "expression": "[-17 * 23 + 2^8][+2+2*10]"\n}',
    )
  })

  it('shows old and new whole when most of the value changed', () => {
    expect(render('17 * 23 + 2^8', '2+2*10')).toBe('[-17 * 23 + 2^8][+2+2*10]')
    expect(wordDiff('abc', 'abc')).toEqual([{ op: 'same', text: 'abc' }])
  })
})
