import { describe, expect, it, vi, beforeEach } from 'vitest'
import type { Message, StreamDelta } from '../api'

// Mock the api module: the store must only talk to Go through it.
vi.mock('../api', async (orig) => {
  const real = await orig<typeof import('../api')>()
  return {
    ...real,
    api: {
      getMessage: vi.fn(),
      send: vi.fn(),
      retry: vi.fn(),
      stop: vi.fn(),
      listMessages: vi.fn(),
      listChats: vi.fn().mockResolvedValue([]),
      createChat: vi.fn(),
      listCalls: vi.fn().mockResolvedValue([]),
    },
  }
})

import { api } from '../api'
import { resetStore, useStore } from './index'
import { mergeSnapshot, decideDelta, freshSync } from './stream'

const mocked = api as unknown as Record<string, ReturnType<typeof vi.fn>>

const msg = (over: Partial<Message> = {}): Message => ({
  id: 'm1',
  chatId: 'c1',
  role: 'assistant',
  kind: 'text',
  content: '',
  reasoning: '',
  status: 'streaming',
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  createdAt: 2,
  updatedAt: 2,
  ...over,
})
const delta = (seq: number, content: string, reasoning = ''): StreamDelta => ({
  chatId: 'c1',
  messageId: 'm1',
  seq,
  content,
  reasoning,
})
const current = () => useStore.getState().messages.c1?.find((m) => m.id === 'm1')
const flush = () => new Promise((r) => setTimeout(r, 0))

/** A loaded chat with a user message and a fresh streaming placeholder (as after Send). */
async function startStreaming() {
  mocked.send.mockResolvedValueOnce([
    msg({ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: 1 }),
    msg(),
  ])
  useStore.setState({ activeChatId: 'c1', messages: { c1: [] }, chats: [{ id: 'c1', title: '', createdAt: 0, updatedAt: 0, paradigm: 'json', recognizeOthers: true }] })
  expect(await useStore.getState().send('hi')).toBe(true)
}

