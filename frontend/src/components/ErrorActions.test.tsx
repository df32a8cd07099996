import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, fireEvent, render, screen } from '@testing-library/react'
import '../i18n'
import type { Message } from '../api'
import { useStore } from '../store'
import { ErrorActions, retryAfterSeconds } from './ErrorActions'

const msg = (over: Partial<Message>): Message =>
  ({ id: 'm1', chatId: 'c1', role: 'assistant', kind: 'text', content: '', reasoning: '', status: 'error', createdAt: 1, ...over }) as Message

afterEach(() => vi.useRealTimers())

describe('ErrorActions', () => {
  it('a 401 offers the provider settings', () => {
    const open = vi.fn()
    useStore.setState({ openSettings: open })
    render(<ErrorActions m={msg({ errorCode: 'unauthorized' })} canRetry onRetry={() => {}} />)
    fireEvent.click(screen.getByTestId('open-provider-settings'))
    expect(open).toHaveBeenCalledWith('providers')
  })

  it('a 429 counts down its Retry-After and retries by itself once, saying so', () => {
    vi.useFakeTimers()
    const retry = vi.fn()
    const m = msg({ chatId: 'c429', errorCode: 'rate_limited', errorMessage: 'Too many requests. Retry after 3 seconds.' })
    const { unmount } = render(<ErrorActions m={m} canRetry onRetry={retry} />)
    expect(screen.getByTestId('auto-retry')).toHaveTextContent('retrying by itself in 3 seconds')
    act(() => {
      vi.advanceTimersByTime(1000)
    })
    expect(screen.getByTestId('auto-retry')).toHaveTextContent('in 2 seconds')
    for (let i = 0; i < 2; i++)
      act(() => {
        vi.advanceTimersByTime(1000)
      })
    expect(retry).toHaveBeenCalledTimes(1)
    expect(screen.queryByTestId('auto-retry')).toBeNull()
    unmount()
    // Refused again: only the plain Retry this time, no loop.
    render(<ErrorActions m={{ ...m, id: 'm2' }} canRetry onRetry={retry} />)
    expect(screen.queryByTestId('auto-retry')).toBeNull()
    act(() => {
      vi.advanceTimersByTime(10_000)
    })
    expect(retry).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('retry')).toBeInTheDocument()
  })

  // Issue 30, item 1: a chat whose folder vanished says what to do, on the failed answer itself.
  it('a workspace that cannot be opened offers to choose the folder again or switch to Scratch', async () => {
    const setWorkspace = vi.fn(async () => null)
    useStore.setState({ setWorkspace, chats: [{ id: 'cw', title: 't', createdAt: 1, updatedAt: 1, paradigm: 'json', recognizeOthers: true, workspaceKind: 'overlay', workspaceDir: '/gone' }] })
    render(<ErrorActions m={msg({ chatId: 'cw', errorCode: 'workspace_unavailable' })} canRetry onRetry={() => {}} />)
    expect(screen.getByTestId('workspace-choose-again')).toHaveTextContent('Choose the folder again')
    fireEvent.click(screen.getByTestId('workspace-use-scratch'))
    await act(async () => {})
    expect(setWorkspace).toHaveBeenCalledWith('cw', { kind: 'scratch', dir: '' })
    expect(screen.getByTestId('retry')).toBeInTheDocument()
  })

  // Issue 30, item 11: before, a native chat's "does not accept tools" offered only Retry.
  it('a model that refuses native tools offers text calls: the chat switches to text, Auto learns text, and it retries', async () => {
    const setChatOptions = vi.fn(async () => true)
    const SetModelMode = vi.fn(async () => ({}))
    window.go = { main: { App: { SetModelMode } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
    useStore.setState({ setChatOptions, chats: [{ id: 'cn', title: 't', createdAt: 1, updatedAt: 1, paradigm: 'xml', recognizeOthers: false, toolMode: 'native', workspaceKind: 'scratch', workspaceDir: '' }] })
    const retry = vi.fn()
    render(<ErrorActions m={msg({ chatId: 'cn', errorCode: 'tools_unsupported' })} canRetry onRetry={retry} />)
    fireEvent.click(screen.getByTestId('use-text-calls'))
    await act(async () => {})
    expect(setChatOptions).toHaveBeenCalledWith('cn', { paradigm: 'xml', recognizeOthers: false, toolMode: 'text' })
    expect(SetModelMode).toHaveBeenCalledWith('cn', '', '', 'text', false)
    expect(retry).toHaveBeenCalledTimes(1)
    delete window.go
  })

  it('the countdown can be called off', () => {
    vi.useFakeTimers()
    const retry = vi.fn()
    render(<ErrorActions m={msg({ chatId: 'c-off', errorCode: 'rate_limited' })} canRetry onRetry={retry} />)
    fireEvent.click(screen.getByTestId('cancel-auto-retry'))
    act(() => {
      vi.advanceTimersByTime(60_000)
    })
    expect(retry).not.toHaveBeenCalled()
  })

  it('reads Retry-After from the sentence, capped', () => {
    expect(retryAfterSeconds('Retry after 7 seconds.')).toBe(7)
    expect(retryAfterSeconds('Retry after 1 second.')).toBe(1)
    expect(retryAfterSeconds('Retry after 9999 seconds.')).toBe(120)
    expect(retryAfterSeconds('')).toBe(10)
  })
})
