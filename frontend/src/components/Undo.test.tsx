import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Call, Chat, Checkpoint, CheckpointList, WorkspaceInfo } from '../api'
import { resetStore, useStore } from '../store'
import { groupByMessage } from '../store/calls'
import { resetUndo } from '../store/undo'
import { ToolCard } from './ToolCard'
import { CheckpointHistory } from './Undo'
import { FilesPanel } from './FilesPanel'

type Backend = Record<string, ReturnType<typeof vi.fn>>
let backend: Backend

const call = (over: Partial<Call> = {}): Call => ({
  id: 'k1',
  modelCallId: 'call_1',
  chatId: 'c1',
  messageId: 'm1',
  index: 0,
  name: 'write_file',
  arguments: { path: 'notes.md', content: 'new\n' },
  raw: '',
  format: 'json',
  state: 'done',
  result: 'Replaced the content of notes.md.',
  resultStatus: 'success',
  createdAt: 1000,
  updatedAt: 2000,
  ...over,
})

const cp = (over: Partial<Checkpoint> = {}): Checkpoint => ({
  id: 'cp1',
  callId: 'k1',
  tool: 'write_file',
  dir: '/home/me/site',
  createdAt: Date.UTC(2025, 0, 2, 10, 30),
  paths: [{ path: 'notes.md', op: 'modified', size: 120, kept: true }],
  pathCount: 1,
  undone: false,
  undoable: true,
  bytes: 120,
  dropped: false,
  ...over,
})

const listOf = (cps: Checkpoint[], over: Partial<CheckpointList> = {}): CheckpointList => ({
  checkpoints: cps,
  bytes: cps.reduce((n, c) => n + c.bytes, 0),
  limit: 200 << 20,
  fileLimit: 10 << 20,
  dropped: 0,
  ...over,
})