describe('stream reducer', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })

  it('appends deltas in order (content and reasoning)', async () => {
    await startStreaming()
    const { handleDelta } = useStore.getState()
    handleDelta(delta(1, '', 'think '))
    handleDelta(delta(2, '', 'hard'))
    handleDelta(delta(3, 'Hello'))
    handleDelta(delta(4, ', world'))
    expect(current()?.content).toBe('Hello, world')
    expect(current()?.reasoning).toBe('think hard')
    expect(useStore.getState().streaming.c1).toBe(true)
    expect(mocked.getMessage).not.toHaveBeenCalled()
  })

  it('ignores duplicate deltas', async () => {
    await startStreaming()
    const { handleDelta } = useStore.getState()
    handleDelta(delta(1, 'a'))
    handleDelta(delta(2, 'b'))
    handleDelta(delta(2, 'b'))
    handleDelta(delta(1, 'a'))
    expect(current()?.content).toBe('ab')
  })

  it('re-reads the whole message when a seq gap appears (never loses text)', async () => {
    await startStreaming()
    const { handleDelta } = useStore.getState()
    handleDelta(delta(1, 'The '))
    handleDelta(delta(2, 'quick '))
    // seq 3 ("brown ") is lost on the wire
    let resolve!: (m: Message) => void
    mocked.getMessage.mockImplementationOnce(() => new Promise<Message>((r) => (resolve = r)))
    handleDelta(delta(4, 'fox '))
    expect(mocked.getMessage).toHaveBeenCalledWith('m1')
    // more deltas arrive while the re-read is in flight
    handleDelta(delta(5, 'jumps'))
    expect(current()?.content).toBe('The quick ') // parked, not applied out of order
    // the snapshot already holds 3 and 4 but not 5
    resolve(msg({ content: 'The quick brown fox ' }))
    await flush()
    expect(current()?.content).toBe('The quick brown fox jumps')
    // and the stream carries on normally afterwards
    useStore.getState().handleDelta(delta(6, ' over'))
    expect(current()?.content).toBe('The quick brown fox jumps over')
    expect(mocked.getMessage).toHaveBeenCalledTimes(1)
  })

  it('stream:end replaces the message with the final one', async () => {
    await startStreaming()
    const { handleDelta, handleEnd } = useStore.getState()
    handleDelta(delta(1, 'partial'))
    const final = msg({
      content: 'partial and complete',
      status: 'complete',
      model: 'airlock-demo',
      usage: { promptTokens: 40, completionTokens: 112, totalTokens: 152 },
    })
    handleEnd({ chatId: 'c1', messageId: 'm1', seq: 2, message: final })
    expect(current()).toEqual(final)
    expect(useStore.getState().streaming.c1).toBeUndefined()
    // late deltas for a finished message are ignored
    useStore.getState().handleDelta(delta(2, ' late'))
    expect(current()?.content).toBe('partial and complete')
  })

  it('stream:end carries errors through', async () => {
    await startStreaming()
    useStore.getState().handleEnd({
      chatId: 'c1',
      messageId: 'm1',
      seq: 1,
      message: msg({ status: 'error', errorCode: 'http_500', errorMessage: 'boom' }),
    })
    expect(current()?.status).toBe('error')
    expect(current()?.errorCode).toBe('http_500')
  })

  it('applies deltas that arrive before Send returns', async () => {
    useStore.setState({ activeChatId: 'c1', messages: { c1: [] } })
    let resolve!: (v: Message[]) => void
    mocked.send.mockImplementationOnce(() => new Promise((r) => (resolve = r)))
    const sending = useStore.getState().send('hi')
    await flush()
    useStore.getState().handleDelta(delta(1, 'Hel'))
    useStore.getState().handleDelta(delta(2, 'lo'))
    resolve([msg({ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: 1 }), msg()])
    await sending
    expect(current()?.content).toBe('Hello')
    expect(useStore.getState().messages.c1.map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('a stream:end that beats Send’s reply still wins', async () => {
    useStore.setState({ activeChatId: 'c1', messages: { c1: [] } })
    let resolve!: (v: Message[]) => void
    mocked.send.mockImplementationOnce(() => new Promise((r) => (resolve = r)))
    const sending = useStore.getState().send('hi')
    await flush()
    useStore.getState().handleEnd({
      chatId: 'c1',
      messageId: 'm1',
      seq: 1,
      message: msg({ status: 'error', errorMessage: 'no key', errorCode: 'unauthorized' }),
    })
    resolve([msg({ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: 1 }), msg()])
    await sending
    expect(current()?.status).toBe('error')
    expect(useStore.getState().streaming.c1).toBeUndefined()
  })

  it('retry drops the failed answer and streams the new one', async () => {
    useStore.setState({
      activeChatId: 'c1',
      messages: {
        c1: [
          msg({ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: 1 }),
          msg({ id: 'old', status: 'error', errorMessage: 'x' }),
        ],
      },
    })
    mocked.retry.mockResolvedValueOnce(msg({ id: 'm1', createdAt: 3 }))
    await useStore.getState().retry()
    const ids = useStore.getState().messages.c1.map((m) => m.id)
    expect(ids).toEqual(['u1', 'm1'])
    useStore.getState().handleDelta(delta(1, 'again'))
    expect(current()?.content).toBe('again')
  })

  it('a failed Send surfaces an error toast', async () => {
    useStore.setState({ activeChatId: 'c1', messages: { c1: [] } })
    mocked.send.mockRejectedValueOnce(JSON.stringify({ code: 'busy', message: 'Already answering.' }))
    expect(await useStore.getState().send('hi')).toBe(false)
    const toast = useStore.getState().toasts[0]
    expect(toast).toMatchObject({ kind: 'error', message: 'Already answering.', code: 'busy' })
    expect(useStore.getState().streaming.c1).toBeUndefined()
  })
})

describe('pure helpers', () => {
  it('decideDelta classifies seqs', () => {
    expect(decideDelta(freshSync(0), 1).kind).toBe('apply')
    expect(decideDelta(freshSync(3), 3).kind).toBe('duplicate')
    expect(decideDelta(freshSync(3), 5).kind).toBe('resync')
    expect(decideDelta(freshSync(null), 1).kind).toBe('resync')
    expect(decideDelta({ lastSeq: 2, resyncing: true, buffer: [] }, 3).kind).toBe('buffer')
  })

  it('mergeSnapshot appends only what the snapshot lacks', () => {
    const parked = [delta(4, 'C'), delta(5, 'D'), delta(6, 'E')]
    expect(mergeSnapshot(msg({ content: 'AB' }), parked).content).toBe('ABCDE')
    expect(mergeSnapshot(msg({ content: 'ABC' }), parked).content).toBe('ABCDE')
    expect(mergeSnapshot(msg({ content: 'ABCDE' }), parked).content).toBe('ABCDE')
  })
})

describe('stop while Send is still in flight', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })

  it('defers Stop until Send returns, then stops the stream', async () => {
    useStore.setState({ activeChatId: 'c1', messages: { c1: [] } })
    let resolve!: (v: Message[]) => void
    mocked.send.mockImplementationOnce(() => new Promise((r) => (resolve = r)))
    mocked.stop.mockResolvedValue(undefined)
    const sending = useStore.getState().send('hi')
    await flush()
    await useStore.getState().stop()
    expect(mocked.stop).not.toHaveBeenCalled() // the backend may not know the stream yet
    resolve([msg({ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: 1 }), msg()])
    await sending
    await flush()
    expect(mocked.stop).toHaveBeenCalledWith('c1')
  })
})
