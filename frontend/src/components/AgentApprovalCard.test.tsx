import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { blankAgent, type Call, type Chat } from '../api'
import { resetStore, useStore } from '../store'
import { resetAgents, useAgents } from '../store/agents'
import { groupByMessage } from '../store/calls'
import { ToolCard } from './ToolCard'

const call = (over: Partial<Call> = {}): Call => ({
  id: 'k1',
  modelCallId: 'call_1',
  chatId: 'chat1',
  messageId: 'm1',
  index: 0,
  name: 'read_file',
  arguments: { path: 'a.md' },
  raw: '',
  format: 'json',
  state: 'pending',
  createdAt: 1000,
  updatedAt: 1000,
  ...over,
})
const chat: Chat = { id: 'chat1', title: 't', createdAt: 1, updatedAt: 1, paradigm: 'json', recognizeOthers: true, agentId: 'careful' }

function show(c: Call, approval: 'rules' | 'reads' | 'ask') {
  useStore.setState({ chats: [chat], callsByMessage: groupByMessage([c]) })
  useAgents.setState({ agents: [{ ...blankAgent(), id: 'careful', name: 'Careful one', approval }] })
  return render(<ToolCard call={c} paradigm="json" />)
}

beforeEach(() => {
  resetStore()
  resetAgents()
  window.go = { main: { App: { RuleOptions: vi.fn(async () => ({})) } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
})
afterEach(() => {
  delete window.go
})

describe('a card in a chat whose agent has approval defaults', () => {
  it('says a rule for every chat will not run calls here when the agent asks every time', async () => {
    const user = userEvent.setup()
    show(call(), 'ask')
    await user.click(screen.getByTestId('always-allow'))
    expect(within(screen.getByRole('menu')).getByTestId('always-allow-everywhere')).toHaveTextContent('asks every time')
  })

  it('keeps the usual words when the agent lets the rules decide', async () => {
    const user = userEvent.setup()
    show(call(), 'rules')
    await user.click(screen.getByTestId('always-allow'))
    expect(within(screen.getByRole('menu')).getByTestId('always-allow-everywhere')).not.toHaveTextContent('asks every time')
  })

  it('names the agent that ran a read without asking', () => {
    show(call({ state: 'done', decidedBy: 'agent:careful', decidedAt: 2000, resultStatus: 'success', result: 'x' }), 'reads')
    expect(screen.getByTestId('call-decision')).toHaveTextContent('Ran without asking: agent Careful one')
  })
})
