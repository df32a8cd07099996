import { describe, expect, it } from 'vitest'
import { twinLabels } from './twins'

describe('twinLabels', () => {
  it('labels only the chats whose title another chat has, by when each was started', () => {
    const at = (d: number, h: number, m: number) => new Date(2026, 10, d, h, m).getTime()
    const labels = twinLabels(
      [
        { id: 'a', title: 'What time is it?', createdAt: at(24, 14, 2) },
        { id: 'b', title: 'What time is it?', createdAt: at(23, 9, 30) },
        { id: 'c', title: 'Unique', createdAt: at(24, 14, 2) },
        { id: 'd', title: 'what time is it? ', createdAt: at(23, 9, 30) },
      ],
      'en',
    )
    expect(labels.has('c')).toBe(false)
    expect(labels.get('a')).toBe('Nov 24, 14:02')
    expect(labels.get('b')).toBe('Nov 23, 09:30')
    expect(labels.get('d')).toBe('Nov 23, 09:30 (2)')
  })
})
