import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Chat, Message, SearchHit } from '../api'
import { resetStore, useStore } from '../store'
import { loadOlder, resetHistory, snippetParts, UNDO_DELETE_MS, useHistory } from '../store/history'
import { Sidebar } from './Sidebar'
import { Toasts } from './Toasts'
import { MessageItem } from './MessageItem'
import { Snippet } from './SearchResults'

type Backend = Record<string, ReturnType<typeof vi.fn>>
let backend: Backend

const chat = (id: string, over: Partial<Chat> = {}): Chat => ({
  id,
  title: `Chat ${id}`,
  createdAt: 1,
  updatedAt: Date.now(),
  paradigm: 'json',
  recognizeOthers: true,
  workspaceKind: 'scratch',
  workspaceDir: '',
  pinned: false,
  ...over,
})

const msg = (id: string, over: Partial<Message> = {}): Message => ({
  id,
  chatId: 'c1',
  role: 'user',
  kind: 'text',
  content: `text of ${id}`,
  reasoning: '',
  status: 'complete',
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  createdAt: 1,
  updatedAt: 1,
  parentId: '',
  ...over,
})

function install(over: Partial<Backend> = {}) {
  backend = {
    ListChats: vi.fn(async () => []),
    ListMessages: vi.fn(async () => []),
    ListMessagesPage: vi.fn(async () => []),
    ListCalls: vi.fn(async () => []),
    DeleteChat: vi.fn(async () => undefined),
    Search: vi.fn(async () => []),
    SwitchVersion: vi.fn(async (id: string) => chat('c1', { leafId: id })),
    ListVersions: vi.fn(async () => []),
    EditAndResend: vi.fn(async () => []),
    Regenerate: vi.fn(async () => msg('x')),
    SetPinned: vi.fn(async (id: string, pinned: boolean) => chat(id, { pinned })),
    ...over,
  }
  window.go = { main: { App: backend as never } }
}

beforeEach(() => {
  resetStore()
  resetHistory()
  install()
})
afterEach(() => {
  vi.useRealTimers()
  delete window.go
})

describe('search snippets', () => {
  it('turns \\u0002…\\u0003 into <mark> and keeps everything else as text', () => {
    expect(snippetParts('a \u0002zebra\u0003 b')).toEqual([
      { text: 'a ', mark: false },
      { text: 'zebra', mark: true },
      { text: ' b', mark: false },
    ])
    const { container } = render(
      <p data-testid="s">
        <Snippet text={'see \u0002<script>alert(1)</script>\u0003 and \u0002zebra\u0003 <b>bold</b>'} />
      </p>,
    )
    const marks = container.querySelectorAll('mark')
    expect([...marks].map((m) => m.textContent)).toEqual(['<script>alert(1)</script>', 'zebra'])
    expect(container.querySelector('script')).toBeNull()
    expect(container.querySelector('b')).toBeNull()
    expect(screen.getByTestId('s').textContent).toBe('see <script>alert(1)</script> and zebra <b>bold</b>')
  })
})

