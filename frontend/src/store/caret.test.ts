import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { subscribeCaretRest } from './caret'

type Backend = Record<string, ReturnType<typeof vi.fn>>
let backend: Backend
let composer: HTMLTextAreaElement
let other: HTMLInputElement

function install(restAfter: number) {
  backend = {
    CaretRestAfter: vi.fn(async () => restAfter),
    SetCaretResting: vi.fn(async () => undefined),
  }
  window.go = { main: { App: backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

const resting = () => backend.SetCaretResting.mock.calls.map((c) => c[0])
const flush = () => vi.advanceTimersByTimeAsync(0)

describe('resting caret', () => {
  let off = () => {}
  /** A backend whose caret rests after `restAfter` ms, subscribed and answered. */
  const start = async (restAfter: number) => {
    install(restAfter)
    off = subscribeCaretRest()
    await flush()
  }
  beforeEach(() => {
    vi.useFakeTimers()
    vi.spyOn(document, 'hasFocus').mockReturnValue(true)
    composer = document.createElement('textarea')
    composer.dataset.testid = 'composer'
    other = document.createElement('input')
    document.body.append(composer, other)
    composer.focus()
  })
  afterEach(() => {
    off()
    document.body.replaceChildren()
    delete window.go
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('rests after the timeout with the composer focused, and gives the composer its focus back', async () => {
    await start(10_000)
    await vi.advanceTimersByTimeAsync(9_999)
    expect(resting()).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(resting()).toEqual([true])
    expect(document.activeElement).toBe(document.body) // the caret stops…
    expect(document.documentElement.classList.contains('no-transitions')).toBe(true) // (no focus ring animating out and back)
    await vi.advanceTimersByTimeAsync(100)
    expect(document.activeElement).toBe(composer) // …and starts again, shown
    expect(resting()).toEqual([true]) // our own refocus does not wake it
  })

  it('input wakes it and restarts the wait', async () => {
    await start(10_000)
    await vi.advanceTimersByTimeAsync(10_100)
    composer.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }))
    expect(resting()).toEqual([true, false])
    await vi.advanceTimersByTimeAsync(5_000)
    composer.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))
    await vi.advanceTimersByTimeAsync(9_000)
    expect(resting()).toEqual([true, false])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(resting()).toEqual([true, false, true])
  })

  it('a key pressed while the composer is between blur and focus goes to the composer', async () => {
    await start(10_000)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(document.activeElement).toBe(document.body)
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'h', bubbles: true }))
    expect(document.activeElement).toBe(composer)
    expect(resting()).toEqual([true, false])
  })

  it('does not rest while another field has focus or the window is in the background', async () => {
    await start(10_000)
    other.focus()
    await vi.advanceTimersByTimeAsync(20_000)
    composer.focus()
    vi.mocked(document.hasFocus).mockReturnValue(false)
    await vi.advanceTimersByTimeAsync(20_000)
    expect(resting()).toEqual([])
  })

  it('does nothing where the caret never rests, and gives the blinking back when stopped', async () => {
    await start(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(resting()).toEqual([])
    off()

    await start(1_000)
    await vi.advanceTimersByTimeAsync(1_000)
    off()
    expect(resting()).toEqual([true, false])
  })
})
