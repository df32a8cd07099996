// Tool modes end-to-end-ish: the real App against the preview's fake Go backend (preview/fake-native.ts).
import { beforeEach, describe, expect, it } from 'vitest'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { installFakeBackend } from '../preview/fake-backend'
import type { CallsForming } from './api'
import { App } from './App'
import { resetStore, useStore } from './store'
import { resetForming } from './store/forming'
import { resetModelMode } from './store/modelMode'
import { resetMcp } from './store/mcp'

async function boot(opts: Parameters<typeof installFakeBackend>[0] = {}) {
  const fake = installFakeBackend({ tick: 2, ...opts })
  render(<App />)
  await screen.findByTestId('composer')
  return fake
}

describe('tool modes with the fake backend', () => {
  beforeEach(() => {
    resetStore()
    resetMcp()
    resetForming()
    resetModelMode()
  })

  it('a new chat calls natively (Auto): the card forms while the model writes, then the real card can be run', async () => {
    const user = userEvent.setup()
    await boot({ tick: 25 })
    const seen: CallsForming[] = []
    window.runtime!.EventsOn!('calls:forming', (f) => seen.push(f as CallsForming))
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'calculate 17*23{Enter}')

    const forming = await screen.findByTestId('forming-card', {}, { timeout: 5000 })
    expect(forming).toHaveAttribute('data-format', 'native')
    expect(screen.queryAllByTestId('tool-card')).toHaveLength(0)

    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    expect(screen.queryAllByTestId('forming-card')).toHaveLength(0)
    expect(card).toHaveAttribute('data-tool', 'calculate')
    expect(within(card).getByTestId('call-family')).toHaveTextContent('native call')
    expect(within(card).getByTestId('call-args').textContent).toBe('{\n  "expression": "17*23"\n}')

    // the name came before the arguments, and the arguments only grew
    expect(seen[0].calls[0]).toMatchObject({ name: '', arguments: '', format: 'native' })
    const args = seen.map((f) => f.calls[0].arguments)
    for (let i = 1; i < args.length; i++) expect(args[i].startsWith(args[i - 1])).toBe(true)
    expect(args.some((a) => a !== '' && a !== '{"expression":"17*23"}')).toBe(true)

    await user.click(within(card).getByTestId('approve'))
    await waitFor(() => expect(screen.getAllByTestId('tool-card')[0]).toHaveAttribute('data-state', 'done'), { timeout: 5000 })
  })

  it('Settings → General: new chats use Auto by default; Native is saved and a new chat takes it', async () => {
    const user = userEvent.setup()
    const fake = await boot()
    await user.click(screen.getByTestId('settings-open'))
    await user.click(screen.getByTestId('settings-tab-general'))
    const choice = screen.getByTestId('settings-tool-mode')
    const opt = (v: string) => within(choice).getAllByRole('radio').find((r) => r.dataset.value === v)!
    expect(opt('auto')).toHaveAttribute('aria-checked', 'true')
    await user.click(opt('native'))
    expect(opt('native')).toHaveAttribute('aria-checked', 'true')
    await user.click(screen.getByTestId('settings-save'))
    await screen.findByText('Settings saved.')
    expect(fake.settings().toolMode).toBe('native')

    await user.keyboard('{Escape}')
    await user.click(screen.getByTestId('new-chat'))
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Native')
    await user.type(screen.getByTestId('composer'), 'hello{Enter}')
    await waitFor(() => expect(screen.getAllByTestId('chat-item')[0]).toHaveAttribute('data-active', 'true'))
    const chatId = screen.getAllByTestId('chat-item')[0].dataset.chatId!
    const chats = (await window.go!.main!.App!.ListChats()) as { id: string; toolMode: string }[]
    expect(chats.find((c) => c.id === chatId)?.toolMode).toBe('native')
  })

  it('Auto learns that a model refuses tools: a notice says so, the call is written as text, and the Tools menu shows it (and forgets it)', async () => {
    const user = userEvent.setup()
    const fake = await boot()
    await act(() => useStore.getState().setActiveProvider('p-ollama'))
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'calculate 2+2{Enter}')

    const notice = await screen.findByTestId('chat-notice', {}, { timeout: 5000 })
    expect(notice).toHaveAttribute('data-code', 'tool_mode_learned')
    expect(notice).toHaveAttribute('role', 'status')
    expect(notice).toHaveTextContent('Auto: qwen2.5:14b uses tool calls written as text from now on')
    expect(useStore.getState().toasts.some((t) => t.kind === 'info' && t.title === 'notices.toolModeTitle')).toBe(true)
    await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    expect(fake.calls.at(-1)!.format).toBe('json')

    await waitFor(() => expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Auto · JSON'))
    await user.click(screen.getByTestId('chat-options'))
    const panel = screen.getByTestId('model-mode')
    expect(within(panel).getByTestId('model-mode-status')).toHaveTextContent('qwen2.5:14b: text calls')
    expect(within(panel).getByTestId('model-mode-detail')).toHaveTextContent('does not support tools')
    await user.click(within(panel).getByTestId('model-mode-forget'))
    await waitFor(() => expect(within(panel).getByTestId('model-mode-status')).toHaveTextContent('qwen2.5:14b: not tried yet: native first'))
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Auto · native')
  })
})