describe('sidebar search', () => {
  // Issue 30, item 12: a results message names its tools (the backend gives its output without the protocol).
  it('a results message shows the tools it carries results of', async () => {
    const hit = { chatId: 'c1', chatTitle: 'Maths', messageId: 'r', role: 'user', kind: 'message', snippet: 'seventeen \u0002cubed\u0003 is 4913', createdAt: 1, tools: 'calculate' } as SearchHit
    install({ Search: vi.fn(async () => [hit]) })
    useStore.setState({ chats: [chat('c1', { title: 'Maths' })], activeChatId: 'c1', messages: { c1: [] } })
    const user = userEvent.setup()
    render(<Sidebar />)
    await user.type(screen.getByTestId('search'), 'cubed')
    const row = await screen.findByTestId('search-result')
    expect(within(row).getByTestId('search-result-results')).toHaveTextContent('Results · calculate')
    expect(row).toHaveTextContent('seventeen cubed is 4913')
  })

  it('opens a hit: selects the chat, switches to the version that has the message, flags it for highlight', async () => {
    const hit: SearchHit = {
      chatId: 'c1',
      chatTitle: 'Zebra talk',
      messageId: 'old',
      role: 'user',
      kind: 'message',
      snippet: 'the \u0002zebra\u0003 protocol',
      createdAt: 1,
    }
    let switched = false
    install({
      Search: vi.fn(async () => [hit]),
      ListMessagesPage: vi.fn(async () => (switched ? [msg('old')] : [msg('new')])),
      SwitchVersion: vi.fn(async (id: string) => {
        switched = true
        return chat('c1', { leafId: id })
      }),
    })
    useStore.setState({ chats: [chat('c1', { title: 'Zebra talk' }), chat('c2')], activeChatId: 'c2', messages: { c2: [] } })
    const user = userEvent.setup()
    render(<Sidebar />)
    await user.type(screen.getByTestId('search'), 'zebra')
    const row = await screen.findByTestId('search-result')
    expect(backend.Search).toHaveBeenCalledWith('zebra')
    expect(within(row).getByText('zebra').tagName).toBe('MARK')
    expect(screen.queryByTestId('chat-item')).toBeNull() // results replace the list

    await user.click(row)
    await waitFor(() => expect(useHistory.getState().highlight?.messageId).toBe('old'))
    expect(useStore.getState().activeChatId).toBe('c1')
    expect(backend.SwitchVersion).toHaveBeenCalledWith('old')
    expect(useStore.getState().messages.c1.map((m) => m.id)).toEqual(['old'])

    // Esc clears: the chat list is back.
    await user.type(screen.getByTestId('search'), '{Escape}')
    expect(await screen.findAllByTestId('chat-item')).toHaveLength(2)
  })

  it('says so when nothing matches', async () => {
    const user = userEvent.setup()
    useStore.setState({ chats: [chat('c1')] })
    render(<Sidebar />)
    await user.type(screen.getByTestId('search'), 'nothing')
    expect(await screen.findByTestId('search-empty')).toHaveTextContent('No results for “nothing”')
  })
})

describe('chat list', () => {
  it('chats with the same title show when each was started, in the list and in search results; the active chat is scrolled to', async () => {
    const scrolled: Element[] = []
    const original = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this)
    }
    const hit: SearchHit = { chatId: 't2', chatTitle: 'What time is it?', messageId: 'm', role: 'user', kind: 'message', snippet: 'time' } as SearchHit
    install({ Search: vi.fn(async () => [hit]) })
    const at = (d: number, h: number, m: number) => new Date(2026, 10, d, h, m).getTime()
    useStore.setState({
      chats: [
        chat('t1', { title: 'What time is it?', createdAt: at(24, 14, 2) }),
        chat('t2', { title: 'What time is it?', createdAt: at(23, 9, 30) }),
        chat('u', { title: 'Unique' }),
      ],
      activeChatId: 't2',
      view: 'chat',
    })
    const user = userEvent.setup()
    render(<Sidebar />)
    const items = screen.getAllByTestId('chat-item')
    expect(within(items[0]).getByTestId('chat-twin')).toHaveTextContent('Nov 24, 14:02')
    expect(within(items[1]).getByTestId('chat-twin')).toHaveTextContent('Nov 23, 09:30')
    expect(within(items[2]).queryByTestId('chat-twin')).toBeNull()
    await waitFor(() => expect(scrolled).toContain(items[1]))
    Element.prototype.scrollIntoView = original

    await user.type(screen.getByTestId('search'), 'time')
    const row = await screen.findByTestId('search-result')
    expect(within(row).getByTestId('search-result-twin')).toHaveTextContent('Nov 23, 09:30')
  })

  it('shows pinned chats first, in their own group', () => {
    useStore.setState({ chats: [chat('a', { title: 'Alpha' }), chat('b', { title: 'Beta', pinned: true, updatedAt: 1 })] })
    render(<Sidebar />)
    const groups = screen.getAllByRole('region')
    expect(groups[0]).toHaveAttribute('data-testid', 'pinned-group')
    expect(within(groups[0]).getByText('Pinned')).toBeInTheDocument()
    expect(within(groups[0]).getByText('Beta')).toBeInTheDocument()
    expect(within(groups[0]).queryByText('Alpha')).toBeNull()
    expect(screen.getAllByTestId('chat-item').map((el) => el.textContent)).toEqual([expect.stringContaining('Beta'), expect.stringContaining('Alpha')])
  })

  it('pins from the chat menu', async () => {
    const user = userEvent.setup()
    useStore.setState({ chats: [chat('a', { title: 'Alpha' })] })
    render(<Sidebar />)
    await user.click(screen.getByTestId('chat-menu'))
    await user.click(screen.getByTestId('chat-pin'))
    await waitFor(() => expect(screen.getByTestId('pinned-group')).toBeInTheDocument())
    expect(backend.SetPinned).toHaveBeenCalledWith('a', true)
  })
})

