// Per-chat models, agents and the tool checklist: the real App against the preview's fake Go backend (preview/fake-agents.ts).
import { beforeEach, describe, expect, it } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { installFakeBackend } from '../preview/fake-backend'
import { App } from './App'
import { resetStore } from './store'
import { resetAgents } from './store/agents'
import { resetMcp } from './store/mcp'
import { resetModelMode } from './store/modelMode'

type ChatRow = { id: string; providerId: string; model: string; agentId: string; toolToggles: Record<string, boolean> | null }
const chats = async () => (await window.go!.main!.App!.ListChats()) as ChatRow[]

async function boot() {
  const fake = installFakeBackend({ tick: 2 })
  render(<App />)
  await screen.findByTestId('composer')
  return fake
}

describe('agents and per-chat models', { timeout: 20000 }, () => {
  beforeEach(() => {
    resetStore()
    resetAgents()
    resetMcp()
    resetModelMode()
  })

  it('the model chip opens a searchable picker grouped by provider; a pick switches this chat only', async () => {
    const user = userEvent.setup()
    await boot()
    const [first, second] = screen.getAllByTestId('chat-item')
    await user.click(first)
    await user.click(screen.getByTestId('model-chip'))
    const picker = await screen.findByTestId('model-picker')
    await waitFor(() => expect(within(picker).getAllByTestId('model-group').length).toBeGreaterThanOrEqual(2))
    // The demo's other two models are one click away.
    const demo = within(picker).getAllByTestId('model-group').find((g) => g.dataset.provider === 'demo')!
    expect(within(demo).getAllByTestId('model-option').map((o) => o.dataset.model)).toEqual(['airlock-demo', 'airlock-demo-ignores-tools', 'airlock-demo-text-only'])
    // A server that lists nothing says why.
    expect(within(picker).getByText(/is Ollama running/)).toBeInTheDocument()
    await user.type(within(picker).getByTestId('model-search'), 'o3')
    const found = within(picker).getAllByTestId('model-option').map((o) => `${o.dataset.provider}/${o.dataset.model}`)
    // Matches, and on the server that lists nothing, what was typed.
    expect(found).toEqual(['p-openai/o3-mini', 'p-ollama/o3'])
    await user.click(within(picker).getAllByTestId('model-option')[0])
    await waitFor(() => expect(screen.getByTestId('model-chip')).toHaveAttribute('data-model', 'o3-mini'))
    const rows = await chats()
    expect(rows.find((c) => c.id === first.dataset.chatId)).toMatchObject({ providerId: 'p-openai', model: 'o3-mini' })
    expect(rows.find((c) => c.id === second.dataset.chatId)?.model).toBe('airlock-demo')

    // The other chat still shows its own model.
    await user.click(second)
    await waitFor(() => expect(screen.getByTestId('model-chip')).toHaveAttribute('data-model', 'airlock-demo'))
  })

  it('a new chat takes the agent picked before its first message', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('new-chat'))
    await user.click(await screen.findByTestId('agent-chip'))
    await user.click(screen.getAllByTestId('agent-option').find((o) => o.dataset.agent === 'plain')!)
    await waitFor(() => expect(screen.getByTestId('agent-chip')).toHaveAttribute('data-agent', 'plain'))
    await user.type(screen.getByTestId('composer'), 'hello{Enter}')
    await waitFor(() => expect(screen.getAllByTestId('chat-item')[0]).toHaveAttribute('data-active', 'true'))
    const id = screen.getAllByTestId('chat-item')[0].dataset.chatId
    expect((await chats()).find((c) => c.id === id)?.agentId).toBe('plain')
  })

  it('the chat options open the tool checklist: counts, token costs, a toggle is saved, and a rule is not a toggle', async () => {
    const user = userEvent.setup()
    await boot()
    const chat = screen.getAllByTestId('chat-item')[0]
    await user.click(chat)
    await user.click(screen.getByTestId('chat-options'))
    await user.click(await screen.findByTestId('chat-tools-open'))
    const dialog = await screen.findByTestId('chat-tools')
    expect(within(dialog).getByTestId('rule-vs-toggle')).toHaveTextContent('A toggle is not a rule')
    const calc = await within(dialog).findByRole('checkbox', { name: /calculate/ })
    expect(calc).toHaveAttribute('data-testid', 'tool-toggle')
    expect(calc).toBeChecked()
    const before = within(dialog).getByTestId('chat-tools-count').textContent
    await user.click(calc)
    await waitFor(() => expect(calc).not.toBeChecked())
    expect(within(dialog).getByTestId('chat-tools-count').textContent).not.toBe(before)
    expect((await chats()).find((c) => c.id === chat.dataset.chatId)?.toolToggles).toEqual({ calculate: false })
    // Back to the agent's choice drops the chat's own toggles.
    await user.click(within(dialog).getByTestId('chat-tools-reset'))
    await waitFor(() => expect(calc).toBeChecked())
    expect((await chats()).find((c) => c.id === chat.dataset.chatId)?.toolToggles).toBeNull()
  })
})
