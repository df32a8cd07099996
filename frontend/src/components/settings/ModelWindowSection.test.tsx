import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { normalizeModelWindow, type ModelWindowInfo } from '../../api'
import { resetModelWindow } from '../../store/modelWindow'
import { ModelWindowSection, parseTokens } from './ModelWindowSection'

type Fn = ReturnType<typeof vi.fn>
let app: Record<string, Fn>
let current: ModelWindowInfo

const ollama = (over: Partial<ModelWindowInfo> = {}) =>
  normalizeModelWindow({
    providerId: 'p1',
    model: 'llama3.2',
    discovered: {
      tokens: 4096,
      modelMax: 131072,
      loaded: 4096,
      maxOutput: 0,
      source: 'server:ollama',
      note: 'Ollama runs llama3.2 with a 4096-token context window, though the model can take 131072. To raise it, set OLLAMA_CONTEXT_LENGTH…',
    },
    discoveredAt: 5,
    tokens: 4096,
    source: 'server:ollama',
    ...over,
  })

beforeEach(() => {
  resetModelWindow()
  current = ollama()
  app = {
    ModelWindow: vi.fn(async () => current),
    DetectModelWindow: vi.fn(async () => current),
    // Like the backend: the user's window wins; a budget not below the window is refused.
    SetModelWindow: vi.fn(async (_p: string, _m: string, w: number, o: number) => {
      if (w > 0 && o >= w) throw { code: 'invalid', message: 'the answer budget must be smaller than the window' }
      current = { ...current, userWindow: w, userMaxOutput: o, tokens: w || 4096, source: w ? 'user' : 'server:ollama' }
      return current
    }),
  }
  window.go = { main: { App: app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
})
afterEach(() => {
  delete window.go
})

describe('a model’s context window in Settings ▸ Providers', () => {
  it('shows the window, where it came from, and the server’s note on how to raise it', async () => {
    render(<ModelWindowSection providerId="p1" model="llama3.2" />)
    await waitFor(() => expect(screen.getByTestId('model-window-tokens').textContent).toContain('4,096'))
    expect(screen.getByTestId('model-window-tokens').textContent).toContain('ollama')
    expect(screen.getByTestId('model-window-note').textContent).toContain('OLLAMA_CONTEXT_LENGTH')
    expect(screen.getByTestId('model-window-note').textContent).toContain('131072')
    expect(screen.queryByTestId('model-window-over-loaded')).toBeNull()
    expect(screen.getByTestId('model-window').getAttribute('data-tokens')).toBe('4096')
    expect(app.ModelWindow).toHaveBeenCalledWith('p1', 'llama3.2')
  })

  it('saves the user’s window and answer budget; refuses what is not a number; shows the backend’s refusal', async () => {
    const user = userEvent.setup()
    render(<ModelWindowSection providerId="p1" model="llama3.2" />)
    await waitFor(() => screen.getByTestId('model-window-tokens'))
    await user.type(screen.getByTestId('model-window-input'), '8k')
    await user.click(screen.getByTestId('model-window-save'))
    expect(screen.getByTestId('model-window-status').textContent).toMatch(/whole number/)
    expect(app.SetModelWindow).not.toHaveBeenCalled()

    await user.clear(screen.getByTestId('model-window-input'))
    await user.type(screen.getByTestId('model-window-input'), '16,384')
    await user.type(screen.getByTestId('model-window-max-output'), '2048')
    await user.click(screen.getByTestId('model-window-save'))
    await waitFor(() => expect(screen.getByTestId('model-window').getAttribute('data-source')).toBe('user'))
    expect(app.SetModelWindow).toHaveBeenCalledWith('p1', 'llama3.2', 16384, 2048)
    // Ollama runs it with 4096: a larger window here is warned about.
    expect(screen.getByTestId('model-window-over-loaded').textContent).toContain('4')

    await user.clear(screen.getByTestId('model-window-max-output'))
    await user.type(screen.getByTestId('model-window-max-output'), '20000')
    await user.click(screen.getByTestId('model-window-save'))
    await waitFor(() => expect(screen.getByTestId('model-window-status').textContent).toContain('smaller than the window'))
  })

  it('Re-detect asks the server again', async () => {
    const user = userEvent.setup()
    render(<ModelWindowSection providerId="p1" model="llama3.2" />)
    await waitFor(() => screen.getByTestId('model-window-tokens'))
    current = ollama({ tokens: 32768, discovered: { ...current.discovered, tokens: 32768, loaded: 32768, note: '' } })
    await user.click(screen.getByTestId('model-window-detect'))
    await waitFor(() => expect(screen.getByTestId('model-window').getAttribute('data-tokens')).toBe('32768'))
    expect(app.DetectModelWindow).toHaveBeenCalledWith('p1', 'llama3.2')
    expect(screen.getByTestId('model-window-note').textContent).toContain('32768-token window')
  })

  it('a server that could not be reached is said, in the reader’s language', async () => {
    current = normalizeModelWindow({ providerId: 'p1', model: 'deepseek-chat', discovered: { tokens: 131072, modelMax: 131072, loaded: 0, maxOutput: 8192, source: 'table', note: 'Airlock could not reach http://x/v1 …' }, tokens: 131072, source: 'table', unreachable: true })
    render(<ModelWindowSection providerId="p1" model="deepseek-chat" />)
    await waitFor(() => expect(screen.getByTestId('model-window-note').textContent).toMatch(/could not reach the server/))
    expect(screen.getByTestId('model-window-tokens').textContent).toContain('table')
  })

  it('reads tokens as people type them', () => {
    expect(parseTokens('')).toBe(0)
    expect(parseTokens(' 32 768 ')).toBe(32768)
    expect(parseTokens('128_000')).toBe(128000)
    expect(parseTokens('8k')).toBeNull()
    expect(parseTokens('-5')).toBeNull()
    expect(parseTokens('1e9')).toBeNull()
  })
})
