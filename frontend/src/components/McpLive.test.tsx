import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Call, McpQuestion, ToolSpec } from '../api'
import { resetStore, useStore } from '../store'
import { groupByMessage } from '../store/calls'
import { resetMcpLive, useMcpLive } from '../store/mcpLive'
import { ToolCard } from './ToolCard'

const running: Call = {
  id: 'k1', modelCallId: 'c1', chatId: 'chat1', messageId: 'm1', index: 0, name: 'mcp__everything__ask',
  arguments: {}, raw: '', format: 'json', state: 'running', createdAt: 1, updatedAt: 1,
}
const TOOLS: ToolSpec[] = [{ name: 'mcp__everything__ask', description: '', kind: 'mcp', server: 'everything' }]

const form: McpQuestion = {
  id: 'q1', chatId: 'chat1', callId: 'k1', server: 'everything', tool: 'ask', mode: 'form', message: 'Tell me about you',
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      age: { type: 'integer', minimum: 0 },
      pet: { type: 'string', enum: ['cat', 'dog'], default: 'dog' },
      subscribe: { type: 'boolean', default: true },
    },
    required: ['name'],
  },
  url: '', domain: '',
}

let Answer: ReturnType<typeof vi.fn>

function show(q: McpQuestion[]) {
  useStore.setState({ tools: TOOLS, callsByMessage: groupByMessage([running]) })
  useMcpLive.setState({ questions: q })
  return render(<ToolCard call={running} paradigm="json" />)
}

