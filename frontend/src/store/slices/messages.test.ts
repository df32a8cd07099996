// The messages slice's Send / Stop / Retry / Continue (stream ordering itself: ../stream.test.ts).
import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../api', async (orig) => {
  const real = await orig<typeof import('../../api')>()
  const createChat = vi.fn()
  return {
    ...real,
    // A new chat is created with its agent (store/agents.ts): the same mock.
    agentsApi: { ...real.agentsApi, createChatWith: () => createChat(), setChatModel: vi.fn() },
    api: {
      createChat,
      setChatOptions: vi.fn(),
      setWorkspace: vi.fn(),
      setChatServers: vi.fn(),
      send: vi.fn(),
      stop: vi.fn(),
      retry: vi.fn(),
      continueChat: vi.fn(),
      listCalls: vi.fn().mockResolvedValue([]),
      deleteChat: vi.fn().mockResolvedValue(undefined),
    },
    finishApi: { checkWorkspaceFolder: vi.fn().mockResolvedValue(undefined) },
  }
})

import { api, ApiError, finishApi, type Message } from '../../api'
import { resetStore, selectIsStreaming, useStore } from '../index'
import { chat } from './testkit'

const mocked = api as unknown as Record<string, ReturnType<typeof vi.fn>>
const st = () => useStore.getState()
const msg = (over: Partial<Message> = {}): Message => ({
  id: 'm1',
  chatId: 'c1',
  role: 'assistant',
  kind: 'text',
  content: '',
  reasoning: '',
  status: 'complete',
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  createdAt: 1,
  updatedAt: 1,
  ...over,
})

describe('messages slice', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })

  it('the first Send creates the lazy chat with what was picked for it, then sends', async () => {
    useStore.setState({ newChatOptions: { paradigm: 'xml', recognizeOthers: true }, newChatWorkspace: { kind: 'folder', dir: '/p' } })
    mocked.createChat.mockResolvedValueOnce(chat({ id: 'n1' }))
    mocked.setChatOptions.mockResolvedValueOnce(chat({ id: 'n1', paradigm: 'xml' }))
    mocked.setWorkspace.mockResolvedValueOnce(chat({ id: 'n1', paradigm: 'xml', workspaceKind: 'folder', workspaceDir: '/p' }))
    mocked.send.mockResolvedValueOnce([msg({ id: 'u', chatId: 'n1', role: 'user', content: 'hi' }), msg({ id: 'a', chatId: 'n1', status: 'streaming' })])
    expect(await st().send('  hi  ')).toBe(true)
    expect(mocked.setChatOptions).toHaveBeenCalledWith('n1', { paradigm: 'xml', recognizeOthers: true })
    expect(mocked.setWorkspace).toHaveBeenCalledWith('n1', 'folder', '/p')
    expect(mocked.send).toHaveBeenCalledWith('n1', 'hi')
    expect(st().activeChatId).toBe('n1')
    expect(st().messages.n1.map((m) => m.id)).toEqual(['u', 'a'])
    expect(selectIsStreaming(st(), 'n1')).toBe(true)
  })

  // Issue 30, item 1: before, a folder that vanished made the new chat fall back to Scratch and send anyway.
  it('the new chat\'s folder gone: nothing is created or sent, never in Scratch, and the chat says why', async () => {
    const check = finishApi.checkWorkspaceFolder as unknown as ReturnType<typeof vi.fn>
    useStore.setState({ newChatWorkspace: { kind: 'folder', dir: '/gone' } })
    check.mockRejectedValueOnce(new ApiError('not_found', 'folder /gone does not exist'))
    expect(await st().send('hi')).toBe(false)
    expect(mocked.createChat).not.toHaveBeenCalled()
    expect(mocked.send).not.toHaveBeenCalled()
    expect(st().newChatWorkspaceError?.message).toBe('folder /gone does not exist')
    expect(st().activeChatId).toBeNull()

    // Gone between the check and SetWorkspace: the empty chat is removed, nothing goes to Scratch.
    mocked.createChat.mockResolvedValueOnce(chat({ id: 'n2' }))
    mocked.setWorkspace.mockRejectedValueOnce(new ApiError('not_found', 'folder /gone does not exist'))
    expect(await st().send('hi')).toBe(false)
    expect(mocked.setWorkspace).toHaveBeenCalledTimes(1)
    expect(mocked.setWorkspace).not.toHaveBeenCalledWith('n2', 'scratch', '')
    expect(mocked.deleteChat).toHaveBeenCalledWith('n2')
    expect(mocked.send).not.toHaveBeenCalled()
    expect(st().newChatWorkspaceError?.code).toBe('not_found')
  })

  it('a blank message is not sent; a failed Send says so and ends the stream state', async () => {
    useStore.setState({ chats: [chat()], activeChatId: 'c1', messages: { c1: [] } })
    expect(await st().send('   ')).toBe(false)
    mocked.send.mockRejectedValueOnce(new ApiError('no_provider', 'none'))
    expect(await st().send('hi')).toBe(false)
    expect(st().streaming.c1).toBeUndefined()
    expect(st().toasts.at(-1)?.title).toBe('errors.send')
  })

  it('Stop pressed before Send returns is sent right after it returns', async () => {
    useStore.setState({ chats: [chat()], activeChatId: 'c1', messages: { c1: [] } })
    let reply!: (m: Message[]) => void
    mocked.send.mockImplementationOnce(() => new Promise((r) => (reply = r)))
    const sent = st().send('hi')
    await st().stop('c1')
    expect(mocked.stop).not.toHaveBeenCalled()
    reply([msg({ id: 'a', status: 'streaming' })])
    await sent
    expect(mocked.stop).toHaveBeenCalledWith('c1')
  })

  it('Retry replaces the failed answer with the new placeholder', async () => {
    useStore.setState({
      chats: [chat()],
      activeChatId: 'c1',
      messages: { c1: [msg({ id: 'u', role: 'user' }), msg({ id: 'bad', status: 'error' })] },
    })
    mocked.retry.mockResolvedValueOnce(msg({ id: 'new', status: 'streaming', createdAt: 2 }))
    await st().retry()
    expect(st().messages.c1.map((m) => m.id)).toEqual(['u', 'new'])
    expect(st().streaming.c1).toBe(true)
  })
})
