import { afterEach, describe, expect, it, vi } from 'vitest'
import { resetStore, useStore } from '../store'
import { openLink } from './links'

afterEach(() => {
  resetStore()
  delete (window as { go?: unknown }).go
  delete (window as { runtime?: unknown }).runtime
})

describe('openLink', () => {
  it('opens through the backend, which says when it worked', async () => {
    const OpenURL = vi.fn(async () => undefined)
    window.go = { main: { App: { OpenURL } as never } }
    await openLink(' https://example.com/docs ')
    expect(OpenURL).toHaveBeenCalledWith('https://example.com/docs')
    expect(useStore.getState().toasts).toHaveLength(0)
  })

  it('with no browser: tells the user and offers to copy the link', async () => {
    const ClipboardSetText = vi.fn(async () => true)
    window.runtime = { ClipboardSetText } as never
    window.go = {
      main: { App: { OpenURL: vi.fn(async () => Promise.reject({ code: 'no_browser', message: 'No web browser could be opened for this link.' })) } as never },
    }
    await openLink('https://example.com/docs')
    const [toast] = useStore.getState().toasts
    expect(toast).toMatchObject({ kind: 'error', title: 'links.noBrowser', message: 'https://example.com/docs' })
    toast.action!.run()
    await vi.waitFor(() => expect(ClipboardSetText).toHaveBeenCalledWith('https://example.com/docs'))
  })
})