/** A fake Go side whose checkpoints the test changes as Undo would. */
function install(initial: Checkpoint[], over: Partial<Backend> = {}) {
  let current = initial
  backend = {
    ListCheckpoints: vi.fn(async () => structuredClone(listOf(current))),
    UndoCheckpoint: vi.fn(async (id: string) => {
      current = current.map((c) => (c.id === id ? { ...c, undone: true, undoable: false, blocker: 'undone' as const } : c))
      return { id, chatId: 'c1', restored: ['notes.md'] }
    }),
    ...over,
  }
  window.go = { main: { App: backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

const conflictError = JSON.stringify({
  code: 'undo_conflict',
  message: 'Not undone: 1 path has changed since this change was made: notes.md (changed since). Nothing was restored.',
  paths: [{ path: 'notes.md', reason: 'changed' }],
})

function showCard(c: Call) {
  useStore.setState({ callsByMessage: groupByMessage([c]) })
  return render(<ToolCard call={c} paradigm="json" />)
}

describe('Undo on a tool card', () => {
  beforeEach(() => {
    resetStore()
    resetUndo()
  })
  afterEach(() => {
    delete window.go
  })

  it('a done write whose call made a checkpoint offers Undo; Undo restores and the card says so', async () => {
    install([cp()])
    const user = userEvent.setup()
    showCard(call())
    const button = await screen.findByTestId('undo')
    expect(button).toHaveAccessibleName('Undo this change to notes.md')
    expect(screen.getByTestId('card-undo')).toHaveAttribute('data-state', 'undoable')
    await user.click(button)
    expect(backend.UndoCheckpoint).toHaveBeenCalledWith('cp1')
    await screen.findByTestId('undo-done')
    expect(screen.queryByTestId('undo')).toBeNull()
    expect(useStore.getState().toasts.some((t) => t.title === 'undo.doneTitle' && t.message === 'notes.md is back as it was.')).toBe(true)
  })

  it('a conflict is shown plainly, naming the file, and nothing is marked undone', async () => {
    install([cp()], { UndoCheckpoint: vi.fn(async () => Promise.reject(conflictError)) })
    const user = userEvent.setup()
    showCard(call())
    await user.click(await screen.findByTestId('undo'))
    const box = await screen.findByTestId('undo-conflict')
    expect(box).toHaveAttribute('role', 'alert')
    expect(box).toHaveTextContent('Not undone: the files changed since')
    const path = within(box).getByTestId('undo-conflict-path')
    expect(path).toHaveAttribute('data-path', 'notes.md')
    expect(path).toHaveTextContent('notes.md — changed since')
    expect(box).toHaveTextContent('Nothing was restored')
    expect(screen.getByTestId('undo')).toBeEnabled() // may be tried again once the file is back
  })

  it('no Undo without a checkpoint, and tools that change no files never ask', async () => {
    install([cp({ callId: 'other' })])
    showCard(call())
    await waitFor(() => expect(backend.ListCheckpoints).toHaveBeenCalledWith('c1'))
    expect(screen.queryByTestId('card-undo')).toBeNull()

    resetUndo()
    install([])
    showCard(call({ id: 'k2', name: 'calculate', arguments: { expression: '1+1' } }))
    await new Promise((r) => setTimeout(r, 20))
    expect(backend.ListCheckpoints).not.toHaveBeenCalled()
  })

  it('a checkpoint that cannot be undone says why instead', async () => {
    install([cp({ undoable: false, blocker: 'not_kept', paths: [{ path: 'big.log', op: 'modified', size: 0, kept: false, note: 'too large to keep' }] })])
    showCard(call())
    const why = await screen.findByTestId('undo-unavailable')
    expect(why).toHaveTextContent('a file it changed was too large to keep (over 10 MB)')
    expect(screen.queryByTestId('undo')).toBeNull()
  })
})

describe('History of checkpoints', () => {
  beforeEach(() => {
    resetStore()
    resetUndo()
  })
  afterEach(() => {
    delete window.go
  })

  it('lists the checkpoints newest first with their paths, the caps, and Undo on each', async () => {
    install([
      cp({ id: 'cp3', callId: '', tool: 'apply', paths: [{ path: 'docs', op: 'added', isDir: true, size: 0, kept: true }], pathCount: 60, bytes: 0 }),
      cp({ id: 'cp2', callId: 'k2', tool: 'delete_path', paths: [{ path: 'old.txt', op: 'deleted', size: 2048, kept: true }], bytes: 2048 }),
      cp({ id: 'cp1', dropped: true, undoable: false, blocker: 'dropped', bytes: 0 }),
    ])
    const user = userEvent.setup()
    render(<CheckpointHistory chatId="c1" />)
    const items = await screen.findAllByTestId('checkpoint')
    expect(items.map((i) => [i.dataset.id, i.dataset.tool, i.dataset.state])).toEqual([
      ['cp3', 'apply', 'undoable'],
      ['cp2', 'delete_path', 'undoable'],
      ['cp1', 'write_file', 'blocked'],
    ])
    expect(items[0]).toHaveTextContent('Apply')
    expect(items[0]).toHaveTextContent('… and 59 more paths')
    expect(within(items[1]).getByTestId('checkpoint-path')).toHaveAttribute('data-op', 'deleted')
    expect(items[1]).toHaveTextContent('2.0 KB')
    expect(items[2]).toHaveTextContent('its copy was dropped to keep this chat’s history under 200 MB')
    expect(screen.getByTestId('checkpoints-total')).toHaveTextContent('2.0 KB kept of 200 MB')

    await user.click(within(items[1]).getByTestId('checkpoint-undo'))
    expect(backend.UndoCheckpoint).toHaveBeenCalledWith('cp2')
    await waitFor(() => expect(screen.getAllByTestId('checkpoint')[1]).toHaveAttribute('data-state', 'undone'))
  })

  it('says when older checkpoints were dropped, and when there are none', async () => {
    install([])
    const first = render(<CheckpointHistory chatId="c1" />)
    expect(await screen.findByTestId('checkpoints-empty')).toHaveTextContent('No change from this chat has reached the folder yet.')
    first.unmount()
    backend.ListCheckpoints.mockImplementation(async () => listOf([cp()], { dropped: 3 }))
    resetUndo()
    render(<CheckpointHistory chatId="c1" />)
    expect(await screen.findByTestId('checkpoints-dropped')).toHaveTextContent('3 older changes can no longer be undone')
  })

  it('a conflict in the list names the paths', async () => {
    install([cp()], { UndoCheckpoint: vi.fn(async () => Promise.reject(conflictError)) })
    const user = userEvent.setup()
    render(<CheckpointHistory chatId="c1" />)
    await user.click(await screen.findByTestId('checkpoint-undo'))
    const box = await screen.findByTestId('checkpoint-conflict')
    expect(box).toHaveTextContent('notes.md — changed since')
  })
})

describe('the Files panel of a folder workspace', () => {
  beforeEach(() => {
    resetStore()
    resetUndo()
    localStorage.clear()
  })
  afterEach(() => {
    delete window.go
  })

  it('has a History tab listing the checkpoints', async () => {
    const info: WorkspaceInfo = { kind: 'folder', dir: '/home/me/site', truncated: false, entries: [{ path: 'notes.md', isDir: false, size: 4 }] }
    install([cp()], { GetWorkspace: vi.fn(async () => structuredClone(info)), WorkspaceChanges: vi.fn(async () => []) })
    const c: Chat = { id: 'c1', title: 'x', createdAt: 1, updatedAt: 1, paradigm: 'json', recognizeOthers: true, workspaceKind: 'folder', workspaceDir: '/home/me/site' }
    useStore.setState({ chats: [c], activeChatId: 'c1', filesOpen: true })
    const user = userEvent.setup()
    render(<FilesPanel />)
    const tab = await screen.findByTestId('history-tab')
    expect(tab).toHaveTextContent('History')
    expect(screen.queryByTestId('changes-tab')).toBeNull()
    await user.click(tab)
    expect(await screen.findByTestId('checkpoint')).toHaveAttribute('data-id', 'cp1')
  })
})
