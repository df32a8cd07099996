import { afterEach, describe, expect, it, vi } from 'vitest'
import { boot } from './boot'
import { resetStore, useStore } from './index'

describe('boot', () => {
  afterEach(() => resetStore())

  it('subscribes and loads once while booted; after its cleanup a new boot starts over', () => {
    const unsubscribe = vi.fn()
    const subscribe = vi.fn(() => unsubscribe)
    const init = vi.fn(async () => {})
    useStore.setState({ subscribe, init })

    const off = boot() // main.tsx, before React renders
    expect(boot()).toBe(off) // App's effect: the same boot
    expect(subscribe).toHaveBeenCalledTimes(1)
    expect(init).toHaveBeenCalledTimes(1)

    off()
    off() // a second cleanup changes nothing
    expect(unsubscribe).toHaveBeenCalledTimes(1)
    const again = boot()
    expect(again).not.toBe(off)
    expect(subscribe).toHaveBeenCalledTimes(2)
    expect(init).toHaveBeenCalledTimes(2)
    again()
  })
})