describe('MCP questions and progress on a running card', () => {
  beforeEach(() => {
    resetStore()
    resetMcpLive()
    Answer = vi.fn(async () => undefined)
    window.go = { main: { App: { AnswerMCPQuestion: Answer } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
  })
  afterEach(() => {
    window.go = undefined
  })

  it('a form from the schema, naming the server, defaults filled in, required checked, sent on Send', async () => {
    show([form])
    const q = screen.getByTestId('mcp-question')
    expect(within(q).getByTestId('mcp-question-server')).toHaveTextContent('everything asks')
    expect(within(q).getByTestId('mcp-question-message')).toHaveTextContent('Tell me about you')
    expect(within(q).getByTestId('mcp-answer-pet')).toHaveValue('dog')
    expect(within(q).getByTestId('mcp-answer-subscribe')).toBeChecked()
    await userEvent.click(within(q).getByTestId('mcp-question-accept'))
    expect(Answer).not.toHaveBeenCalled() // name is required
    await userEvent.type(within(q).getByTestId('mcp-answer-name'), 'Ada')
    await userEvent.type(within(q).getByTestId('mcp-answer-age'), '36')
    await userEvent.click(within(q).getByTestId('mcp-question-accept'))
    expect(Answer).toHaveBeenCalledWith('q1', 'accept', { name: 'Ada', age: 36, pet: 'dog' })
    await waitFor(() => expect(screen.queryByTestId('mcp-question')).toBeNull())
  })

  it('a multi-select (array of choices) shows as checkboxes, with defaults, titles and the required check', async () => {
    show([{ ...form, schema: { type: 'object', required: ['colors'], properties: {
      colors: { type: 'array', items: { type: 'string', enum: ['red', 'green', 'blue'] }, default: ['green'] },
      sizes: { type: 'array', items: { anyOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] } },
    } } }])
    const q = screen.getByTestId('mcp-question')
    const colors = within(q).getByTestId('mcp-answer-colors')
    const boxes = within(colors).getAllByRole('checkbox') as HTMLInputElement[]
    expect(boxes.map((b) => `${b.dataset.value}:${b.checked}`)).toEqual(['red:false', 'green:true', 'blue:false'])
    expect(within(q).getByTestId('mcp-answer-sizes')).toHaveTextContent('SmallLarge')
    await userEvent.click(boxes[1]) // none chosen: required
    await userEvent.click(within(q).getByTestId('mcp-question-accept'))
    expect(Answer).not.toHaveBeenCalled()
    await userEvent.click(boxes[2])
    await userEvent.click(boxes[0])
    await userEvent.click(within(within(q).getByTestId('mcp-answer-sizes')).getByLabelText('Large'))
    await userEvent.click(within(q).getByTestId('mcp-question-accept'))
    expect(Answer).toHaveBeenCalledWith('q1', 'accept', { colors: ['blue', 'red'], sizes: ['l'] })
  })

  it('Decline and Cancel send no values', async () => {
    show([form, { ...form, id: 'q2' }])
    const [a, b] = screen.getAllByTestId('mcp-question')
    await userEvent.click(within(a).getByTestId('mcp-question-decline'))
    await userEvent.click(within(b).getByTestId('mcp-question-cancel'))
    expect(Answer.mock.calls).toEqual([['q1', 'decline', null], ['q2', 'cancel', null]])
  })

  it('a link question shows the domain and opens only through its button', async () => {
    show([{ ...form, mode: 'url', schema: null, url: 'https://pay.example.com/x', domain: 'pay.example.com' }])
    const q = screen.getByTestId('mcp-question')
    expect(within(q).getByTestId('mcp-question-server')).toHaveTextContent('everything asks you to open a page on pay.example.com')
    expect(within(q).getByTestId('mcp-question-accept')).toHaveTextContent('Open pay.example.com')
    await userEvent.click(within(q).getByTestId('mcp-question-accept'))
    expect(Answer).toHaveBeenCalledWith('q1', 'accept', null)
  })

  it('a question of another call stays off this card; an ended question says why it failed', async () => {
    Answer.mockRejectedValueOnce({ code: 'no_browser', message: 'No web browser could be opened for this link.' })
    show([{ ...form, id: 'other', callId: 'k2' }, { ...form, mode: 'url', schema: null, url: 'https://a.example', domain: 'a.example' }])
    expect(screen.getAllByTestId('mcp-question')).toHaveLength(1)
    await userEvent.click(screen.getByTestId('mcp-question-accept'))
    expect(await screen.findByTestId('mcp-question-error')).toHaveTextContent('No web browser')
  })

  it('progress: a bar when the total is known, the count otherwise', () => {
    useMcpLive.setState({ progress: { k1: { chatId: 'chat1', server: 'everything', callId: 'k1', progress: 3, total: 10, message: 'step 3' } } })
    const { unmount } = show([])
    expect(screen.getByTestId('mcp-progress-bar')).toHaveAttribute('value', '30')
    expect(screen.getByTestId('mcp-progress-text')).toHaveTextContent('3 of 10 · step 3')
    unmount()
    useMcpLive.setState({ progress: { k1: { chatId: 'chat1', server: 'everything', callId: 'k1', progress: 4 } } })
    show([])
    expect(screen.queryByTestId('mcp-progress-bar')).toBeNull()
    expect(screen.getByTestId('mcp-progress-text')).toHaveTextContent('4 so far')
  })
})

describe('MCP tool hints on cards', () => {
  beforeEach(() => resetStore())

  it('shows the server’s title and read-only or destructive hints', () => {
    useStore.setState({
      tools: [
        { name: 'mcp__everything__ask', description: '', kind: 'mcp', server: 'everything', hints: { title: 'Ask a question', readOnly: true } },
        { name: 'mcp__everything__wipe', description: '', kind: 'mcp', server: 'everything', hints: { destructive: true } },
      ],
    })
    const { unmount } = render(<ToolCard call={{ ...running, state: 'pending' }} paradigm="json" />)
    expect(screen.getByTestId('mcp-hint-title')).toHaveTextContent('Ask a question')
    expect(screen.getByTestId('mcp-hint-readonly')).toHaveTextContent('read-only')
    expect(screen.queryByTestId('mcp-hint-destructive')).toBeNull()
    unmount()
    render(<ToolCard call={{ ...running, id: 'k9', name: 'mcp__everything__wipe', state: 'pending' }} paradigm="json" />)
    expect(screen.getByTestId('mcp-hint-destructive')).toHaveTextContent('may delete or overwrite')
    expect(screen.queryByTestId('mcp-hint-readonly')).toBeNull()
  })
})
