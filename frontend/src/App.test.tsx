// End-to-end-ish: the real App against the preview's fake Go backend.
import { describe, expect, it, beforeEach } from 'vitest'
import { render, screen, waitFor, within, act } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { installFakeBackend } from '../preview/fake-backend'
import { App } from './App'
import { resetStore } from './store'

async function boot(opts: Parameters<typeof installFakeBackend>[0] = {}) {
  installFakeBackend({ tick: 2, ...opts })
  render(<App />)
  await screen.findAllByTestId('chat-item').catch(() => null)
  await screen.findByTestId('composer')
}

describe('App with a fake backend', () => {
  beforeEach(() => {
    resetStore()
  })

  it('shows the chat list (newest first) with the most recent chat active, and the demo badge', async () => {
    await boot()
    const items = screen.getAllByTestId('chat-item')
    expect(items.length).toBeGreaterThan(3)
    expect(items[0]).toHaveAttribute('data-active', 'true')
    expect(items[1]).toHaveAttribute('data-active', 'false')
    expect(items[0]).toHaveTextContent('Rust vs Go for CLI tools')
    expect(within(screen.getByTestId('provider-chip')).getByTestId('demo-badge')).toHaveTextContent('Demo')
    await waitFor(() => expect(screen.getAllByTestId('message').length).toBe(4))
    const [first, second] = screen.getAllByTestId('message')
    expect(first).toHaveAttribute('data-role', 'user')
    expect(second).toHaveAttribute('data-role', 'assistant')
    expect(second).toHaveAttribute('data-status', 'complete')
    expect(within(second).getByTestId('usage')).toHaveTextContent('airlock-demo · 452 tokens (40 in / 412 out)')
    expect(within(second).getByTestId('reasoning')).toBeInTheDocument()
  })

  it('new chat → send → streams to completion, with Stop while streaming', async () => {
    const user = userEvent.setup()
    await boot({ tick: 15 })
    await user.click(screen.getByTestId('new-chat'))
    await screen.findAllByTestId('suggestion')
    await user.type(screen.getByTestId('composer'), 'What is Airlock?{Enter}')
    await screen.findByTestId('stop')
    const msgs = await screen.findAllByTestId('message')
    expect(msgs[0]).toHaveAttribute('data-role', 'user')
    expect(msgs[1]).toHaveAttribute('data-status', 'streaming')
    await waitFor(() => expect(screen.getAllByTestId('message')[1]).toHaveAttribute('data-status', 'complete'), {
      timeout: 5000,
    })
    expect(screen.getAllByTestId('message')[1]).toHaveTextContent('desktop chat client')
    expect(screen.getByTestId('send')).toBeInTheDocument()
    // the new chat gets its auto title through chats:changed
    await waitFor(() => expect(screen.getAllByTestId('chat-item')[0]).toHaveTextContent('What is Airlock?'))
    expect(screen.getAllByTestId('chat-item')[0]).toHaveAttribute('data-active', 'true')
  })

  it('Stop interrupts and offers Retry', async () => {
    const user = userEvent.setup()
    await boot({ tick: 30 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'Write a long story (slow stream){Enter}')
    await user.click(await screen.findByTestId('stop'))
    await waitFor(() => expect(screen.getAllByTestId('message')[1]).toHaveAttribute('data-status', 'interrupted'))
    expect(screen.getByTestId('retry')).toBeInTheDocument()
  })

  it('an error answer shows the error panel; Retry replaces it', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('new-chat'))
    await user.click(screen.getByText('Simulate error 500'))
    const panel = await screen.findByTestId('message-error', {}, { timeout: 3000 })
    expect(panel).toHaveTextContent('HTTP 500')
    expect(panel).toHaveTextContent('http_500')
    await user.click(within(panel).getByTestId('retry'))
    await waitFor(() => expect(screen.queryByTestId('message-error')).toBeNull())
    await waitFor(() => expect(screen.getAllByTestId('message')[1]).toHaveAttribute('data-status', 'complete'), {
      timeout: 3000,
    })
    expect(screen.getAllByTestId('message')).toHaveLength(2)
  })

  it('recovers from dropped deltas without losing text', async () => {
    const user = userEvent.setup()
    await boot({ dropDeltas: true, tick: 3 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'Show me some markdown{Enter}')
    await waitFor(() => expect(screen.getAllByTestId('message')[1]).toHaveAttribute('data-status', 'complete'), {
      timeout: 8000,
    })
    expect(screen.getAllByTestId('message')[1]).toHaveTextContent('keep the binary self-contained')
  })

  it('renames a chat inline (F2) and deletes one after confirming', async () => {
    const user = userEvent.setup()
    await boot()
    const first = screen.getAllByTestId('chat-item')[0]
    first.focus()
    await user.keyboard('{F2}')
    const input = screen.getByTestId('chat-rename-input')
    await user.clear(input)
    await user.type(input, 'Renamed chat{Enter}')
    await waitFor(() => expect(screen.getAllByTestId('chat-item')[0]).toHaveTextContent('Renamed chat'))

    const count = screen.getAllByTestId('chat-item').length
    await user.click(screen.getAllByTestId('chat-delete')[1])
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('Quarterly report summary')
    await user.click(screen.getByTestId('confirm-delete'))
    await waitFor(() => expect(screen.getAllByTestId('chat-item')).toHaveLength(count - 1))
    expect(screen.queryByText('Quarterly report summary')).toBeNull()
  })

  it('Esc cancels a rename without saving', async () => {
    const user = userEvent.setup()
    await boot()
    await user.dblClick(screen.getAllByTestId('chat-item')[0])
    await user.type(screen.getByTestId('chat-rename-input'), ' nope{Escape}')
    expect(screen.queryByTestId('chat-rename-input')).toBeNull()
    expect(screen.getAllByTestId('chat-item')[0]).toHaveTextContent('Rust vs Go for CLI tools')
  })

  it('Ctrl+, opens settings, Esc closes it and restores focus', async () => {
    const user = userEvent.setup()
    await boot()
    const composer = screen.getByTestId('composer')
    composer.focus()
    await user.keyboard('{Control>},{/Control}')
    const dialog = await screen.findByTestId('settings-dialog')
    expect(dialog).toContainElement(document.activeElement as HTMLElement)
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('settings-dialog')).toBeNull()
    expect(document.activeElement).toBe(composer)
  })

  it('saves general settings and switches the UI language', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('settings-open'))
    await user.click(screen.getByTestId('settings-tab-general'))
    await user.selectOptions(screen.getByTestId('language'), 'zh')
    await user.click(screen.getByTestId('temperature-default'))
    await user.click(screen.getByTestId('settings-save'))
    await screen.findByText('设置已保存。')
    expect(screen.getByTestId('new-chat')).toHaveTextContent('新对话')
    await act(async () => {
      const { default: i18n } = await import('./i18n')
      await i18n.changeLanguage('en')
    })
  })

  it('shows provider errors inline (test connection)', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('provider-chip'))
    const dialog = await screen.findByTestId('settings-dialog')
    await user.click(within(dialog).getByText('Work OpenAI'))
    await user.clear(screen.getByTestId('provider-api-key'))
    await user.click(screen.getByTestId('test-connection'))
    expect(await screen.findByTestId('provider-status')).toHaveTextContent('HTTP 401')
    expect(screen.queryByTestId('provider-delete')).toBeInTheDocument()
    await user.click(within(dialog).getByText('Airlock Demo'))
    expect(screen.queryByTestId('provider-delete')).toBeNull() // demo is not deletable
  })

  it('adds a provider from a preset, saves it and makes it active', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('settings-open'))
    await user.click(screen.getByTestId('settings-tab-providers'))
    await user.click(screen.getByTestId('provider-add'))
    await user.click(screen.getByRole('button', { name: 'Ollama' }))
    expect(screen.getByTestId('provider-base-url')).toHaveValue('http://localhost:11434/v1')
    expect(screen.getByTestId('provider-name')).toHaveValue('Ollama')
    await user.click(screen.getByTestId('load-models'))
    await screen.findByRole('option', { name: /llama3.1:8b/ })
    await user.click(screen.getByRole('option', { name: /llama3.1:8b/ }))
    expect(screen.getByTestId('provider-model')).toHaveValue('llama3.1:8b')
    await user.click(screen.getByTestId('provider-make-active'))
    expect(await screen.findByText('This provider is now active.')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    const chip = screen.getByTestId('provider-chip')
    expect(chip).toHaveTextContent('Ollama')
    expect(chip).toHaveTextContent('llama3.1:8b')
    expect(within(chip).queryByTestId('demo-badge')).toBeNull()
  })

  it('works when driven like the e2e harness (native value setter + input event, no waits)', async () => {
    await boot({ empty: true })
    act(() => screen.getByTestId('new-chat').click())
    const box = screen.getByTestId('composer') as HTMLTextAreaElement
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(box, 'Hello Airlock')
      box.dispatchEvent(new Event('input', { bubbles: true }))
    })
    act(() => screen.getByTestId('send').click())
    await waitFor(() => expect(screen.getAllByTestId('chat-item')).toHaveLength(1))
    await waitFor(() => expect(screen.getAllByTestId('message')[1]).toHaveAttribute('data-status', 'complete'), {
      timeout: 5000,
    })
    expect(screen.getAllByTestId('message')[0]).toHaveTextContent('Hello Airlock')
    expect(screen.getByTestId('usage')).toBeInTheDocument()
  })
})
