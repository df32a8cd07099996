// End-to-end-ish: the real App against the preview's fake Go backend.
import { describe, expect, it, beforeEach } from 'vitest'
import { render, screen, waitFor, within, act } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { installFakeBackend } from '../preview/fake-backend'
import { App } from './App'
import { resetStore, useStore } from './store'

async function boot(opts: Parameters<typeof installFakeBackend>[0] = {}) {
  const fake = installFakeBackend({ tick: 2, ...opts })
  render(<App />)
  await screen.findAllByTestId('chat-item').catch(() => null)
  await screen.findByTestId('composer')
  return fake
}

const lastMessage = () => screen.getAllByTestId('message').at(-1)!
const cardOf = (tool: string) => screen.getAllByTestId('tool-card').filter((c) => c.dataset.tool === tool).at(-1)!

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

  it('Escape stops a streaming answer', async () => {
    const user = userEvent.setup()
    await boot({ tick: 30 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'Write a long story (slow stream){Enter}')
    await screen.findByTestId('stop')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.getAllByTestId('message')[1]).toHaveAttribute('data-status', 'interrupted'))
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

  it('renames a chat inline (F2) and moves one to the Trash', async () => {
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
    const scrolled: Element[] = []
    const original = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this)
    }
    await user.click(screen.getByTestId('test-connection'))
    expect(await screen.findByTestId('provider-status')).toHaveTextContent('HTTP 401')
    // The result sits beside the button, in the bar that stays in view, and is scrolled to.
    expect(screen.getByTestId('provider-status').closest('.form__actions')).toContainElement(screen.getByTestId('test-connection'))
    await waitFor(() => expect(scrolled.some((el) => el.contains(screen.getByTestId('provider-status')))).toBe(true))
    Element.prototype.scrollIntoView = original
    expect(screen.queryByTestId('provider-delete')).toBeInTheDocument()
    await user.click(within(dialog).getByText('Airlock Demo'))
    expect(screen.queryByTestId('provider-delete')).toBeNull() // demo is not deletable
  })

  it('says in Settings when API keys stay in the database (no system keychain)', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('settings-open'))
    await user.click(screen.getByTestId('settings-tab-providers'))
    await user.click(screen.getByTestId('provider-add'))
    expect(screen.getByTestId('keychain-fallback')).toHaveTextContent('No system keychain answered')
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
    // Save, then activate: two round trips to the fake backend, over a second on a loaded machine.
    expect(await screen.findByText('This provider is now active.', {}, { timeout: 5000 })).toBeInTheDocument()
    await user.keyboard('{Escape}')
    const chip = screen.getByTestId('provider-chip')
    expect(chip).toHaveTextContent('Ollama')
    expect(chip).toHaveTextContent('llama3.1:8b')
    expect(within(chip).queryByTestId('demo-badge')).toBeNull()
  })

  it('adds an Anthropic Messages provider from its presets, and the kind is saved', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('settings-open'))
    await user.click(screen.getByTestId('settings-tab-providers'))
    await user.click(screen.getByTestId('provider-add'))
    expect(screen.getByTestId('provider-kind-openai')).toHaveAttribute('aria-checked', 'true')
    expect(screen.queryByTestId('preset-kimi')).toBeNull() // presets follow the kind
    expect(screen.queryByTestId('provider-thinking-budget')).toBeNull() // an Anthropic setting
    await user.click(screen.getByTestId('provider-kind-anthropic'))
    expect(screen.getByTestId('provider-kind-anthropic')).toHaveAttribute('aria-checked', 'true')
    expect(screen.queryByTestId('preset-ollama')).toBeNull()
    for (const id of ['anthropic', 'deepseek-anthropic', 'glm', 'kimi', 'minimax']) expect(screen.getByTestId(`preset-${id}`)).toBeInTheDocument()
    await user.click(screen.getByTestId('preset-kimi'))
    expect(screen.getByTestId('provider-base-url')).toHaveValue('https://api.moonshot.ai/anthropic')
    expect(screen.getByTestId('provider-name')).toHaveValue('Moonshot Kimi')
    await user.type(screen.getByTestId('provider-api-key'), 'sk-kimi')
    await user.clear(screen.getByTestId('provider-thinking-budget'))
    await user.type(screen.getByTestId('provider-thinking-budget'), '2048')
    await user.click(screen.getByTestId('provider-save'))
    expect(await screen.findByText('Provider saved.')).toBeInTheDocument()
    const saved = useStore.getState().providers.find((p) => p.name === 'Moonshot Kimi')
    expect(saved?.kind).toBe('anthropic')
    expect(saved?.thinkingBudget).toBe(2048)
    expect(screen.getAllByTestId('provider-row').find((r) => r.textContent?.includes('Moonshot Kimi'))).toHaveTextContent('Anthropic Messages')
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

  it('the tool loop: answer → pending card → Run → running/done → results + next answer streams to completion', async () => {
    const user = userEvent.setup()
    await boot({ empty: true, tick: 3, runMs: 150 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'What time is it?{Enter}')
    // the answer completes; call:updated brings the card
    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    expect(card).toHaveAttribute('data-tool', 'get_current_time')
    expect(card).toHaveAttribute('data-state', 'pending')
    expect(within(card).getByTestId('call-state')).toHaveTextContent('Pending')
    // the first pending card takes focus (the composer was empty)
    await waitFor(() => expect(card).toHaveFocus())
    expect(screen.getByTestId('waiting-status')).toHaveTextContent('1 tool call waits for you')
    // the call text itself is on the card, not repeated in the answer
    const answer = screen.getAllByTestId('message')[1]
    expect(answer).toHaveTextContent('Let me look at the clock.')
    expect(within(answer).queryByText(/tool_calls/)).toBeNull()
    // nothing ran: no results message yet
    expect(screen.getAllByTestId('message')).toHaveLength(2)

    await user.click(within(card).getByTestId('approve'))
    await waitFor(() => expect(cardOf('get_current_time')).toHaveAttribute('data-state', 'running'))
    expect(within(cardOf('get_current_time')).getByTestId('call-elapsed')).toBeInTheDocument()
    await waitFor(() => expect(cardOf('get_current_time')).toHaveAttribute('data-state', 'done'), { timeout: 3000 })
    expect(within(cardOf('get_current_time')).getByTestId('call-result')).toHaveTextContent(/\d{4}-\d\d-\d\dT/)
    expect(within(cardOf('get_current_time')).getByTestId('call-decision')).toHaveTextContent('Approved by you')

    // message:added: the tool-results user message, then the next answer, which streams
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(4), { timeout: 3000 })
    const [, , results] = screen.getAllByTestId('message')
    expect(results).toHaveAttribute('data-role', 'user')
    expect(within(results).getByTestId('tool-results')).toHaveTextContent('Tool result (1)')
    expect(within(results).getByTestId('tool-results')).toHaveTextContent('1 succeeded')
    await waitFor(() => expect(lastMessage()).toHaveAttribute('data-status', 'complete'), { timeout: 5000 })
    expect(lastMessage()).toHaveTextContent('get_current_time returned')
    expect(screen.queryByTestId('waiting-status')).toBeNull()
    expect(screen.getByTestId('send')).toBeInTheDocument()

    // the results block expands to show what the model was told
    await user.click(within(results).getByTestId('tool-results-toggle'))
    expect(within(results).getByText(/tool_call_result/)).toBeInTheDocument()
  })

  it('Deny (with a reason) → the model is told and answers', async () => {
    const user = userEvent.setup()
    await boot({ empty: true, tick: 2 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'please calculate 6*7{Enter}')
    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    expect(card).toHaveTextContent('6*7')
    await user.click(within(card).getByTestId('deny'))
    await user.type(screen.getByTestId('deny-reason'), 'no maths today{Enter}')
    await waitFor(() => expect(cardOf('calculate')).toHaveAttribute('data-state', 'denied'))
    expect(within(cardOf('calculate')).getByTestId('call-decision')).toHaveTextContent('Denied by you: no maths today')
    await waitFor(() => expect(lastMessage()).toHaveTextContent('You denied calculate'), { timeout: 5000 })
  })

  it('auto-continue off: results wait; Continue sends them', async () => {
    const user = userEvent.setup()
    await boot({ empty: true, tick: 2, runMs: 20, autoContinue: false })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'calculate 2+3{Enter}')
    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    await user.click(within(card).getByTestId('approve'))
    const cont = await screen.findByTestId('continue', {}, { timeout: 3000 })
    expect(screen.getByTestId('chat-notice')).toHaveTextContent('Tool results are ready')
    expect(lastMessage()).toHaveAttribute('data-kind', 'tool_results')
    await user.click(cont)
    await waitFor(() => expect(lastMessage()).toHaveAttribute('data-role', 'assistant'))
    await waitFor(() => expect(lastMessage()).toHaveAttribute('data-status', 'complete'), { timeout: 5000 })
    expect(lastMessage()).toHaveTextContent('calculate returned 5')
    expect(screen.queryByTestId('continue')).toBeNull()
  })

  it('the turn cap pauses the loop: notice inline (and a toast) with Continue', async () => {
    const user = userEvent.setup()
    await boot({ empty: true, tick: 2, runMs: 20, maxTurns: 1 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'loop{Enter}')
    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    await user.click(within(card).getByTestId('approve'))
    const notice = await screen.findByTestId('chat-notice', {}, { timeout: 3000 })
    await waitFor(() => expect(notice).toHaveAttribute('data-code', 'turn_cap'))
    expect(notice).toHaveTextContent('Paused after 1 model turns')
    expect(screen.getByTestId('toast')).toHaveTextContent('The tool loop paused')
    await user.click(within(notice).getByTestId('continue'))
    // the model goes on: the loop script proposes the same call again
    await waitFor(() => expect(screen.getAllByTestId('tool-card')).toHaveLength(2), { timeout: 5000 })
    expect(screen.queryByTestId('chat-notice')).toBeNull()
  })

  it('a problem card: Tell the model settles it and the loop goes on', async () => {
    const user = userEvent.setup()
    await boot({ empty: true, tick: 2 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'broken{Enter}')
    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    expect(card).toHaveAttribute('data-state', 'problem')
    // a new chat calls natively (Auto, and the demo model takes tools): the card keeps the arguments as written
    expect(card).toHaveAttribute('data-tool', 'teleport')
    expect(within(card).getByTestId('call-family')).toHaveTextContent('native call')
    expect(within(card).getByTestId('call-raw')).toHaveTextContent('{"to":"Mars"}')
    await user.click(within(card).getByTestId('tell-model'))
    await waitFor(() => expect(lastMessage()).toHaveTextContent('teleport failed'), { timeout: 5000 })
  })

  it('Always allow → the rule shows in Settings → Permissions and can be revoked', async () => {
    const user = userEvent.setup()
    await boot({ empty: true, tick: 2, runMs: 20 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'What time is it?{Enter}')
    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    await user.click(within(card).getByTestId('always-allow'))
    await user.click(screen.getByTestId('always-allow-chat'))
    await waitFor(() => expect(cardOf('get_current_time')).toHaveAttribute('data-state', 'done'), { timeout: 3000 })
    await waitFor(() => expect(lastMessage()).toHaveAttribute('data-status', 'complete'), { timeout: 5000 })
    // the next call of that tool runs by itself
    await user.type(screen.getByTestId('composer'), 'And the time now?{Enter}')
    await waitFor(() => expect(screen.getAllByTestId('tool-card')).toHaveLength(2), { timeout: 5000 })
    await waitFor(() => expect(cardOf('get_current_time')).toHaveAttribute('data-state', 'done'), { timeout: 3000 })
    expect(within(cardOf('get_current_time')).getByTestId('call-decision')).toHaveTextContent(/Allowed by rule #1 · any arguments · this chat/)

    await user.click(screen.getByTestId('settings-open'))
    await user.click(screen.getByTestId('settings-tab-permissions'))
    const row = await screen.findByTestId('rule-row')
    expect(row).toHaveTextContent('get_current_time')
    // the scope names the chat (its auto title arrives through chats:changed)
    await waitFor(() => expect(row).toHaveTextContent('In “What time is it?”'))
    await user.click(within(row).getByTestId('revoke-rule'))
    expect(screen.getByTestId('rule-row')).toBeInTheDocument() // asks first (issue 30, item 15)
    await user.click(await screen.findByTestId('confirm-revoke'))
    expect(await screen.findByTestId('rules-empty')).toHaveTextContent('Nothing is allowed by default')
  })

  it('chat options on a new (lazy) chat are applied right after CreateChat', async () => {
    const user = userEvent.setup()
    const fake = await boot({ empty: true, tick: 2 })
    await user.click(screen.getByTestId('new-chat'))
    // new chats call tools the settings' way (Auto), natively with the demo model
    await waitFor(() => expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('Auto · native'))
    await user.click(screen.getByTestId('chat-options'))
    await user.click(screen.getByTestId('tool-mode-text'))
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('JSON')
    const xml = screen.getAllByTestId('paradigm-option').find((r) => (r as HTMLInputElement).value === 'xml')!
    await user.click(xml)
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('XML tags')
    await user.click(screen.getByTestId('recognize-others'))
    expect(screen.getByTestId('recognize-others')).toHaveAttribute('aria-checked', 'false')
    await user.keyboard('{Escape}')
    await user.type(screen.getByTestId('composer'), 'calculate 1+2{Enter}')
    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    expect(card).toHaveAttribute('data-state', 'pending')
    const chatId = screen.getAllByTestId('chat-item')[0].dataset.chatId!
    const chats = (await window.go!.main!.App!.ListChats()) as { id: string; paradigm: string; recognizeOthers: boolean }[]
    expect(chats.find((c) => c.id === chatId)).toMatchObject({ paradigm: 'xml', recognizeOthers: false, toolMode: 'text' })
    // the model was taught XML: the call was read from a <tool_code> tag
    expect(fake.calls[0].format).toBe('xml')
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('XML tags')
  })

  it('an existing chat saves its options with SetChatOptions', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('chat-options'))
    const vcp = screen.getAllByTestId('paradigm-option').find((r) => (r as HTMLInputElement).value === 'vcp')!
    await user.click(vcp)
    const chatId = screen.getAllByTestId('chat-item')[0].dataset.chatId!
    await waitFor(async () => {
      const chats = (await window.go!.main!.App!.ListChats()) as { id: string; paradigm: string }[]
      expect(chats.find((c) => c.id === chatId)?.paradigm).toBe('vcp')
    })
    expect(screen.getByTestId('paradigm-chip')).toHaveTextContent('VCP')
  })

  it('loads the cards of an existing chat (ListCalls) in every state', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByText('Tool calls: time, maths and a broken call'))
    await waitFor(() => expect(screen.getAllByTestId('tool-card')).toHaveLength(6))
    const states = screen.getAllByTestId('tool-card').map((c) => `${c.dataset.tool}:${c.dataset.state}`)
    expect(states).toEqual([
      'get_current_time:done',
      'calculate:done',
      'calculate:denied',
      'teleport:problem',
      'get_current_time:pending',
      'get_current_time:pending',
    ])
    expect(screen.getByTestId('run-all')).toBeInTheDocument()
    expect(screen.getByTestId('guard-note')).toHaveTextContent('Loop guard')
    expect(screen.getAllByTestId('tool-card')[1]).toHaveTextContent('Edited before running')
  })

  it('Tool lab: tools, prompts, and the playground scanning pasted text into read-only cards', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('tool-lab-open'))
    const lab = await screen.findByTestId('tool-lab')
    // Airlock's 5 tools, then the ready MCP server's 2 under its name (the failed one offers none)
    expect(await within(lab).findAllByTestId('lab-tool')).toHaveLength(7)
    const groups = within(lab).getAllByTestId('lab-tool-group')
    expect(groups.map((g) => g.dataset.server ?? '')).toEqual(['', 'everything'])
    expect(within(groups[1]).getAllByTestId('lab-tool').map((x) => x.dataset.tool)).toEqual(['mcp__everything__echo', 'mcp__everything__tiny_image'])
    expect(within(groups[1]).getByTestId('lab-mcp-note')).toHaveTextContent('Runs outside Airlock: the MCP server “everything”')
    expect(within(groups[0]).queryByTestId('lab-mcp-note')).toBeNull()
    await user.click(screen.getByTestId('lab-tab-prompts'))
    expect(screen.getByTestId('lab-prompt')).toHaveTextContent('tool_calls')
    await user.click(screen.getByTestId('lab-prompt-xml'))
    expect(screen.getByTestId('lab-prompt')).toHaveTextContent('<tool_code>')
    await user.click(screen.getByTestId('lab-tab-playground'))
    const input = screen.getByTestId('lab-input')
    await user.clear(input)
    await user.click(input)
    await user.paste('<think>{"tool_calls":[]}</think>\n<tool_call>{"name":"calculate","arguments":{"expression":"1+1"}}</tool_call>')
    await waitFor(() => expect(within(screen.getByTestId('lab-calls')).getAllByTestId('tool-card')).toHaveLength(1))
    const card = within(screen.getByTestId('lab-calls')).getByTestId('tool-card')
    expect(card).toHaveAttribute('data-tool', 'calculate')
    expect(within(card).getByTestId('call-family')).toHaveTextContent('Hermes')
    expect(within(card).queryByTestId('approve')).toBeNull()
    expect(screen.getByTestId('lab-ignored')).toHaveTextContent('skipped: reasoning')
    // without other formats, the Hermes tag is not a call
    await user.click(screen.getByTestId('lab-recognize-others'))
    await waitFor(() => expect(within(screen.getByTestId('lab-calls')).queryAllByTestId('tool-card')).toHaveLength(0))
    await user.selectOptions(screen.getByTestId('lab-paradigm'), 'auto')
    await waitFor(() => expect(within(screen.getByTestId('lab-calls')).getAllByTestId('tool-card')).toHaveLength(1))
    // back to the chat
    await user.click(screen.getAllByTestId('chat-item')[0])
    expect(screen.queryByTestId('tool-lab')).toBeNull()
  })

  it('files panel: Ctrl+Shift+E toggles it (remembered); a new chat keeps its workspace choice until the first Send', async () => {
    const user = userEvent.setup()
    localStorage.clear()
    resetStore()
    await boot()
    await user.click(screen.getByTestId('new-chat'))
    expect(screen.queryByTestId('files-panel')).toBeNull()
    await user.keyboard('{Control>}{Shift>}E{/Shift}{/Control}')
    const panel = await screen.findByTestId('files-panel')
    expect(screen.getByTestId('files-toggle')).toHaveAttribute('aria-pressed', 'true')
    expect(localStorage.getItem('airlock.filesPanel')).toBe('open')
    expect(within(panel).getByTestId('files-empty')).toHaveTextContent('Nothing outside it is reachable.')
    // the shortcut takes focus into the panel
    await waitFor(() => expect(within(panel).getByTestId('workspace-settings')).toHaveFocus())

    await user.click(within(panel).getByTestId('workspace-settings'))
    const dialog = await screen.findByTestId('workspace-dialog')
    await user.click(within(dialog).getAllByTestId('workspace-kind-option')[2])
    await user.click(within(dialog).getByTestId('workspace-browse'))
    await waitFor(() => expect(within(dialog).getByTestId('workspace-dir')).toHaveValue('/home/you/projects/site'))
    await user.click(within(dialog).getByTestId('workspace-save'))
    await waitFor(() => expect(screen.queryByTestId('workspace-dialog')).toBeNull())
    expect(within(panel).getByTestId('workspace-kind')).toHaveTextContent('Overlay')

    await user.type(screen.getByTestId('composer'), 'What is Airlock?{Enter}')
    // created, then set to the overlay before the answer: the panel lists the folder
    await waitFor(() => expect(within(screen.getByTestId('files-panel')).getAllByTestId('file-entry').length).toBeGreaterThan(0), { timeout: 3000 })
    const id = useStore.getState().activeChatId!
    expect(useStore.getState().chats.find((c) => c.id === id)).toMatchObject({ workspaceKind: 'overlay', workspaceDir: '/home/you/projects/site' })
    expect(screen.getAllByTestId('file-entry').map((e) => e.dataset.path)).toContain('README.md')

    await user.click(screen.getByTestId('files-toggle'))
    expect(screen.queryByTestId('files-panel')).toBeNull()
    expect(localStorage.getItem('airlock.filesPanel')).toBe('closed')
  })

  it('menu events: about, settings, new chat', async () => {
    const user = userEvent.setup()
    const fake = await boot()
    act(() => fake.emit('menu:about', null))
    const about = await screen.findByTestId('about-dialog')
    await waitFor(() => expect(within(about).getByTestId('about-data-dir')).toHaveTextContent('/home/mara/.local/share/airlock'))
    expect(within(about).getByTestId('about-log-file')).toHaveTextContent('airlock.log')
    await user.click(within(about).getByTestId('open-data-dir'))
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('about-dialog')).toBeNull()
    act(() => fake.emit('menu:settings', null))
    expect(await screen.findByTestId('settings-dialog')).toBeInTheDocument()
    act(() => fake.emit('menu:new-chat', null))
    expect(screen.queryByTestId('settings-dialog')).toBeNull()
    expect(await screen.findAllByTestId('suggestion')).not.toHaveLength(0)
  })

  it('Settings → General saves the tool-loop settings (and validates the ranges)', async () => {
    const user = userEvent.setup()
    const fake = await boot()
    await user.click(screen.getByTestId('settings-open'))
    await user.click(screen.getByTestId('settings-tab-general'))
    expect(screen.getByTestId('auto-continue')).toHaveAttribute('aria-checked', 'true')
    await user.click(screen.getByTestId('auto-continue'))
    const turns = screen.getByTestId('max-turns')
    await user.clear(turns)
    await user.type(turns, '0')
    expect(screen.getByTestId('settings-save')).toBeDisabled()
    expect(screen.getByText('Enter a whole number from 1 to 1000.')).toBeInTheDocument()
    await user.clear(turns)
    await user.type(turns, '5')
    const timeout = screen.getByTestId('tool-timeout')
    await user.clear(timeout)
    await user.type(timeout, '90')
    await user.click(screen.getByTestId('settings-save'))
    await screen.findByText('Settings saved.')
    expect(fake.settings()).toMatchObject({ autoContinue: false, maxTurns: 5, toolTimeoutSeconds: 90 })
    // Save is disabled now; focus is on the "Saved" line, not the page, and Escape still closes Settings.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('general-status')))
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('settings-dialog')).toBeNull()
  })

  it('"Connect a real model" opens the Add provider form, not the demo provider', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('new-chat'))
    await user.click(await screen.findByTestId('connect-real-model'))
    await screen.findByTestId('settings-dialog')
    expect(screen.getByTestId('provider-name')).toHaveValue('')
    expect(screen.getByTestId('provider-add')).toHaveClass('is-selected')
  })

  it('Escape closes Settings even when focus fell to the page', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('settings-open'))
    await screen.findByTestId('settings-dialog')
    ;(document.activeElement as HTMLElement).blur()
    expect(document.activeElement).toBe(document.body)
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('settings-dialog')).toBeNull()
  })
})
