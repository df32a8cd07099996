// "Attach to message" in the Files panel: the file joins the composer's
// files like the paperclip's, read through Go; a refusal says why.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Chat, WorkspaceInfo } from '../api'
import { resetStore, useStore } from '../store'
import { FilesPanel } from './FilesPanel'
import { Composer } from './Composer'
import { Toasts } from './Toasts'

const chat: Chat = {
  id: 'c1',
  title: 'Files chat',
  createdAt: 1,
  updatedAt: 1,
  paradigm: 'json',
  recognizeOthers: true,
  workspaceKind: 'scratch',
  workspaceDir: '',
}
const INFO: WorkspaceInfo = {
  kind: 'scratch',
  dir: '',
  truncated: false,
  entries: [
    { path: 'notes.md', isDir: false, size: 8 },
    { path: 'huge.log', isDir: false, size: 30 << 20 },
  ],
}

function install() {
  const backend = {
    GetWorkspace: vi.fn(async () => structuredClone(INFO)),
    WorkspaceChanges: vi.fn(async () => []),
    ReadWorkspaceFile: vi.fn(async (_c: string, path: string) => ({ path, content: '# Notes\n', binary: false, size: 8, truncated: false })),
    WorkspaceAttachment: vi.fn(async (_c: string, path: string) => {
      if (path === 'huge.log') throw JSON.stringify({ code: 'attachment_refused', message: 'huge.log is 30 MB; one attached file may be at most 20 MB.' })
      return { name: 'notes.md', data: btoa('# Notes\n') }
    }),
    ModelVision: vi.fn(async () => ({ providerId: 'p', model: 'm', sees: '', source: '' })),
  }
  window.go = { main: { App: backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
  return backend
}

describe('Files panel → Attach to message', () => {
  beforeEach(() => resetStore())
  afterEach(() => {
    delete window.go
  })

  it('adds the workspace file to the composer, and it is sent with the message', async () => {
    const backend = install()
    const onSend = vi.fn().mockResolvedValue(true)
    useStore.setState({ chats: [chat], activeChatId: 'c1', filesOpen: true })
    const user = userEvent.setup()
    render(
      <>
        <FilesPanel />
        <Composer streaming={false} onSend={onSend} onStop={() => {}} />
        <Toasts />
      </>,
    )
    await user.click((await screen.findAllByTestId('file-entry')).find((e) => e.dataset.path === 'notes.md')!)
    await user.click(await screen.findByTestId('attach-file'))
    expect(backend.WorkspaceAttachment).toHaveBeenCalledWith('c1', 'notes.md')
    expect((await screen.findByTestId('pending-attachment')).textContent).toContain('notes.md')
    await user.click(screen.getByTestId('send'))
    await waitFor(() => expect(onSend).toHaveBeenCalled())
    expect(onSend.mock.calls[0][1]).toEqual([{ name: 'notes.md', data: btoa('# Notes\n') }])
  })

  it('a file Go refuses is not added, and the reason is shown', async () => {
    install()
    useStore.setState({ chats: [chat], activeChatId: 'c1', filesOpen: true })
    const user = userEvent.setup()
    render(
      <>
        <FilesPanel />
        <Composer streaming={false} onSend={vi.fn()} onStop={() => {}} />
        <Toasts />
      </>,
    )
    await user.click((await screen.findAllByTestId('file-entry')).find((e) => e.dataset.path === 'huge.log')!)
    await user.click(await screen.findByTestId('attach-file'))
    expect(await screen.findByText(/at most 20 MB/)).toBeTruthy()
    expect(screen.getByText('Could not attach the file')).toBeTruthy()
    expect(screen.queryByTestId('pending-attachment')).toBeNull()
  })
})