describe('delete moves to the Trash, with undo', () => {
  const setup = async () => {
    useStore.setState({ chats: [chat('a', { title: 'Alpha' }), chat('b', { title: 'Beta' })], activeChatId: 'b', messages: { b: [] } })
    backend.RestoreChat = vi.fn(async (id: string) => chat(id, { title: 'Alpha' }))
    const user = userEvent.setup()
    render(
      <>
        <Sidebar />
        <Toasts />
      </>,
    )
    const row = screen.getByText('Alpha').closest('li')!
    await user.click(within(row).getByTestId('chat-delete'))
    await waitFor(() => expect(screen.queryByText('Alpha')).toBeNull())
    expect(screen.getAllByTestId('chat-item')).toHaveLength(1)
    return user
  }

  it('moves it to the Trash at once, without asking, and says so', async () => {
    await setup()
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(backend.DeleteChat).toHaveBeenCalledWith('a')
    expect(await screen.findByText('Moved to Trash')).toBeInTheDocument()
    expect(useStore.getState().chats.map((c) => c.id)).toEqual(['b'])
    expect(UNDO_DELETE_MS).toBeGreaterThanOrEqual(5000)
  })

  it('Undo restores it from the Trash', async () => {
    const user = await setup()
    await user.click(screen.getByTestId('undo-delete'))
    expect(backend.RestoreChat).toHaveBeenCalledWith('a')
    expect(await screen.findByText('Alpha')).toBeInTheDocument()
    expect(screen.queryByTestId('undo-delete')).toBeNull()
  })

  it('the Delete key moves the focused chat and keeps the keyboard on the list', async () => {
    useStore.setState({ chats: [chat('a', { title: 'Alpha' }), chat('b', { title: 'Beta' })], activeChatId: 'b', messages: { b: [] } })
    const user = userEvent.setup()
    render(<Sidebar />)
    screen.getAllByTestId('chat-item')[0].focus()
    await user.keyboard('{Delete}')
    expect(backend.DeleteChat).toHaveBeenCalledWith('a')
    await waitFor(() => expect(document.activeElement).toHaveTextContent('Beta'))
  })

  it('a failed move brings it back and says why', async () => {
    backend.DeleteChat = vi.fn(async () => {
      throw { code: 'internal', message: 'disk is full' }
    })
    useStore.setState({ chats: [chat('a', { title: 'Alpha' })], activeChatId: null })
    const user = userEvent.setup()
    render(
      <>
        <Sidebar />
        <Toasts />
      </>,
    )
    await user.click(screen.getByTestId('chat-delete'))
    expect(await screen.findByText(/disk is full/)).toBeInTheDocument()
    expect(screen.getByText('Alpha')).toBeInTheDocument()
    expect(screen.queryByTestId('undo-delete')).toBeNull()
  })
})

