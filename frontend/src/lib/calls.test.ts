import { describe, expect, it } from 'vitest'
import { byteToIndex, callSummary, formatDuration, parseArgs, schemaParams } from './calls'

describe('call formatting', () => {
  it('summarises arguments in one line', () => {
    expect(callSummary('calculate', { expression: '17 * 23' })).toBe('17 * 23')
    expect(callSummary('read_file', { path: 'notes.md', limit: 10 })).toBe('notes.md')
    expect(callSummary('write_file', { content: '# Notes\n…', path: 'notes.md' })).toBe('notes.md')
    expect(callSummary('move_path', { source: 'a.md', destination: 'b/a.md' })).toBe('a.md → b/a.md')
    expect(callSummary('x', { note: 'hello' })).toBe('hello')
    expect(callSummary('x', { a: 1, b: true })).toBe('a=1, b=true')
    expect(callSummary('x', {})).toBe('')
    expect(callSummary('x', { text: 'a'.repeat(200) }, 20)).toHaveLength(20)
  })

  it('formats durations', () => {
    expect(formatDuration(12)).toBe('12 ms')
    expect(formatDuration(1450)).toBe('1.4 s')
    expect(formatDuration(125_000)).toBe('2 min 5 s')
  })

  it('parses edited arguments: objects only', () => {
    expect(parseArgs('{"a":1}')).toEqual({ ok: true, value: { a: 1 } })
    expect(parseArgs('')).toEqual({ ok: true, value: {} })
    expect(parseArgs('[1]')).toEqual({ ok: false, error: 'object' })
    expect(parseArgs('{a:1}').ok).toBe(false)
  })

  it('maps Go byte offsets to string indexes (multi-byte text)', () => {
    const text = 'é「始」x😀y' // bytes: é 2, 「 3, 始 3, 」 3, x 1, 😀 4, y 1
    const idx = byteToIndex(text)
    expect([0, 2, 5, 8, 11, 12, 16, 17].map(idx)).toEqual([0, 1, 2, 3, 4, 5, 7, 8])
    expect(text.slice(idx(12), idx(17))).toBe('😀y')
    expect(byteToIndex('plain ascii')(6)).toBe(6)
  })

  it('reads a JSON Schema into parameter rows', () => {
    const rows = schemaParams({
      type: 'object',
      properties: { path: { type: 'string', description: 'File' }, n: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['path'],
    })
    expect(rows.map((r) => [r.name, r.type, r.required])).toEqual([
      ['path', 'string', true],
      ['n', 'integer', false],
      ['tags', 'array<string>', false],
    ])
    expect(rows[1].description).toBe('(≥ 1)')
  })
})
