import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Chat, ModelModeInfo } from '../api'
import { resetStore, useStore } from '../store'
import { resetMcp } from '../store/mcp'
import { resetModelMode } from '../store/modelMode'
import { ChatOptionsButton } from './ChatOptions'
import { learnedWhen } from './ToolModeChoice'

const chat = (over: Partial<Chat> = {}): Chat => ({
  id: 'c1',
  title: 'A chat',
  createdAt: 1,
  updatedAt: 1,
  paradigm: 'json',
  recognizeOthers: true,
  toolMode: 'text',
  mcpServers: null,
  ...over,
})
const LEARNED_AT = new Date(2026, 10, 24, 20, 51).getTime()
const mode = (over: Partial<ModelModeInfo> = {}): ModelModeInfo => ({
  providerId: 'p1',
  model: 'gemma3',
  learned: '',
  reason: '',
  learnedAt: 0,
  override: '',
  effective: 'native',
  ...over,
})

type Fn = ReturnType<typeof vi.fn>
let app: Record<string, Fn>
let current: ModelModeInfo

function install(info: ModelModeInfo) {
  current = info
  app = {
    ListMCPServers: vi.fn(async () => ({ servers: [], envFile: '', envError: '' })),
    SetChatOptions: vi.fn(async (id: string, o: Partial<Chat>) => ({ ...chat({ id }), ...o })),
    ModelMode: vi.fn(async () => current),
    // Like the backend: the override is kept; forget also drops what was learned.
    SetModelMode: vi.fn(async (_chat: string, _provider: string, _model: string, override: '' | 'native' | 'text', forget: boolean) => {
      current = forget ? mode({ override }) : { ...current, override }
      current.effective = current.override || current.learned || 'native'
      return current
    }),
  }
  window.go = { main: { App: app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

async function open(c: Chat) {
  useStore.setState({ chats: [c], activeChatId: 'c1' })
  const user = userEvent.setup()
  render(<ChatOptionsButton />)
  await user.click(screen.getByTestId('chat-options'))
  return user
}

const radio = (m: string) => screen.getByTestId(`tool-mode-${m}`) as HTMLInputElement

describe('how the model calls tools (the chat’s Tools menu)', () => {
  beforeEach(() => {
    resetStore()
    resetMcp()
    resetModelMode()
    install(mode())
  })
  afterEach(() => {
    delete window.go
  })

  it('Text / Native / Auto each save the chat’s toolMode with its other options; the chip follows', async () => {
    const user = await open(chat({ paradigm: 'vcp', recognizeOthers: false, mcpServers: ['fs'] }))
    expect(radio('text')).toBeChecked()
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('VCP')
    // each mode says what it means
    expect(radio('native').closest('label')).toHaveTextContent('tools and tool_calls')

    await user.click(radio('native'))
    expect(app.SetChatOptions).toHaveBeenLastCalledWith('c1', { paradigm: 'vcp', recognizeOthers: false, toolMode: 'native', mcpServers: ['fs'] })
    await waitFor(() => expect(useStore.getState().chats[0].toolMode).toBe('native'))
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Native')
    expect(app.ModelMode).not.toHaveBeenCalled()

    await user.click(radio('auto'))
    expect(app.SetChatOptions).toHaveBeenLastCalledWith('c1', { paradigm: 'vcp', recognizeOthers: false, toolMode: 'auto', mcpServers: ['fs'] })
    await waitFor(() => expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Auto · native'))
    expect(app.ModelMode).toHaveBeenCalled()

    // picking a call format keeps the mode
    await user.click(screen.getAllByTestId('paradigm-option').find((r) => (r as HTMLInputElement).value === 'json')!)
    expect(app.SetChatOptions).toHaveBeenLastCalledWith('c1', { paradigm: 'json', recognizeOthers: false, toolMode: 'auto', mcpServers: ['fs'] })
  })

  it('the call format is for text calls: under Native it is dimmed with a note, under Text it is not', async () => {
    await open(chat({ toolMode: 'native' }))
    expect(screen.getByTestId('paradigm-section')).toHaveClass('is-dimmed')
    expect(screen.getByTestId('paradigm-note')).toHaveTextContent('Native calls don’t use a call format')
    // still a choice (it applies when switching back to Text)
    expect(screen.getAllByTestId('paradigm-option')[0]).toBeEnabled()
    await userEvent.setup().click(radio('text'))
    await waitFor(() => expect(screen.getByTestId('paradigm-section')).not.toHaveClass('is-dimmed'))
    expect(screen.queryByTestId('paradigm-note')).toBeNull()
  })

  it('Auto, nothing learned yet: “not tried yet: native first”; Use text sets an override', async () => {
    const user = await open(chat({ toolMode: 'auto' }))
    const panel = await screen.findByTestId('model-mode')
    await waitFor(() => expect(within(panel).getByTestId('model-mode-status')).toHaveTextContent('gemma3: not tried yet: native first'))
    expect(within(panel).queryByTestId('model-mode-detail')).toBeNull()
    expect(within(panel).getByTestId('model-mode-auto')).toHaveAttribute('aria-pressed', 'true')
    expect(within(panel).getByTestId('model-mode-forget')).toBeDisabled()

    await user.click(within(panel).getByTestId('model-mode-text'))
    expect(app.SetModelMode).toHaveBeenLastCalledWith('c1', '', '', 'text', false)
    await waitFor(() => expect(within(panel).getByTestId('model-mode-status')).toHaveTextContent('gemma3: text calls'))
    expect(within(panel).getByTestId('model-mode-detail')).toHaveTextContent('Your choice for this model')
    expect(within(panel).getByTestId('model-mode-text')).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Auto · JSON')
    // pressing the choice already made sends nothing
    await user.click(within(panel).getByTestId('model-mode-text'))
    expect(app.SetModelMode).toHaveBeenCalledTimes(1)
  })

  it('Auto learned text: when and why; Use native, Go by what Auto learns, and Forget send the right arguments', async () => {
    install(mode({ learned: 'text', reason: 'HTTP 400: gemma3 does not support tools', learnedAt: LEARNED_AT, effective: 'text' }))
    const user = await open(chat({ toolMode: 'auto' }))
    const panel = await screen.findByTestId('model-mode')
    await waitFor(() => expect(panel).toHaveAttribute('data-learned', 'text'))
    expect(within(panel).getByTestId('model-mode-status')).toHaveTextContent('gemma3: text calls')
    const when = learnedWhen(LEARNED_AT, 'en')
    expect(when).toMatch(/24/)
    expect(within(panel).getByTestId('model-mode-detail')).toHaveTextContent(`Learned ${when}: HTTP 400: gemma3 does not support tools`)
    // the format is in use (Auto writes calls as text for this model): not dimmed
    expect(screen.getByTestId('paradigm-section')).not.toHaveClass('is-dimmed')
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Auto · JSON')

    await user.click(within(panel).getByTestId('model-mode-native'))
    expect(app.SetModelMode).toHaveBeenLastCalledWith('c1', '', '', 'native', false)
    await waitFor(() => expect(within(panel).getByTestId('model-mode-status')).toHaveTextContent('gemma3: native calls'))
    expect(within(panel).getByTestId('model-mode-detail')).toHaveTextContent(`it had learned text calls, ${when}`)
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Auto · native')
    expect(screen.getByTestId('paradigm-section')).toHaveClass('is-dimmed')

    await user.click(within(panel).getByTestId('model-mode-auto'))
    expect(app.SetModelMode).toHaveBeenLastCalledWith('c1', '', '', '', false)
    await waitFor(() => expect(within(panel).getByTestId('model-mode-status')).toHaveTextContent('gemma3: text calls'))

    await user.click(within(panel).getByTestId('model-mode-forget'))
    expect(app.SetModelMode).toHaveBeenLastCalledWith('c1', '', '', '', true)
    await waitFor(() => expect(within(panel).getByTestId('model-mode-status')).toHaveTextContent('gemma3: not tried yet: native first'))
    expect(within(panel).getByTestId('model-mode-forget')).toBeDisabled()
  })

  it('Auto, when what it knows cannot be read: says why, and the chip just says Auto', async () => {
    app.ModelMode.mockRejectedValue('{"code":"no_provider","message":"No provider is configured."}')
    await open(chat({ toolMode: 'auto' }))
    const panel = await screen.findByTestId('model-mode')
    await waitFor(() => expect(panel).toHaveTextContent('Couldn’t read what Auto knows: No provider is configured.'))
    expect(screen.getByTestId('paradigm-chip').textContent).toBe('Auto')
    expect(within(panel).queryByTestId('model-mode-native')).toBeNull()
  })

  it('the lazy new chat shows the settings’ mode and keeps a change until it is created', async () => {
    useStore.setState({ chats: [], activeChatId: null, settings: { toolMode: 'native' } as never })
    const user = userEvent.setup()
    render(<ChatOptionsButton />)
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Native')
    await user.click(screen.getByTestId('chat-options'))
    expect(radio('native')).toBeChecked()
    await user.click(radio('text'))
    expect(useStore.getState().newChatOptions).toMatchObject({ toolMode: 'text' })
    expect(app.SetChatOptions).not.toHaveBeenCalled()
  })
})
