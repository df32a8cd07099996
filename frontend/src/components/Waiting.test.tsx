import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import '../i18n'
import { Waiting } from './Waiting'

afterEach(() => vi.useRealTimers())

describe('Waiting', () => {
  it('says how long an answer that has not started has been waiting (a hanging server)', () => {
    vi.useFakeTimers()
    const start = Date.now()
    render(<Waiting since={start} />)
    expect(screen.queryByTestId('waiting-for')).toBeNull() // a moment: the dots are enough
    act(() => {
      vi.advanceTimersByTime(3000)
    })
    expect(screen.getByTestId('waiting-for')).toHaveTextContent('Waiting for the model · 3 s')
    act(() => {
      vi.advanceTimersByTime(62_000)
    })
    expect(screen.getByTestId('waiting-for')).toHaveTextContent('1 min 5 s')
  })
})
