import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../api', async (orig) => {
  const real = await orig<typeof import('../../api')>()
  return {
    ...real,
    api: {
      approveCall: vi.fn(),
      denyCall: vi.fn(),
      listCalls: vi.fn(),
    },
  }
})

import { api, ApiError } from '../../api'
import { findCall, resetStore, selectWaitingCount, useStore } from '../index'
import { call } from './testkit'

const mocked = api as unknown as Record<string, ReturnType<typeof vi.fn>>
const st = () => useStore.getState()

describe('calls slice', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })

  it('approveCall without an edit sends the proposed arguments, and upserts the reply', async () => {
    useStore.setState({ callsByMessage: { m1: [call()] } })
    mocked.approveCall.mockResolvedValueOnce(call({ state: 'approved', updatedAt: 2 }))
    expect(await st().approveCall('k1')).toBeNull()
    expect(mocked.approveCall).toHaveBeenCalledWith('k1', { path: 'a.txt' })
    expect(findCall(st().callsByMessage, 'k1')?.state).toBe('approved')
  })

  it('a quiet action returns its error without a toast; a loud one toasts', async () => {
    useStore.setState({ callsByMessage: { m1: [call()] } })
    mocked.denyCall.mockRejectedValue(new ApiError('call_state', 'already decided'))
    const e = await st().denyCall('k1', ' no ', { quiet: true })
    expect(e?.code).toBe('call_state')
    expect(mocked.denyCall).toHaveBeenCalledWith('k1', 'no')
    expect(st().toasts).toHaveLength(0)
    await st().denyCall('k1', 'no')
    expect(st().toasts.at(-1)?.title).toBe('errors.denyCall')
  })

  it('loadCalls merges with calls that raced ahead', async () => {
    useStore.setState({ callsByMessage: { m1: [call({ state: 'done', updatedAt: 5 })] } })
    mocked.listCalls.mockResolvedValueOnce([call({ state: 'pending', updatedAt: 1 }), call({ id: 'k2', index: 1 })])
    await st().loadCalls('c1')
    expect(st().callsByMessage.m1.map((c) => [c.id, c.state])).toEqual([
      ['k1', 'done'],
      ['k2', 'pending'],
    ])
  })

  it('handleNotice keeps the notice and toasts it; dismissNotice forgets it', () => {
    st().handleNotice({ chatId: 'c1', code: 'turn_cap', message: 'paused' })
    expect(st().notices.c1?.code).toBe('turn_cap')
    expect(st().toasts.at(-1)).toMatchObject({ kind: 'info', title: 'notices.turnCapTitle' })
    st().dismissNotice('c1')
    expect(st().notices.c1).toBeUndefined()
  })

  it('selectWaitingCount counts calls of the active chat that need a decision', () => {
    useStore.setState({
      activeChatId: 'c1',
      messages: { c1: [{ id: 'm1' } as never] },
      callsByMessage: { m1: [call(), call({ id: 'k2', index: 1, state: 'done' })] },
    })
    expect(selectWaitingCount(st())).toBe(1)
  })
})
