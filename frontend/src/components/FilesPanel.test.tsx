import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Change, Chat, WorkspaceInfo } from '../api'
import { resetStore, useStore } from '../store'
import { FilesPanel } from './FilesPanel'

type Backend = Record<string, ReturnType<typeof vi.fn>>
let backend: Backend

const chat = (over: Partial<Chat> = {}): Chat => ({
  id: 'c1',
  title: 'Files chat',
  createdAt: 1,
  updatedAt: 1,
  paradigm: 'json',
  recognizeOthers: true,
  workspaceKind: 'scratch',
  workspaceDir: '',
  ...over,
})

const SCRATCH: WorkspaceInfo = {
  kind: 'scratch',
  dir: '',
  truncated: false,
  entries: [
    { path: 'notes.md', isDir: false, size: 155 },
    { path: 'src', isDir: true, size: 0 },
    { path: 'src/main.go', isDir: false, size: 40 },
    { path: 'logo.png', isDir: false, size: 3 * 1024 },
  ],
}

const FILES: Record<string, { content: string; binary?: boolean; size: number; truncated?: boolean }> = {
  'notes.md': { content: '# Notes\n\n- one\n- two, with a diff for file changes\n', size: 155 },
  'src/main.go': { content: 'package main\n', size: 40 },
  'logo.png': { content: '', binary: true, size: 3 * 1024 },
}

