import { describe, expect, it, vi } from 'vitest'
import { grammarFor, lowlight, requestLanguage, whenLanguage } from './highlight'

describe('on-demand highlight languages', () => {
  it('maps fence names and aliases to a grammar, case-insensitively', () => {
    expect(grammarFor('javascript')).toBe('javascript')
    expect(grammarFor('JS')).toBe('javascript')
    expect(grammarFor('tsx')).toBe('typescript')
    expect(grammarFor('sh')).toBe('bash')
    expect(grammarFor('html')).toBe('xml')
    expect(grammarFor('c++')).toBe('cpp')
    expect(grammarFor('brainfuck')).toBeNull()
    expect(grammarFor('')).toBeNull()
  })

  it('nothing is registered until asked; a grammar loads once and then its aliases work at once', async () => {
    expect(lowlight.registered('go')).toBe(false)
    const go = vi.fn(() => import('highlight.js/lib/languages/go'))
    expect(requestLanguage('golang', { go })).toBe(false)
    expect(requestLanguage('go', { go })).toBe(false) // already loading: not a second import
    expect(go).toHaveBeenCalledTimes(1)
    expect(await whenLanguage('go')).toBe(true)
    expect(requestLanguage('golang', { go })).toBe(true)
    expect(go).toHaveBeenCalledTimes(1)
    expect(lowlight.highlight('golang', 'func main() {}').children.length).toBeGreaterThan(0)
  })

  it('an unknown language is never loaded', async () => {
    expect(requestLanguage('klingon')).toBe(false)
    expect(await whenLanguage('klingon')).toBe(false)
  })

  it('a grammar that fails to load stays plain and can be retried', async () => {
    const broken = vi.fn(() => Promise.reject(new Error('chunk failed')))
    expect(requestLanguage('lua', { lua: broken })).toBe(false)
    await vi.waitFor(() => expect(broken).toHaveBeenCalled())
    await new Promise((r) => setTimeout(r, 0))
    expect(lowlight.registered('lua')).toBe(false)
    const ok = vi.fn(() => import('highlight.js/lib/languages/lua'))
    requestLanguage('lua', { lua: ok })
    expect(ok).toHaveBeenCalledTimes(1)
  })
})
