import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../api', async (orig) => {
  const real = await orig<typeof import('../../api')>()
  return {
    ...real,
    api: {
      getWorkspace: vi.fn(),
      workspaceChanges: vi.fn(),
      setWorkspace: vi.fn(),
      applyChanges: vi.fn(),
      listChats: vi.fn().mockResolvedValue([]),
    },
    finishApi: { checkWorkspaceFolder: vi.fn().mockResolvedValue(undefined) },
  }
})

import { api, ApiError, finishApi, type WorkspaceInfo } from '../../api'
import { resetStore, selectActiveWorkspace, useStore } from '../index'
import { FILES_KEY } from './workspace'
import { chat, flush } from './testkit'

const mocked = api as unknown as Record<string, ReturnType<typeof vi.fn>>
const st = () => useStore.getState()
const info = (over: Partial<WorkspaceInfo> = {}) => ({ kind: 'scratch', dir: '/tmp/s', entries: [], ...over }) as WorkspaceInfo

describe('workspace slice', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })
  afterEach(() => localStorage.removeItem(FILES_KEY))

  it('toggleFiles remembers the panel across launches', () => {
    st().toggleFiles(true)
    expect(st().filesOpen).toBe(true)
    expect(localStorage.getItem(FILES_KEY)).toBe('open')
    st().toggleFiles()
    expect(localStorage.getItem(FILES_KEY)).toBe('closed')
  })

  it('loadWorkspace coalesces calls made while one is in flight into one more load', async () => {
    useStore.setState({ chats: [chat()] })
    let release!: () => void
    mocked.getWorkspace.mockImplementationOnce(() => new Promise((r) => (release = () => r(info())))).mockResolvedValue(info())
    const first = st().loadWorkspace('c1')
    void st().loadWorkspace('c1')
    void st().loadWorkspace('c1')
    release()
    await first
    expect(mocked.getWorkspace).toHaveBeenCalledTimes(2)
    expect(st().workspaces.c1).toMatchObject({ loading: false, error: null, version: 2 })
  })

  it('loadWorkspace reads an overlay\'s changes and keeps a load error', async () => {
    useStore.setState({ chats: [chat({ workspaceKind: 'overlay', workspaceDir: '/p' })] })
    mocked.getWorkspace.mockResolvedValueOnce(info({ kind: 'overlay', dir: '/p' }))
    mocked.workspaceChanges.mockResolvedValueOnce([{ path: 'a', op: 'added' }])
    await st().loadWorkspace('c1')
    expect(st().workspaces.c1.changes).toHaveLength(1)
    mocked.getWorkspace.mockRejectedValueOnce(new ApiError('workspace_gone', 'gone'))
    await st().loadWorkspace('c1')
    expect(st().workspaces.c1).toMatchObject({ info: null, changes: [], error: { code: 'workspace_gone' } })
  })

  it('setWorkspace for the lazy new chat checks the folder, then only remembers the cleaned choice', async () => {
    expect(await st().setWorkspace(null, { kind: 'folder', dir: '  /home/me/p/  ' })).toBeNull()
    expect(finishApi.checkWorkspaceFolder).toHaveBeenCalledWith('folder', '/home/me/p')
    expect(mocked.setWorkspace).not.toHaveBeenCalled()
    expect(selectActiveWorkspace(st())).toEqual({ kind: 'folder', dir: '/home/me/p' })
  })

  it('setWorkspace puts the previous choice back when the backend refuses', async () => {
    useStore.setState({ chats: [chat({ workspaceKind: 'scratch' })] })
    mocked.getWorkspace.mockResolvedValue(info())
    mocked.setWorkspace
      .mockRejectedValueOnce(new ApiError('workspace_invalid', 'not a folder'))
      .mockResolvedValueOnce(chat({ workspaceKind: 'scratch', workspaceDir: '' }))
    const e = await st().setWorkspace('c1', { kind: 'folder', dir: '/nope' })
    expect(e?.code).toBe('workspace_invalid')
    expect(mocked.setWorkspace).toHaveBeenLastCalledWith('c1', 'scratch', '')
    await flush()
  })

  it('applyChanges returns the refusal and still reloads the listing', async () => {
    useStore.setState({ chats: [chat()] })
    mocked.applyChanges.mockRejectedValueOnce(new ApiError('apply_conflict', 'a.txt'))
    mocked.getWorkspace.mockResolvedValue(info())
    const e = await st().applyChanges('c1', [])
    expect(e?.code).toBe('apply_conflict')
    expect(mocked.getWorkspace).toHaveBeenCalledTimes(1)
  })
})
