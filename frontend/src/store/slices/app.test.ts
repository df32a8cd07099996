import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../api', async (orig) => {
  const real = await orig<typeof import('../../api')>()
  return {
    ...real,
    api: {
      info: vi.fn(),
      getSettings: vi.fn(),
      listProviders: vi.fn(),
      listChats: vi.fn(),
      activeStreams: vi.fn(),
      tools: vi.fn().mockResolvedValue([]),
      listCalls: vi.fn().mockResolvedValue([]),
    },
    historyApi: { ...real.historyApi, listMessagesPage: vi.fn().mockResolvedValue([]) },
  }
})

import { api, ApiError } from '../../api'
import { resetStore, useStore } from '../index'
import { chat } from './testkit'

const mocked = api as unknown as Record<string, ReturnType<typeof vi.fn>>
const st = () => useStore.getState()

describe('app slice', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })

  it('init loads everything, marks running streams and opens the newest chat', async () => {
    mocked.info.mockResolvedValueOnce({ version: '1', notices: ['keychain unavailable'] })
    mocked.getSettings.mockResolvedValueOnce({ activeProviderId: 'p' })
    mocked.listProviders.mockResolvedValueOnce([])
    mocked.listChats.mockResolvedValueOnce([chat({ id: 'old', updatedAt: 1 }), chat({ id: 'new', updatedAt: 2 })])
    mocked.activeStreams.mockResolvedValueOnce(['old'])
    await st().init()
    expect(st()).toMatchObject({ ready: true, bootError: null, activeChatId: 'new', streaming: { old: true } })
    expect(st().toasts.at(-1)).toMatchObject({ title: 'errors.startup', message: 'keychain unavailable' })
  })

  it('init reports a failed start instead of hanging', async () => {
    mocked.info.mockResolvedValueOnce(null)
    mocked.getSettings.mockRejectedValueOnce(new ApiError('db', 'database locked'))
    mocked.listProviders.mockResolvedValueOnce([])
    mocked.listChats.mockResolvedValueOnce([])
    mocked.activeStreams.mockResolvedValueOnce([])
    await st().init()
    expect(st()).toMatchObject({ ready: true, bootError: 'database locked' })
  })
})