function install(over: Partial<Backend> = {}, info: WorkspaceInfo = SCRATCH, changes: Change[] = []) {
  backend = {
    GetWorkspace: vi.fn(async () => structuredClone(info)),
    WorkspaceChanges: vi.fn(async () => structuredClone(changes)),
    ReadWorkspaceFile: vi.fn(async (_chat: string, path: string) => {
      const f = FILES[path]
      if (!f) throw JSON.stringify({ code: 'not_found', message: `${path} does not exist` })
      return { path, content: f.content, binary: !!f.binary, size: f.size, truncated: !!f.truncated }
    }),
    ApplyChanges: vi.fn(async () => undefined),
    DiscardChanges: vi.fn(async () => undefined),
    SetWorkspace: vi.fn(async (id: string, kind: string, dir: string) => chat({ id, workspaceKind: kind as Chat['workspaceKind'], workspaceDir: dir })),
    ResetScratch: vi.fn(async () => undefined),
    PickFolder: vi.fn(async () => '/home/me/site'),
    CheckWorkspaceFolder: vi.fn(async () => undefined),
    ...over,
  }
  window.go = { main: { App: backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

function show(c: Chat | null = chat()) {
  useStore.setState({ chats: c ? [c] : [], activeChatId: c?.id ?? null, filesOpen: true })
  return render(<FilesPanel />)
}

const entry = (path: string) => screen.getAllByTestId('file-entry').find((e) => e.dataset.path === path)

describe('FilesPanel', () => {
  beforeEach(() => {
    resetStore()
    localStorage.clear()
  })
  afterEach(() => {
    delete window.go
  })

  it('lists the workspace as a tree (folders first, collapsed) and opens a file read-only with line numbers', async () => {
    install()
    const user = userEvent.setup()
    show()
    expect(screen.getByTestId('workspace-kind')).toHaveTextContent('Scratch')
    await screen.findAllByTestId('file-entry')
    expect(backend.GetWorkspace).toHaveBeenCalledWith('c1')
    expect(screen.getAllByTestId('file-entry').map((e) => e.dataset.path)).toEqual(['src', 'logo.png', 'notes.md'])
    expect(entry('src')).toHaveAttribute('aria-expanded', 'false')
    expect(entry('notes.md')).toHaveAttribute('data-changed', '')
    expect(entry('notes.md')).toHaveTextContent('155 B')

    await user.click(entry('src')!)
    expect(entry('src')).toHaveAttribute('aria-expanded', 'true')
    expect(entry('src/main.go')).toBeInTheDocument()

    await user.click(entry('notes.md')!)
    const viewer = await screen.findByTestId('file-viewer')
    expect(backend.ReadWorkspaceFile).toHaveBeenCalledWith('c1', 'notes.md')
    await waitFor(() => expect(within(viewer).getByTestId('file-content')).toHaveTextContent('with a diff for file changes'))
    expect(viewer).toHaveTextContent('read-only')
    expect(viewer).toHaveTextContent('4 lines')
    expect(viewer.querySelector('.viewer__gutter')!.textContent).toBe('1\n2\n3\n4')

    // a binary file says so instead of showing bytes
    await user.click(entry('logo.png')!)
    expect(await screen.findByTestId('viewer-binary')).toHaveTextContent('Binary file (3.0 KB)')
  })

  it('is keyboard-driven: arrows move, Right opens a folder, Enter opens a file', async () => {
    install()
    const user = userEvent.setup()
    show()
    await screen.findAllByTestId('file-entry')
    entry('src')!.focus()
    await user.keyboard('{ArrowRight}')
    expect(entry('src')).toHaveAttribute('aria-expanded', 'true')
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(entry('src/main.go')).toHaveFocus())
    await user.keyboard('{Enter}')
    expect(await screen.findByTestId('file-viewer')).toHaveAttribute('data-path', 'src/main.go')
    await user.keyboard('{ArrowLeft}')
    await waitFor(() => expect(entry('src')).toHaveFocus())
    await user.keyboard('{ArrowLeft}')
    expect(entry('src')).toHaveAttribute('aria-expanded', 'false')
  })

  it('shows the empty state for an empty workspace and for the new chat (nothing asked of the backend)', async () => {
    install({}, { kind: 'scratch', dir: '', entries: [], truncated: false })
    const { unmount } = show()
    expect(await screen.findByTestId('files-empty')).toHaveTextContent('The model’s file tools work here. Nothing outside it is reachable.')
    unmount()
    backend.GetWorkspace.mockClear()
    show(null)
    expect(screen.getByTestId('files-empty')).toHaveTextContent('Its workspace is made when you send the first message')
    expect(backend.GetWorkspace).not.toHaveBeenCalled()
  })

  it('refreshes when the backend says a tool changed the chat\'s workspace, once for a burst', async () => {
    install()
    show()
    await screen.findAllByTestId('file-entry')
    expect(backend.GetWorkspace).toHaveBeenCalledTimes(1)
    backend.GetWorkspace.mockResolvedValueOnce({ ...SCRATCH, entries: [...SCRATCH.entries, { path: 'new.md', isDir: false, size: 1 }] })
    act(() => {
      useStore.getState().handleWorkspaceChanged('c1')
      useStore.getState().handleWorkspaceChanged('c1')
    })
    await waitFor(() => expect(entry('new.md')).toBeInTheDocument())
    expect(backend.GetWorkspace).toHaveBeenCalledTimes(2)
    // another chat's workspace: nothing to read again here
    act(() => useStore.getState().handleWorkspaceChanged('other'))
    await new Promise((r) => setTimeout(r, 200))
    expect(backend.GetWorkspace).toHaveBeenCalledTimes(2)
  })

  it('overlay: marks changed entries (A/M/D) and opens the folders holding them', async () => {
    const info: WorkspaceInfo = {
      kind: 'overlay',
      dir: '/home/me/site',
      truncated: false,
      entries: [
        { path: 'docs', isDir: true, size: 0 },
        { path: 'docs/new.md', isDir: false, size: 10, changed: 'added' },
        { path: 'old.md', isDir: false, size: 0, changed: 'deleted' },
        { path: 'readme.md', isDir: false, size: 5, changed: 'modified' },
      ],
    }
    install({}, info, [{ path: 'docs/new.md', op: 'added', diff: '+x\n' }])
    show(chat({ workspaceKind: 'overlay', workspaceDir: '/home/me/site' }))
    await screen.findAllByTestId('file-entry')
    expect(screen.getByTestId('workspace-kind')).toHaveTextContent('Overlay')
    expect(screen.getByTestId('workspace-kind')).toHaveTextContent('/home/me/site')
    await waitFor(() => expect(entry('docs')).toHaveAttribute('aria-expanded', 'true'))
    expect(entry('docs/new.md')).toHaveAttribute('data-changed', 'added')
    expect(within(entry('docs/new.md')!).getByTestId('op-badge')).toHaveTextContent('A')
    expect(entry('readme.md')).toHaveAttribute('data-changed', 'modified')
    expect(within(entry('old.md')!).getByTestId('op-badge')).toHaveTextContent('D')
    expect(screen.getByTestId('changes-tab')).toHaveTextContent('Changes (1)')
  })
})

describe('Changes view', () => {
  const OVERLAY: WorkspaceInfo = {
    kind: 'overlay',
    dir: '/home/me/site',
    truncated: false,
    entries: [
      { path: 'notes.md', isDir: false, size: 10, changed: 'added' },
      { path: 'src', isDir: true, size: 0 },
      { path: 'src/a.css', isDir: false, size: 10, changed: 'modified' },
    ],
  }
  const CHANGES: Change[] = [
    { path: 'notes.md', op: 'added', diff: '--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1 @@\n+# Notes from Airlock\n' },
    { path: 'src/a.css', op: 'modified', diff: '--- a/src/a.css\n+++ b/src/a.css\n@@ -1 +1 @@\n-a\n+b\n', note: 'whitespace only' },
  ]

  beforeEach(() => {
    resetStore()
  })
  afterEach(() => {
    delete window.go
  })

  async function openChanges() {
    const user = userEvent.setup()
    show(chat({ workspaceKind: 'overlay', workspaceDir: '/home/me/site' }))
    await user.click(await screen.findByTestId('changes-tab'))
    const view = await screen.findByTestId('changes')
    return { user, view }
  }
  const change = (path: string) => screen.getAllByTestId('change').find((c) => c.dataset.path === path)!

  it('lists each change with its op, note and coloured diff', async () => {
    install({}, OVERLAY, CHANGES)
    await openChanges()
    expect(screen.getAllByTestId('change').map((c) => [c.dataset.path, c.dataset.op])).toEqual([
      ['notes.md', 'added'],
      ['src/a.css', 'modified'],
    ])
    expect(within(change('notes.md')).getByTestId('op-badge')).toHaveTextContent('Added')
    const diff = within(change('notes.md')).getByTestId('change-diff')
    expect(diff).toHaveTextContent('+# Notes from Airlock')
    expect(diff.querySelector('.diff-add')).toHaveTextContent('+# Notes from Airlock')
    expect(change('src/a.css')).toHaveTextContent('whitespace only')
  })

  it('Apply / Discard one file send that path; Apply all sends []; Discard all asks first', async () => {
    install({}, OVERLAY, CHANGES)
    const { user } = await openChanges()
    await user.click(within(change('src/a.css')).getByTestId('change-apply'))
    await waitFor(() => expect(backend.ApplyChanges).toHaveBeenCalledWith('c1', ['src/a.css']))
    await user.click(within(change('notes.md')).getByTestId('change-discard'))
    await waitFor(() => expect(backend.DiscardChanges).toHaveBeenCalledWith('c1', ['notes.md']))
    await user.click(screen.getByTestId('apply-all'))
    await waitFor(() => expect(backend.ApplyChanges).toHaveBeenLastCalledWith('c1', []))
    // each action reloads the listing and the changes
    expect(backend.WorkspaceChanges.mock.calls.length).toBeGreaterThanOrEqual(4)

    await user.click(screen.getByTestId('discard-all'))
    expect(backend.DiscardChanges).toHaveBeenCalledTimes(1)
    await user.click(await screen.findByTestId('confirm-discard-all'))
    await waitFor(() => expect(backend.DiscardChanges).toHaveBeenLastCalledWith('c1', []))
  })

  it('an apply_conflict shows on the file it names; the others applied', async () => {
    install(
      {
        ApplyChanges: vi.fn(async () => {
          // notes.md went through; src/a.css was refused
          backend.WorkspaceChanges.mockResolvedValue([CHANGES[1]])
          throw JSON.stringify({
            code: 'apply_conflict',
            message: '1 changes were not applied: src/a.css changed on disk since the model read it; review and apply again',
          })
        }),
      },
      OVERLAY,
      CHANGES,
    )
    const { user } = await openChanges()
    await user.click(screen.getByTestId('apply-all'))
    const conflict = await within(change('src/a.css')).findByTestId('change-conflict')
    expect(conflict).toHaveTextContent('the file changed on disk')
    expect(conflict).toHaveTextContent('src/a.css changed on disk since the model read it')
    expect(change('src/a.css')).toHaveAttribute('data-conflict', 'true')
    expect(screen.getByTestId('changes-error')).toHaveTextContent('1 change was not applied')
    expect(screen.queryAllByTestId('change')).toHaveLength(1)
    // applying it again clears the mark
    backend.ApplyChanges.mockResolvedValueOnce(undefined)
    backend.WorkspaceChanges.mockResolvedValue([])
    await user.click(within(change('src/a.css')).getByTestId('change-apply'))
    expect(await screen.findByTestId('changes-empty')).toBeInTheDocument()
    expect(screen.queryByTestId('changes-error')).toBeNull()
  })
})

describe('Workspace settings', () => {
  beforeEach(() => {
    resetStore()
  })
  afterEach(() => {
    delete window.go
  })

  it('Save sets the workspace; a rejected folder shows inline and the previous choice is restored', async () => {
    let current: WorkspaceInfo = SCRATCH
    install({
      GetWorkspace: vi.fn(async () => structuredClone(current)),
      SetWorkspace: vi.fn(async (id: string, kind: string, dir: string) => {
        if (dir.includes('missing')) throw JSON.stringify({ code: 'not_found', message: `folder ${dir} does not exist` })
        current = { ...SCRATCH, kind: kind as WorkspaceInfo['kind'], dir }
        return chat({ id, workspaceKind: kind as Chat['workspaceKind'], workspaceDir: dir })
      }),
    })
    const user = userEvent.setup()
    show()
    await user.click(screen.getByTestId('workspace-settings'))
    const dialog = await screen.findByTestId('workspace-dialog')
    const options = within(dialog).getAllByTestId('workspace-kind-option')
    expect(options.map((o) => (o as HTMLInputElement).value)).toEqual(['scratch', 'folder', 'overlay'])
    expect(options[0]).toBeChecked()
    expect(within(dialog).getByTestId('reset-scratch')).toBeInTheDocument()

    await user.click(options[1])
    expect(within(dialog).getByTestId('workspace-folder-warning')).toBeInTheDocument()
    await user.type(within(dialog).getByTestId('workspace-dir'), '/srv/missing')
    await user.click(within(dialog).getByTestId('workspace-save'))
    expect(await within(dialog).findByTestId('workspace-error')).toHaveTextContent('folder /srv/missing does not exist')
    expect(backend.SetWorkspace).toHaveBeenNthCalledWith(1, 'c1', 'folder', '/srv/missing')
    // put back as it was (the backend keeps a folder it rejected)
    await waitFor(() => expect(backend.SetWorkspace).toHaveBeenNthCalledWith(2, 'c1', 'scratch', ''))

    // a relative path is caught before asking
    await user.clear(within(dialog).getByTestId('workspace-dir'))
    await user.type(within(dialog).getByTestId('workspace-dir'), 'projects/site')
    await user.click(within(dialog).getByTestId('workspace-save'))
    expect(within(dialog).getByTestId('workspace-error')).toHaveTextContent('full path')
    expect(backend.SetWorkspace).toHaveBeenCalledTimes(2)

    // Browse fills the path; overlay saves and closes
    await user.click(within(dialog).getAllByTestId('workspace-kind-option')[2])
    await user.click(within(dialog).getByTestId('workspace-browse'))
    await waitFor(() => expect(within(dialog).getByTestId('workspace-dir')).toHaveValue('/home/me/site'))
    await user.click(within(dialog).getByTestId('workspace-save'))
    await waitFor(() => expect(screen.queryByTestId('workspace-dialog')).toBeNull())
    expect(backend.SetWorkspace).toHaveBeenLastCalledWith('c1', 'overlay', '/home/me/site')
    expect(screen.getByTestId('workspace-kind')).toHaveTextContent('Overlay')
  })

  it('Reset scratch asks first, then empties the workspace', async () => {
    install()
    const user = userEvent.setup()
    show()
    await user.click(screen.getByTestId('workspace-settings'))
    await user.click(await screen.findByTestId('reset-scratch'))
    expect(backend.ResetScratch).not.toHaveBeenCalled()
    await user.click(await screen.findByTestId('confirm-reset-scratch'))
    await waitFor(() => expect(backend.ResetScratch).toHaveBeenCalledWith('c1'))
  })

  it('for the new chat, the choice is kept (not sent) until the chat exists', async () => {
    install()
    const user = userEvent.setup()
    show(null)
    await user.click(screen.getByTestId('workspace-settings'))
    const dialog = await screen.findByTestId('workspace-dialog')
    expect(within(dialog).queryByTestId('reset-scratch')).toBeNull()
    await user.click(within(dialog).getAllByTestId('workspace-kind-option')[2])
    await user.type(within(dialog).getByTestId('workspace-dir'), '/home/me/site/')
    await user.click(within(dialog).getByTestId('workspace-save'))
    await waitFor(() => expect(screen.queryByTestId('workspace-dialog')).toBeNull())
    expect(backend.SetWorkspace).not.toHaveBeenCalled()
    expect(useStore.getState().newChatWorkspace).toEqual({ kind: 'overlay', dir: '/home/me/site' })
    expect(screen.getByTestId('workspace-kind')).toHaveTextContent('Overlay')
  })

  // Issue 30, item 1: before, the new chat's Save took any folder, checked only at Send.
  it('for the new chat, a folder that does not exist is refused at Save: reason shown, the field keeps focus', async () => {
    install({
      CheckWorkspaceFolder: vi.fn(async () => {
        throw JSON.stringify({ code: 'not_found', message: 'folder /home/me/nowhere does not exist' })
      }),
    })
    const user = userEvent.setup()
    show(null)
    await user.click(screen.getByTestId('workspace-settings'))
    const dialog = await screen.findByTestId('workspace-dialog')
    await user.click(within(dialog).getAllByTestId('workspace-kind-option')[1])
    await user.type(within(dialog).getByTestId('workspace-dir'), '/home/me/nowhere')
    await user.click(within(dialog).getByTestId('workspace-save'))
    expect(await within(dialog).findByTestId('workspace-error')).toHaveTextContent('does not exist')
    expect(backend.CheckWorkspaceFolder).toHaveBeenCalledWith('folder', '/home/me/nowhere')
    expect(screen.getByTestId('workspace-dialog')).toBeInTheDocument()
    await waitFor(() => expect(within(dialog).getByTestId('workspace-dir')).toHaveFocus())
    expect(useStore.getState().newChatWorkspace).toEqual({ kind: 'scratch', dir: '' })
  })
})