describe('versions', () => {
  it('the switcher asks for the versions and switches to the neighbour', async () => {
    const user = userEvent.setup()
    const versions = [msg('v1', { role: 'assistant', version: 1, versions: 3 }), msg('v2', { role: 'assistant', version: 2, versions: 3 }), msg('v3', { role: 'assistant', version: 3, versions: 3 })]
    install({ ListVersions: vi.fn(async () => versions), ListMessagesPage: vi.fn(async () => [versions[0]]) })
    useStore.setState({ chats: [chat('c1')], activeChatId: 'c1', messages: { c1: [versions[1]] } })
    render(<MessageItem message={versions[1]} canRetry={false} onRetry={() => {}} />)
    expect(screen.getByTestId('version-label')).toHaveTextContent('2/3')

    await user.click(screen.getByTestId('version-prev'))
    await waitFor(() => expect(backend.SwitchVersion).toHaveBeenCalledWith('v1'))
    expect(backend.ListVersions).toHaveBeenCalledWith('v2')
    await waitFor(() => expect(backend.ListMessagesPage).toHaveBeenCalledWith('c1', '', 50))

    await user.click(screen.getByTestId('version-next'))
    await waitFor(() => expect(backend.SwitchVersion).toHaveBeenLastCalledWith('v3'))
  })

  it('is disabled while the chat streams', () => {
    const m = msg('v2', { role: 'assistant', version: 2, versions: 2 })
    useStore.setState({ chats: [chat('c1')], activeChatId: 'c1', messages: { c1: [m] }, streaming: { c1: true } })
    render(<MessageItem message={m} canRetry={false} onRetry={() => {}} />)
    expect(screen.getByTestId('version-prev')).toBeDisabled()
    expect(screen.getByTestId('regenerate')).toBeDisabled()
  })

  it('edit and resend sends the new text as a new version', async () => {
    const user = userEvent.setup()
    const m = msg('u1', { content: 'hello' })
    install({
      EditAndResend: vi.fn(async () => [msg('u2', { content: 'markdown please' }), msg('a2', { role: 'assistant', status: 'streaming', content: '' })]),
      ListMessagesPage: vi.fn(async () => [msg('u2', { content: 'markdown please', versions: 2, version: 2 })]),
    })
    useStore.setState({ chats: [chat('c0', { updatedAt: 50 }), chat('c1', { updatedAt: 10 })], activeChatId: 'c1', messages: { c1: [m] } })
    render(<MessageItem message={m} canRetry={false} onRetry={() => {}} />)
    await user.click(screen.getByTestId('edit-message'))
    const input = screen.getByTestId('edit-input')
    expect(input).toHaveFocus()
    await user.clear(input)
    await user.type(input, 'markdown please')
    await user.click(screen.getByTestId('edit-send'))
    await waitFor(() => expect(backend.EditAndResend).toHaveBeenCalledWith('u1', 'markdown please'))
    await waitFor(() => expect(useStore.getState().messages.c1.map((x) => x.id)).toEqual(['u2']))
    expect(screen.queryByTestId('edit-input')).toBeNull()
    // Issue 30, item 15: the edited chat moves up the sidebar.
    expect(useStore.getState().chats.map((c) => c.id)).toEqual(['c1', 'c0'])
  })

  it('Esc cancels an edit without sending', async () => {
    const user = userEvent.setup()
    const m = msg('u1', { content: 'hello' })
    useStore.setState({ chats: [chat('c1')], activeChatId: 'c1', messages: { c1: [m] } })
    render(<MessageItem message={m} canRetry={false} onRetry={() => {}} />)
    await user.click(screen.getByTestId('edit-message'))
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('edit-input')).toBeNull()
    expect(backend.EditAndResend).not.toHaveBeenCalled()
  })

  it('regenerate asks for a new version of the answer', async () => {
    const user = userEvent.setup()
    const m = msg('a1', { role: 'assistant', content: 'answer', model: 'demo' })
    useStore.setState({ chats: [chat('c1')], activeChatId: 'c1', messages: { c1: [m] } })
    render(<MessageItem message={m} canRetry={false} onRetry={() => {}} />)
    await user.click(screen.getByTestId('regenerate'))
    await waitFor(() => expect(backend.Regenerate).toHaveBeenCalledWith('a1'))
  })
})

describe('long chats', () => {
  it('opens with the newest page and prepends older ones until the first has no parent', async () => {
    const page2 = [msg('m1'), msg('m2', { parentId: 'm1' })]
    const page1 = [msg('m3', { parentId: 'm2' }), msg('m4', { parentId: 'm3' })]
    install({ ListMessagesPage: vi.fn(async (_c: string, before: string) => (before ? page2 : page1)) })
    await useStore.getState().loadMessages('c1')
    expect(backend.ListMessagesPage).toHaveBeenCalledWith('c1', '', 50)
    expect(useStore.getState().hasOlder.c1).toBe(true)
    expect(await loadOlder('c1')).toBe(true)
    expect(backend.ListMessagesPage).toHaveBeenLastCalledWith('c1', 'm3', 50)
    expect(useStore.getState().messages.c1.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4'])
    expect(useStore.getState().hasOlder.c1).toBe(false)
    expect(await loadOlder('c1')).toBe(false)
  })
})
