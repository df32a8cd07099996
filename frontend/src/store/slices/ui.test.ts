import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api'
import { resetStore, useStore } from '../index'

const st = () => useStore.getState()

describe('ui slice', () => {
  beforeEach(() => {
    resetStore()
    vi.useFakeTimers()
  })
  afterEach(() => vi.useRealTimers())

  it('keeps at most four toasts, the newest last', () => {
    for (let i = 0; i < 6; i++) st().toast({ kind: 'info', title: `t${i}` })
    expect(st().toasts.map((t) => t.title)).toEqual(['t2', 't3', 't4', 't5'])
  })

  it('an info toast goes away by itself; dismissToast removes one at once', () => {
    const a = st().toast({ kind: 'info', title: 'a' })
    st().toast({ kind: 'error', title: 'b' })
    st().dismissToast(a)
    expect(st().toasts.map((t) => t.title)).toEqual(['b'])
    vi.advanceTimersByTime(12_000)
    expect(st().toasts).toEqual([])
  })

  it('toastError shows the error code, but not "unknown"', () => {
    st().toastError('errors.x', new ApiError('no_provider', 'none'))
    st().toastError('errors.y', new Error('boom'))
    const [a, b] = st().toasts
    expect(a).toMatchObject({ title: 'errors.x', message: 'none', code: 'no_provider' })
    expect(b.code).toBeUndefined()
  })

  it('openSettings keeps the last tab unless one is named', () => {
    st().openSettings('tools')
    st().closeSettings()
    st().openSettings()
    expect(st()).toMatchObject({ settingsOpen: true, settingsTab: 'tools' })
  })

  it('setDraft keeps drafts per chat', () => {
    st().setDraft('a', 'one')
    st().setDraft('b', 'two')
    expect(st().drafts).toEqual({ a: 'one', b: 'two' })
  })
})
