import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { undoApi, UndoError } from '../api'
import { resetStore, useStore } from './index'
import { checkpointOfCall, loadCheckpoints, resetUndo, subscribeUndo, useUndo } from './undo'

type Backend = Record<string, ReturnType<typeof vi.fn>>
let backend: Backend

function install(over: Partial<Backend> = {}) {
  backend = {
    ListCheckpoints: vi.fn(async () => ({ checkpoints: [{ id: 'a', callId: 'k1', tool: 'write_file', paths: null }], bytes: 3, limit: 10, fileLimit: 5, dropped: 0 })),
    ...over,
  }
  window.go = { main: { App: backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

describe('undo store', () => {
  beforeEach(() => {
    resetStore()
    resetUndo()
  })
  afterEach(() => {
    delete window.go
    vi.useRealTimers()
  })

  it('normalizes the list and finds a call’s checkpoint', async () => {
    install()
    await loadCheckpoints('c1')
    const list = useUndo.getState().byChat.c1
    expect(list.checkpoints[0]).toMatchObject({ id: 'a', paths: [], pathCount: 0, undone: false, undoable: false, bytes: 0, dropped: false })
    expect(checkpointOfCall(list, 'k1')?.id).toBe('a')
    expect(checkpointOfCall(list, '')).toBeUndefined()
  })

  it('an undo refusal keeps its paths', async () => {
    install({
      UndoCheckpoint: vi.fn(async () =>
        Promise.reject(JSON.stringify({ code: 'undo_conflict', message: 'Not undone', paths: [{ path: 'a.txt', reason: 'deleted' }] })),
      ),
    })
    const err = await undoApi.undoCheckpoint('x').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UndoError)
    expect((err as UndoError).code).toBe('undo_conflict')
    expect((err as UndoError).paths).toEqual([{ path: 'a.txt', reason: 'deleted' }])
  })

  it('reads a chat’s checkpoints again when its workspace was read again (after an Apply, a tool run)', async () => {
    install()
    vi.useFakeTimers()
    const off = subscribeUndo()
    await loadCheckpoints('c1')
    expect(backend.ListCheckpoints).toHaveBeenCalledTimes(1)
    useStore.setState({ workspaces: { c1: { info: null, changes: [], loading: false, error: null, version: 1 } } })
    // A chat never shown is not read.
    useStore.setState((s) => ({ workspaces: { ...s.workspaces, c2: { info: null, changes: [], loading: false, error: null, version: 1 } } }))
    await vi.advanceTimersByTimeAsync(500)
    expect(backend.ListCheckpoints).toHaveBeenCalledTimes(2)
    expect(backend.ListCheckpoints).toHaveBeenLastCalledWith('c1')
    off()
  })

  // Issue 30, item 15: before, "Not undone: … changed since" stayed after the files changed back.
  it('a refusal goes when the chat\'s files change again', async () => {
    install()
    vi.useFakeTimers()
    const off = subscribeUndo()
    await loadCheckpoints('c1')
    useUndo.setState({ problems: { a: { code: 'undo_conflict', message: 'Not undone', paths: [] }, other: { code: 'x', message: 'y', paths: [] } } })
    useStore.setState({ workspaces: { c1: { info: null, changes: [], loading: false, error: null, version: 1 } } })
    await vi.advanceTimersByTimeAsync(500)
    expect(Object.keys(useUndo.getState().problems)).toEqual(['other'])
    off()
  })
})
