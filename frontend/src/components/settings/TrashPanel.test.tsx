import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Chat, TrashedChat } from '../../api'
import { resetStore, useStore } from '../../store'
import { DAY_MS, daysLeft, resetTrash } from '../../store/trash'
import { TrashPanel } from './TrashPanel'
import { Toasts } from '../Toasts'

type Backend = Record<string, ReturnType<typeof vi.fn>>
let backend: Backend
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0)

const trashed = (id: string, title: string, daysAgo: number, messages = 2): TrashedChat => ({
  id,
  title,
  createdAt: 1,
  updatedAt: 2,
  deletedAt: NOW - daysAgo * DAY_MS,
  purgeAt: NOW - daysAgo * DAY_MS + 30 * DAY_MS,
  messages,
})

const chat = (id: string, title: string): Chat =>
  ({ id, title, createdAt: 1, updatedAt: 2, paradigm: 'json', recognizeOthers: true, workspaceKind: 'scratch', workspaceDir: '', pinned: false }) as Chat

function install(items: TrashedChat[]) {
  let list = [...items]
  backend = {
    ListTrash: vi.fn(async () => list),
    RestoreChat: vi.fn(async (id: string) => {
      const t = list.find((x) => x.id === id)!
      list = list.filter((x) => x.id !== id)
      return chat(id, t.title)
    }),
    DeleteChatForever: vi.fn(async (id: string) => {
      list = list.filter((x) => x.id !== id)
    }),
    EmptyTrash: vi.fn(async () => {
      const n = list.length
      list = []
      return n
    }),
  }
  window.go = { main: { App: backend as never } }
}

beforeEach(() => {
  vi.spyOn(Date, 'now').mockReturnValue(NOW)
  resetStore()
  resetTrash()
})
afterEach(() => vi.restoreAllMocks())

const renderPanel = () =>
  render(
    <>
      <TrashPanel />
      <Toasts />
    </>,
  )

describe('Trash view', () => {
  it('lists deleted chats with their date, days left and size', async () => {
    install([trashed('a', 'Alpha', 1, 3), trashed('c', 'Gamma', 29.5), trashed('b', '', 30.01, 1)])
    renderPanel()
    const items = await screen.findAllByTestId('trash-item')
    expect(items).toHaveLength(3)
    expect(items[0]).toHaveTextContent('Alpha')
    expect(items[0]).toHaveTextContent('29 days left')
    expect(items[0]).toHaveTextContent('3 messages')
    expect(items[0]).toHaveTextContent('Deleted')
    expect(items[1]).toHaveTextContent('1 day left')
    // The untitled one is due (the hourly purge takes it).
    expect(items[2]).toHaveTextContent('Untitled')
    expect(items[2]).toHaveTextContent('Deleted for good today')
    expect(items[2]).toHaveTextContent('1 message')
  })

  it('Restore puts the chat back in the sidebar list', async () => {
    install([trashed('a', 'Alpha', 1)])
    useStore.setState({ chats: [chat('z', 'Zeta')] })
    const user = userEvent.setup()
    renderPanel()
    await user.click(await screen.findByTestId('trash-restore'))
    expect(backend.RestoreChat).toHaveBeenCalledWith('a')
    await waitFor(() => expect(screen.queryByTestId('trash-item')).toBeNull())
    expect(useStore.getState().chats.map((c) => c.id).sort()).toEqual(['a', 'z'])
    expect(screen.getByTestId('trash-none')).toHaveTextContent('The Trash is empty.')
    // Said, with Open: Settings closes and the chat opens.
    useStore.setState({ settingsOpen: true })
    await user.click(await screen.findByTestId('trash-restored-open'))
    expect(useStore.getState().settingsOpen).toBe(false)
    await waitFor(() => expect(useStore.getState().activeChatId).toBe('a'))
  })

  it('Delete forever asks first, then deletes that one only', async () => {
    install([trashed('a', 'Alpha', 1), trashed('b', 'Beta', 2)])
    const user = userEvent.setup()
    renderPanel()
    const beta = (await screen.findAllByTestId('trash-item'))[1]
    await user.click(within(beta).getByTestId('trash-delete'))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('“Beta”')
    expect(backend.DeleteChatForever).not.toHaveBeenCalled()
    await user.click(screen.getByTestId('confirm-delete-forever'))
    expect(backend.DeleteChatForever).toHaveBeenCalledWith('b')
    await waitFor(() => expect(screen.getAllByTestId('trash-item')).toHaveLength(1))
    expect(screen.getByTestId('trash-item')).toHaveTextContent('Alpha')
  })

  it('Empty Trash asks first (with the count); Cancel keeps everything', async () => {
    install([trashed('a', 'Alpha', 1), trashed('b', 'Beta', 2)])
    const user = userEvent.setup()
    renderPanel()
    await screen.findAllByTestId('trash-item')
    await user.click(screen.getByTestId('trash-empty'))
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('2 chats will be deleted for good')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(backend.EmptyTrash).not.toHaveBeenCalled()
    expect(screen.getAllByTestId('trash-item')).toHaveLength(2)
    await user.click(screen.getByTestId('trash-empty'))
    await user.click(await screen.findByTestId('confirm-empty-trash'))
    expect(backend.EmptyTrash).toHaveBeenCalled()
    await waitFor(() => expect(screen.queryByTestId('trash-item')).toBeNull())
    expect(await screen.findByText('2 chats deleted for good.')).toBeInTheDocument()
    expect(screen.getByTestId('trash-empty')).toBeDisabled()
  })

  it('days left count whole days', () => {
    expect(daysLeft(trashed('a', '', 0), NOW)).toBe(30)
    expect(daysLeft(trashed('a', '', 0.5), NOW)).toBe(30)
    expect(daysLeft(trashed('a', '', 29.9), NOW)).toBe(1)
    expect(daysLeft(trashed('a', '', 31), NOW)).toBe(0)
  })
})
