import { describe, expect, it } from 'vitest'
import { normalizeContextUsage } from '../api'
import { compactTokens, digits, gaugeLevel } from './ContextGauge'

describe('context gauge', () => {
  it('writes token counts short and long', () => {
    expect(compactTokens(950)).toBe('950')
    expect(compactTokens(5230)).toBe('5.2k')
    expect(compactTokens(8000)).toBe('8k')
    expect(compactTokens(131072)).toBe('131k')
    expect(digits(153115)).toBe('153,115')
    expect(digits(999)).toBe('999')
  })
  it('says how full the window is, and when fitting shortens or cannot fit', () => {
    const u = (p: Partial<ReturnType<typeof normalizeContextUsage>>) => ({ ...normalizeContextUsage({ window: 8192, reserve: 1024 }), ...p })
    expect(gaugeLevel(u({ used: 1000 }))).toBe('ok')
    expect(gaugeLevel(u({ used: 7000 }))).toBe('high')
    expect(gaugeLevel(u({ used: 5000, elided: 3 }))).toBe('fit')
    expect(gaugeLevel(u({ used: 5000, dropped: 2 }))).toBe('fit')
    expect(gaugeLevel(u({ used: 9000, tooLarge: true }))).toBe('over')
  })
  it('fills what Go left out', () => {
    const n = normalizeContextUsage({ used: 5, window: 10 } as never)
    expect(n.parts).toEqual({ instructions: 0, history: 0, results: 0, attachments: 0 })
    expect(n.compaction).toBe('auto')
    expect(normalizeContextUsage({ compaction: 'ask' } as never).compaction).toBe('ask')
    expect(normalizeContextUsage({ compaction: 'bogus' } as never).compaction).toBe('auto')
  })
})
