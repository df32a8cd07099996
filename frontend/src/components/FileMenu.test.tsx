import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Chat, WorkspaceInfo } from '../api'
import { resetStore, useStore } from '../store'
import { FilesPanel } from './FilesPanel'
import { Toasts } from './Toasts'

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

const info = (kind: WorkspaceInfo['kind'], dir = ''): WorkspaceInfo => ({
  kind,
  dir,
  truncated: false,
  entries: [{ path: 'notes.md', isDir: false, size: 6 }],
})

function install(ws: WorkspaceInfo | Error, over: Partial<Backend> = {}) {
  backend = {
    GetWorkspace: vi.fn(async () => {
      if (ws instanceof Error) throw JSON.stringify({ code: 'not_found', message: ws.message })
      return structuredClone(ws)
    }),
    WorkspaceChanges: vi.fn(async () => []),
    ListCheckpoints: vi.fn(async () => []),
    ReadWorkspaceFile: vi.fn(async (_c: string, path: string) => ({ path, content: 'hello\n', binary: false, size: 6, truncated: false })),
    SaveWorkspaceFileAs: vi.fn(async () => '/home/me/Documents/notes.md'),
    OpenWorkspaceFile: vi.fn(async () => undefined),
    SetWorkspace: vi.fn(async (id: string, kind: string, dir: string) => chat({ id, workspaceKind: kind as Chat['workspaceKind'], workspaceDir: dir })),
    PickFolder: vi.fn(async () => '/home/me/site'),
    ...over,
  }
  window.go = { main: { App: backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

async function openFileMenu(c: Chat) {
  useStore.setState({ chats: [c], activeChatId: c.id, filesOpen: true })
  const user = userEvent.setup()
  render(
    <>
      <FilesPanel />
      <Toasts />
    </>,
  )
  await user.click(await screen.findByText('notes.md'))
  await user.click(await screen.findByTestId('file-menu'))
  await screen.findByTestId('file-menu-list')
  return user
}

describe('Files ▸ file menu', () => {
  beforeEach(() => {
    resetStore()
    localStorage.clear()
  })
  afterEach(() => {
    delete window.go
  })

  it('a Scratch file: Save as… saves a copy and says where', async () => {
    install(info('scratch'))
    const user = await openFileMenu(chat())
    expect(screen.queryByTestId('file-open-editor')).toBeNull()
    await user.click(screen.getByTestId('file-save-as'))
    expect(backend.SaveWorkspaceFileAs).toHaveBeenCalledWith('c1', 'notes.md', 'Save a copy of notes.md')
    expect(await screen.findByText('Saved to /home/me/Documents/notes.md')).toBeInTheDocument()
    expect(screen.queryByTestId('file-menu-list')).toBeNull()
  })

  it('Save as… cancelled says nothing; a failure says why', async () => {
    install(info('overlay', '/home/me/site'), { SaveWorkspaceFileAs: vi.fn(async () => '') })
    const user = await openFileMenu(chat({ workspaceKind: 'overlay', workspaceDir: '/home/me/site' }))
    await user.click(screen.getByTestId('file-save-as'))
    expect(backend.SaveWorkspaceFileAs).toHaveBeenCalled()
    expect(screen.queryByText('Copy saved')).toBeNull()
    backend.SaveWorkspaceFileAs.mockImplementation(async () => {
      throw JSON.stringify({ code: 'io_error', message: 'cannot write in "/media/usb"' })
    })
    await user.click(screen.getByTestId('file-menu'))
    await user.click(await screen.findByTestId('file-save-as'))
    expect(await screen.findByText('Couldn’t save a copy')).toBeInTheDocument()
    expect(screen.getByText(/cannot write in/)).toBeInTheDocument()
  })

  it('a folder file: Open in editor first, then Save as…', async () => {
    install(info('folder', '/home/me/site'))
    const user = await openFileMenu(chat({ workspaceKind: 'folder', workspaceDir: '/home/me/site' }))
    const items = screen.getAllByRole('menuitem')
    expect(items.map((i) => i.dataset.testid)).toEqual(['file-open-editor', 'file-save-as'])
    await waitFor(() => expect(items[0]).toHaveFocus())
    await user.keyboard('{Enter}')
    expect(backend.OpenWorkspaceFile).toHaveBeenCalledWith('c1', 'notes.md')
  })

  it('the chat’s folder vanished: Choose the folder again and Switch to Scratch', async () => {
    install(new Error('folder /home/me/site does not exist'))
    useStore.setState({ chats: [chat({ workspaceKind: 'folder', workspaceDir: '/home/me/site' })], activeChatId: 'c1', filesOpen: true })
    const user = userEvent.setup()
    render(<FilesPanel />)
    expect(await screen.findByTestId('files-error')).toHaveTextContent('does not exist')
    expect(screen.getByTestId('workspace-choose-again')).toBeInTheDocument()
    await user.click(screen.getByTestId('workspace-use-scratch'))
    expect(backend.SetWorkspace).toHaveBeenCalledWith('c1', 'scratch', '')
  })

  it('a Scratch chat that fails to load offers no folder choice', async () => {
    install(new Error('database is locked'))
    useStore.setState({ chats: [chat()], activeChatId: 'c1', filesOpen: true })
    render(<FilesPanel />)
    await screen.findByTestId('files-error')
    expect(screen.queryByTestId('workspace-choose-again')).toBeNull()
  })
})
