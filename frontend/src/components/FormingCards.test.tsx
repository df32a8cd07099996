import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act, render, screen, within } from '@testing-library/react'
import type { Call, Message } from '../api'
import { resetStore, useStore } from '../store'
import { groupByMessage } from '../store/calls'
import { resetForming, subscribeForming } from '../store/forming'
import { MessageItem } from './MessageItem'
import { ToolCard } from './ToolCard'
import { formingText } from './FormingCards'

let handlers: Record<string, (d: unknown) => void>
const fire = (name: string, data: unknown) => act(() => handlers[name]?.(data))
const forming = (calls: unknown[], messageId = 'm1') => fire('calls:forming', { chatId: 'c1', messageId, calls })

const answer = (over: Partial<Message> = {}): Message => ({
  id: 'm1',
  chatId: 'c1',
  role: 'assistant',
  kind: 'text',
  content: 'Let me check.',
  reasoning: '',
  status: 'streaming',
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  createdAt: 1,
  updatedAt: 1,
  ...over,
})

const cards = () => screen.queryAllByTestId('forming-card')

describe('cards that form while the model writes', () => {
  let off: () => void
  beforeEach(() => {
    resetStore()
    resetForming()
    handlers = {}
    window.runtime = { EventsOn: (name, cb) => ((handlers[name] = cb), () => delete handlers[name]) }
    useStore.setState({ activeChatId: 'c1' })
    off = subscribeForming()
  })
  afterEach(() => {
    off()
    delete window.runtime
  })

  it('appear from calls:forming under the streaming answer, each event replacing the last, with the arguments so far and nothing to approve', () => {
    const { rerender } = render(<MessageItem message={answer()} canRetry={false} onRetry={() => {}} paradigm="json" />)
    expect(cards()).toHaveLength(0)

    // the call begins: no name yet
    forming([{ name: '', arguments: '', format: 'native', complete: false }])
    expect(cards()).toHaveLength(1)
    expect(cards()[0]).toHaveAttribute('data-tool', '')
    expect(cards()[0]).toHaveAttribute('data-state', 'forming')
    expect(cards()[0]).toHaveAttribute('data-format', 'native')
    expect(within(cards()[0]).getByTestId('forming-name')).toHaveTextContent('reading the call…')
    expect(within(cards()[0]).getByTestId('forming-format')).toHaveTextContent('native call')
    expect(within(cards()[0]).getByTestId('forming-status')).toHaveTextContent('writing…')

    // the whole list again, grown: replaced, not appended
    forming([{ name: 'calculate', arguments: '{"expression": "17*', format: 'native', complete: false }])
    expect(cards()).toHaveLength(1)
    expect(cards()[0]).toHaveAttribute('data-tool', 'calculate')
    expect(within(cards()[0]).getByTestId('forming-args').textContent).toBe('{"expression": "17*')
    expect(within(cards()[0]).queryByTestId('forming-waiting')).toBeNull()

    forming([
      { name: 'calculate', arguments: '{"expression": "17*23"}', format: 'native', complete: true },
      { name: 'get_current_time', arguments: '{"timez', format: 'native', complete: false },
    ])
    expect(cards().map((c) => c.dataset.tool)).toEqual(['calculate', 'get_current_time'])
    // a whole call's arguments are pretty-printed, and it waits for the answer to end
    expect(within(cards()[0]).getByTestId('forming-args').textContent).toBe('{\n  "expression": "17*23"\n}')
    expect(within(cards()[0]).getByTestId('forming-status')).toHaveTextContent('written')
    expect(within(cards()[0]).getByTestId('forming-waiting')).toHaveTextContent('Waiting for the answer to finish')
    expect(within(cards()[1]).getByTestId('forming-args').textContent).toBe('{"timez')

    // display only: no card to decide, no button at all
    expect(screen.queryAllByTestId('tool-card')).toHaveLength(0)
    for (const c of cards()) {
      expect(within(c).queryAllByRole('button')).toHaveLength(0)
      expect(within(c).queryByTestId('approve')).toBeNull()
    }
    // the typing dots give way to the cards
    expect(document.querySelector('.typing')).toBeNull()

    // the answer ends: the forming cards go (the real cards come as call:updated)
    fire('stream:end', { chatId: 'c1', messageId: 'm1', seq: 5, message: answer({ status: 'complete' }) })
    rerender(<MessageItem message={answer({ status: 'complete' })} canRetry={false} onRetry={() => {}} paradigm="json" />)
    expect(cards()).toHaveLength(0)
  })

  it('a text family is named as it is; another message’s calls stay off this one', () => {
    render(<MessageItem message={answer()} canRetry={false} onRetry={() => {}} paradigm="json" />)
    forming([{ name: 'read_file', arguments: '<path>notes.md', format: 'hermes', complete: false }], 'other')
    expect(cards()).toHaveLength(0)
    forming([{ name: 'read_file', arguments: '{"path": "notes', format: 'hermes', complete: false }])
    expect(within(cards()[0]).getByTestId('forming-format')).toHaveTextContent('hermes')
    expect(cards()[0]).toHaveAttribute('data-format', 'hermes')
  })

  it('a finished answer shows no forming cards, even if an entry lingers', () => {
    render(<MessageItem message={answer({ status: 'interrupted' })} canRetry={false} onRetry={() => {}} paradigm="json" />)
    forming([{ name: 'calculate', arguments: '{}', format: 'native', complete: false }])
    expect(cards()).toHaveLength(0)
  })

  it('pretty-prints only what parses', () => {
    expect(formingText('{"a": [1, 2]}').text).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}')
    expect(formingText('{"a": [1, 2').text).toBe('{"a": [1, 2')
    expect(formingText('"just a string"').text).toBe('"just a string"')
    expect(formingText('{"path": "x"}…').value).toBeUndefined()
  })
})

describe('a native call’s card', () => {
  beforeEach(() => resetStore())

  const call = (over: Partial<Call> = {}): Call => ({
    id: 'k1',
    modelCallId: 'call_1',
    chatId: 'c1',
    messageId: 'm1',
    index: 0,
    name: 'calculate',
    arguments: { expression: '2+2' },
    raw: '{"expression":"2+2"}',
    format: 'native',
    state: 'pending',
    createdAt: 1,
    updatedAt: 1,
    ...over,
  })

  it('says “native call” where the family goes (not “read as native”)', () => {
    useStore.setState({ callsByMessage: groupByMessage([call()]) })
    render(<ToolCard call={call()} paradigm="json" />)
    const card = screen.getByTestId('tool-card')
    expect(within(card).getByTestId('call-family')).toHaveTextContent('native call')
    expect(within(card).queryByTestId('call-format')).toBeNull()
    // still a card to decide
    expect(within(card).getByTestId('approve')).toBeEnabled()
  })

  it('a text call keeps its family tag', () => {
    const c = call({ format: 'hermes', raw: '<tool_call>…</tool_call>' })
    useStore.setState({ callsByMessage: groupByMessage([c]) })
    render(<ToolCard call={c} paradigm="json" />)
    expect(screen.queryByTestId('call-family')).toBeNull()
    expect(screen.getByTestId('call-format')).toHaveTextContent('hermes')
  })
})
