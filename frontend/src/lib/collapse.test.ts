import { describe, expect, it } from 'vitest'
import { CODE_LIMITS, collapseText, countLines, USER_LIMITS } from './collapse'

const lines = (n: number, make = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => make(i)).join('\n')

describe('collapsing huge messages', () => {
  it('counts lines', () => {
    expect(countLines('')).toBe(1)
    expect(countLines('a')).toBe(1)
    expect(countLines('a\nb\n')).toBe(3)
  })

  it('leaves a message up to the limits whole', () => {
    expect(collapseText(lines(USER_LIMITS.maxLines), USER_LIMITS)).toBeNull()
    expect(collapseText('short', USER_LIMITS)).toBeNull()
    expect(collapseText(lines(CODE_LIMITS.maxLines), CODE_LIMITS)).toBeNull()
  })

  it('one line past the limit collapses to the first lines, and says how many there are', () => {
    const c = collapseText(lines(USER_LIMITS.maxLines + 1), USER_LIMITS)!
    expect(c.totalLines).toBe(USER_LIMITS.maxLines + 1)
    expect(c.head.split('\n')).toHaveLength(USER_LIMITS.showLines)
    expect(c.head.startsWith('line 0\nline 1\n')).toBe(true)
  })

  it('a 3,000-line paste shows a dozen lines', () => {
    const text = lines(3000, (i) => `line ${String(i).padStart(4, '0')}: ${'x'.repeat(66)}`)
    const c = collapseText(text, USER_LIMITS)!
    expect(c.totalLines).toBe(3000)
    expect(c.head.split('\n')).toHaveLength(USER_LIMITS.showLines)
    expect(c.head.length).toBeLessThan(USER_LIMITS.maxChars)
  })

  it('a few enormous lines collapse too, the head cut to a share of the character limit', () => {
    const c = collapseText('y'.repeat(200_000), USER_LIMITS)!
    expect(c.totalLines).toBe(1)
    expect(c.head.length).toBe(Math.floor(USER_LIMITS.maxChars / 3) + 1)
    expect(c.head.endsWith('…')).toBe(true)
  })
})
