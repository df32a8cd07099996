import { describe, expect, it, vi, afterEach } from 'vitest'
import { ApiError, api, openExternal, toApiError } from './index'

afterEach(() => {
  delete window.go
  delete window.runtime
})

describe('api wrapper', () => {
  it('turns a JSON rejection into an ApiError with code and message', async () => {
    window.go = { main: { App: { Send: vi.fn().mockRejectedValue('{"code":"busy","message":"Already answering."}') } } }
    const err = await api.send('c1', 'hi').catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('busy')
    expect(err.message).toBe('Already answering.')
  })

  it('falls back to the raw string when the rejection is not JSON', () => {
    const e = toApiError('dial tcp: connection refused')
    expect(e.code).toBe('unknown')
    expect(e.message).toBe('dial tcp: connection refused')
  })

  it('reports a missing backend as an ApiError', async () => {
    const err = await api.listChats().catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('unavailable')
  })

  it('normalises Go nil slices and missing fields', async () => {
    window.go = {
      main: {
        App: {
          ListChats: vi.fn().mockResolvedValue(null),
          ListMessages: vi.fn().mockResolvedValue([{ id: 'm', chatId: 'c', role: 'assistant', status: 'complete' }]),
        },
      },
    }
    expect(await api.listChats()).toEqual([])
    const [m] = await api.listMessages('c')
    expect(m.content).toBe('')
    expect(m.reasoning).toBe('')
    expect(m.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 })
  })

  it('only opens http(s)/mailto URLs externally', () => {
    const open = vi.fn()
    window.runtime = { BrowserOpenURL: open }
    expect(openExternal('javascript:alert(1)')).toBe(false)
    expect(openExternal('file:///etc/passwd')).toBe(false)
    expect(openExternal('https://example.com')).toBe(true)
    expect(open).toHaveBeenCalledTimes(1)
  })
})
