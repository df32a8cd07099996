import { describe, expect, it } from 'vitest'
import type { Call } from '../api'
import { groupByMessage, isNewer, isSettled, needsDecision, upsertCall, upsertCalls } from './calls'

const call = (over: Partial<Call> = {}): Call => ({
  id: 'c1',
  modelCallId: 'call_1',
  chatId: 'chat',
  messageId: 'm1',
  index: 0,
  name: 'calculate',
  arguments: { expression: '1+1' },
  raw: '',
  format: 'json',
  state: 'pending',
  createdAt: 100,
  updatedAt: 100,
  ...over,
})

describe('tool-call reducer', () => {
  it('upserts by id: a new call is added, a known one replaced', () => {
    let map = upsertCall({}, call())
    expect(map.m1).toHaveLength(1)
    map = upsertCall(map, call({ state: 'approved', updatedAt: 110 }))
    expect(map.m1).toHaveLength(1)
    expect(map.m1[0].state).toBe('approved')
    map = upsertCall(map, call({ id: 'c2', index: 1 }))
    expect(map.m1.map((c) => c.id)).toEqual(['c1', 'c2'])
  })

  it('groups by messageId and orders each group by index, whatever the arrival order', () => {
    const map = groupByMessage([
      call({ id: 'b', messageId: 'm2', index: 1 }),
      call({ id: 'c', messageId: 'm1', index: 2 }),
      call({ id: 'a', messageId: 'm1', index: 0 }),
      call({ id: 'd', messageId: 'm2', index: 0 }),
      call({ id: 'e', messageId: 'm1', index: 1 }),
    ])
    expect(Object.keys(map).sort()).toEqual(['m1', 'm2'])
    expect(map.m1.map((c) => c.id)).toEqual(['a', 'e', 'c'])
    expect(map.m2.map((c) => c.id)).toEqual(['d', 'b'])
  })

  it('never lets an older copy replace a newer one (a late action reply after the events)', () => {
    let map = upsertCalls({}, [
      call({ state: 'approved', updatedAt: 110 }),
      call({ state: 'running', updatedAt: 111 }),
      call({ state: 'done', updatedAt: 112, result: '2' }),
    ])
    const before = map
    map = upsertCall(map, call({ state: 'approved', updatedAt: 110 })) // ApproveCall's reply arrives last
    expect(map).toBe(before)
    expect(map.m1[0].state).toBe('done')
  })

  it('breaks timestamp ties by how far along the state machine a call is', () => {
    const running = call({ state: 'running', updatedAt: 120 })
    const done = call({ state: 'done', updatedAt: 120 })
    expect(isNewer(done, running)).toBe(true)
    expect(isNewer(running, done)).toBe(false)
    // "tell the model" settles a problem in place: the settled copy wins
    const open = call({ state: 'problem', updatedAt: 130 })
    const sent = call({ state: 'problem', updatedAt: 130, resultStatus: 'error' })
    expect(isNewer(sent, open)).toBe(true)
    expect(isNewer(open, sent)).toBe(false)
  })

  it('keeps the index order when a replacement changes nothing but state', () => {
    let map = groupByMessage([call({ id: 'a', index: 0 }), call({ id: 'b', index: 1 })])
    map = upsertCall(map, call({ id: 'b', index: 1, state: 'denied', updatedAt: 200 }))
    expect(map.m1.map((c) => `${c.id}:${c.state}`)).toEqual(['a:pending', 'b:denied'])
  })

  it('classifies calls: waiting for a decision vs settled', () => {
    expect(needsDecision(call())).toBe(true)
    expect(needsDecision(call({ state: 'interrupted' }))).toBe(true)
    expect(needsDecision(call({ state: 'problem' }))).toBe(true)
    expect(needsDecision(call({ state: 'problem', resultStatus: 'error' }))).toBe(false)
    expect(isSettled(call({ state: 'done' }))).toBe(true)
    expect(isSettled(call({ state: 'running' }))).toBe(false)
    expect(isSettled(call({ state: 'problem', resultStatus: 'error' }))).toBe(true)
  })
})
