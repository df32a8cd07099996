import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Chat, McpServerConfig, McpServers } from '../api'
import { resetStore, useStore } from '../store'
import { resetMcp } from '../store/mcp'
import { ChatOptionsButton } from './ChatOptions'

const info = (name: string, enabled: boolean) => ({
  name,
  state: enabled ? ('ready' as const) : ('stopped' as const),
  tools: 1,
  problems: [],
  restartsOnUse: false,
  since: '',
  fromEnv: false,
  config: { name, enabled, command: 'x' } as McpServerConfig,
})
const LIST: McpServers = { servers: [info('everything', true), info('sqlite', true), info('off', false)], envFile: '', envError: '' }
const chat = (over: Partial<Chat> = {}): Chat => ({ id: 'c1', title: 'A chat', createdAt: 1, updatedAt: 1, paradigm: 'json', recognizeOthers: true, mcpServers: null, ...over })

type Fn = ReturnType<typeof vi.fn>
let app: Record<string, Fn>

function install(list: McpServers = LIST) {
  app = {
    ListMCPServers: vi.fn(async () => structuredClone(list)),
    SetChatServers: vi.fn(async (id: string, all: boolean, servers: string[]) => chat({ id, mcpServers: all ? null : servers })),
    SetChatOptions: vi.fn(async (id: string, o: Partial<Chat>) => ({ ...chat({ id }), ...o })),
  }
  window.go = { main: { App: app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

const box = (name: string) => screen.getAllByTestId('chat-mcp-server').find((b) => b.dataset.name === name) as HTMLInputElement

async function open() {
  const user = userEvent.setup()
  render(<ChatOptionsButton />)
  await user.click(screen.getByTestId('chat-options'))
  await screen.findByTestId('chat-mcp')
  return user
}

describe('a chat’s MCP servers (tool options)', () => {
  beforeEach(() => {
    resetStore()
    resetMcp()
    install()
  })
  afterEach(() => {
    delete window.go
  })

  it('defaults to all enabled servers; Choose… starts from the enabled ones, then each box adds or removes one', async () => {
    useStore.setState({ chats: [chat()], activeChatId: 'c1' })
    const user = await open()
    expect(screen.getByTestId('chat-mcp-all')).toBeChecked()
    expect(screen.queryAllByTestId('chat-mcp-server')).toHaveLength(0)

    await user.click(screen.getByTestId('chat-mcp-choose'))
    expect(app.SetChatServers).toHaveBeenLastCalledWith('c1', false, ['everything', 'sqlite'])
    await waitFor(() => expect(screen.getAllByTestId('chat-mcp-server')).toHaveLength(3))
    expect(box('everything')).toBeChecked()
    expect(box('off')).not.toBeChecked()
    // a disabled server is listed, greyed and marked
    expect(box('off').closest('label')).toHaveClass('is-disabled')
    expect(box('off').closest('label')).toHaveTextContent('off(disabled)')

    await user.click(box('sqlite'))
    expect(app.SetChatServers).toHaveBeenLastCalledWith('c1', false, ['everything'])
    await user.click(box('off'))
    expect(app.SetChatServers).toHaveBeenLastCalledWith('c1', false, ['everything', 'off'])
    await waitFor(() => expect(useStore.getState().chats[0].mcpServers).toEqual(['everything', 'off']))

    await user.click(screen.getByTestId('chat-mcp-all'))
    expect(app.SetChatServers).toHaveBeenLastCalledWith('c1', true, [])
    await waitFor(() => expect(useStore.getState().chats[0].mcpServers).toBeNull())
  })

  it('a chat with its own list shows it, and a name no server has any more can be unticked', async () => {
    useStore.setState({ chats: [chat({ mcpServers: ['sqlite', 'gone'] })], activeChatId: 'c1' })
    const user = await open()
    expect(screen.getByTestId('chat-mcp-choose')).toBeChecked()
    expect(screen.getAllByTestId('chat-mcp-server').map((b) => `${b.dataset.name}:${(b as HTMLInputElement).checked}`)).toEqual([
      'everything:false',
      'sqlite:true',
      'off:false',
      'gone:true',
    ])
    expect(box('gone').closest('label')).toHaveTextContent('(not configured)')
    await user.click(box('gone'))
    expect(app.SetChatServers).toHaveBeenLastCalledWith('c1', false, ['sqlite'])
  })

  it('a failed save puts the previous choice back and says so', async () => {
    useStore.setState({ chats: [chat()], activeChatId: 'c1' })
    app.SetChatServers.mockRejectedValueOnce(JSON.stringify({ code: 'not_found', message: 'Chat not found.' }))
    const user = await open()
    await user.click(screen.getByTestId('chat-mcp-choose'))
    await waitFor(() => expect(useStore.getState().toasts[0]).toMatchObject({ title: 'errors.chatServers', message: 'Chat not found.' }))
    expect(useStore.getState().chats[0].mcpServers).toBeNull()
    expect(screen.getByTestId('chat-mcp-all')).toBeChecked()
  })

  it('the new (lazy) chat keeps its choice until it is created', async () => {
    useStore.setState({ chats: [], activeChatId: null })
    const user = await open()
    await user.click(screen.getByTestId('chat-mcp-choose'))
    await user.click(box('sqlite'))
    expect(useStore.getState().newChatServers).toEqual(['everything'])
    expect(app.SetChatServers).not.toHaveBeenCalled()
  })

  it('no servers: a one-line hint that opens Settings → Tools', async () => {
    install({ servers: [], envFile: '', envError: '' })
    useStore.setState({ chats: [chat()], activeChatId: 'c1' })
    const user = await open()
    const none = screen.getByTestId('chat-mcp-none')
    expect(none).toHaveTextContent('No MCP servers are configured.')
    expect(screen.queryByTestId('chat-mcp-all')).toBeNull()
    await user.click(within(none).getByTestId('chat-mcp-settings'))
    expect(useStore.getState()).toMatchObject({ settingsOpen: true, settingsTab: 'tools' })
    expect(screen.queryByTestId('chat-options-popover')).toBeNull()
  })

  it('changing the call format sends the chat’s server list along (so it is not reset to all)', async () => {
    useStore.setState({ chats: [chat({ mcpServers: ['sqlite'] })], activeChatId: 'c1' })
    const user = await open()
    await user.click(screen.getAllByTestId('paradigm-option').find((r) => (r as HTMLInputElement).value === 'xml')!)
    expect(app.SetChatOptions).toHaveBeenCalledWith('c1', { paradigm: 'xml', recognizeOthers: true, toolMode: 'text', mcpServers: ['sqlite'] })
  })
})
