import { describe, expect, it } from 'vitest'
import { splitStable } from './streamSplit'

describe('splitting a streaming answer into finished blocks and the tail', () => {
  it('cuts after the last blank line', () => {
    expect(splitStable('# Title\n\nFirst para.\n\nSecond, still gro')).toEqual(['# Title\n\nFirst para.\n\n', 'Second, still gro'])
  })
  it('no blank line yet: all tail', () => {
    expect(splitStable('Hello wor')).toEqual(['', 'Hello wor'])
  })
  it('never cuts inside an open fence', () => {
    const text = 'Intro.\n\n```js\nconst a = 1\n\nconst b = 2\n'
    expect(splitStable(text)).toEqual(['Intro.\n\n', '```js\nconst a = 1\n\nconst b = 2\n'])
  })
  it('cuts after a closed fence', () => {
    const text = 'Intro.\n\n```\ncode\n\nmore\n```\n\nAfter'
    expect(splitStable(text)).toEqual(['Intro.\n\n```\ncode\n\nmore\n```\n\n', 'After'])
  })
  it('a ~~~ fence is not closed by ```', () => {
    const text = '~~~\na\n```\n\nb'
    expect(splitStable(text)).toEqual(['', text])
  })
  it('the two parts always make the whole', () => {
    const text = 'a\n\n```\nx\n```\n\n- one\n\n- two\n\n~~~\n\n'
    for (let i = 0; i <= text.length; i++) {
      const [s, t] = splitStable(text.slice(0, i))
      expect(s + t).toBe(text.slice(0, i))
    }
  })
})
