import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../api', async (orig) => {
  const real = await orig<typeof import('../../api')>()
  return {
    ...real,
    api: {
      listChats: vi.fn(),
      renameChat: vi.fn(),
      deleteChat: vi.fn(),
      setChatOptions: vi.fn(),
      listCalls: vi.fn().mockResolvedValue([]),
    },
    historyApi: { ...real.historyApi, listMessagesPage: vi.fn().mockResolvedValue([]) },
  }
})

import { api, ApiError } from '../../api'
import { resetStore, useStore } from '../index'
import { call, chat } from './testkit'

const mocked = api as unknown as Record<string, ReturnType<typeof vi.fn>>
const st = () => useStore.getState()

describe('chats slice', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })

  it('loadChats sorts the newest first', async () => {
    mocked.listChats.mockResolvedValueOnce([chat({ id: 'a', updatedAt: 1 }), chat({ id: 'b', updatedAt: 3 }), chat({ id: 'c', updatedAt: 2 })])
    await st().loadChats()
    expect(st().chats.map((c) => c.id)).toEqual(['b', 'c', 'a'])
  })

  it('renameChat rolls the title back and toasts when the backend refuses', async () => {
    useStore.setState({ chats: [chat({ title: 'Old' })] })
    mocked.renameChat.mockRejectedValueOnce(new ApiError('bad', 'no'))
    expect(await st().renameChat('c1', '  New  ')).toBe(false)
    expect(mocked.renameChat).toHaveBeenCalledWith('c1', 'New')
    expect(st().chats[0].title).toBe('Old')
    expect(st().toasts.at(-1)?.title).toBe('errors.renameChat')
  })

  it('renameChat with a blank or unchanged title does not call the backend', async () => {
    useStore.setState({ chats: [chat({ title: 'Same' })] })
    expect(await st().renameChat('c1', '   ')).toBe(true)
    expect(await st().renameChat('c1', 'Same')).toBe(true)
    expect(mocked.renameChat).not.toHaveBeenCalled()
  })

  it('deleteChat drops the chat and its calls, and opens the neighbour', async () => {
    mocked.deleteChat.mockResolvedValueOnce(undefined)
    useStore.setState({
      chats: [chat({ id: 'a' }), chat({ id: 'b' }), chat({ id: 'c' })],
      activeChatId: 'b',
      messages: { b: [], c: [] },
      drafts: { b: 'half' },
      callsByMessage: { m1: [call({ chatId: 'b' })], m2: [call({ id: 'k2', chatId: 'c', messageId: 'm2' })] },
    })
    expect(await st().deleteChat('b')).toBe(true)
    expect(st().chats.map((c) => c.id)).toEqual(['a', 'c'])
    expect(st().activeChatId).toBe('c')
    expect(st().drafts.b).toBeUndefined()
    expect(Object.keys(st().callsByMessage)).toEqual(['m2'])
  })

  it('deleteChat keeps everything when the backend refuses', async () => {
    mocked.deleteChat.mockRejectedValueOnce(new ApiError('busy', 'streaming'))
    useStore.setState({ chats: [chat()], activeChatId: 'c1' })
    expect(await st().deleteChat('c1')).toBe(false)
    expect(st().chats).toHaveLength(1)
    expect(st().activeChatId).toBe('c1')
  })

  it('newChat resets what was picked for the lazy new chat', async () => {
    useStore.setState({
      activeChatId: 'c1',
      newChatOptions: { paradigm: 'xml', recognizeOthers: false },
      newChatWorkspace: { kind: 'folder', dir: '/x' },
      newChatServers: ['s'],
    })
    const tick = st().focusComposerTick
    await st().newChat()
    expect(st().activeChatId).toBeNull()
    expect(st().newChatOptions).toEqual({ paradigm: 'json', recognizeOthers: true })
    expect(st().newChatWorkspace).toEqual({ kind: 'scratch', dir: '' })
    expect(st().newChatServers).toBeNull()
    expect(st().focusComposerTick).toBe(tick + 1)
  })

  it('setChatOptions rolls back on failure', async () => {
    useStore.setState({ chats: [chat({ paradigm: 'json' })] })
    mocked.setChatOptions.mockRejectedValueOnce(new ApiError('bad', 'no'))
    expect(await st().setChatOptions('c1', { paradigm: 'xml', recognizeOthers: true })).toBe(false)
    expect(st().chats[0].paradigm).toBe('json')
  })
})
