import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { blankAgent, type Chat } from '../api'
import { resetStore, useStore } from '../store'
import { resetAgents, useAgents } from '../store/agents'
import { ChatModeSource } from './ChatModeSource'

const chat = (over: Partial<Chat> = {}): Chat => ({ id: 'c1', title: 'c', createdAt: 1, updatedAt: 1, paradigm: 'json', recognizeOthers: true, toolMode: 'auto', agentId: 'a1', ...over })

function setup(c: Chat) {
  useStore.setState({ chats: [c], activeChatId: c.id })
  useAgents.setState({ agents: [{ ...blankAgent(), id: 'a1', name: 'Careful', toolMode: 'auto', paradigm: 'xml' }] })
}

afterEach(() => {
  resetStore()
  resetAgents()
})

describe('where a chat’s tool mode comes from', () => {
  it('says a chat follows its agent', () => {
    setup(chat())
    render(<ChatModeSource chatId="c1" save={() => {}} />)
    expect(screen.getByTestId('chat-mode-source')).toHaveAttribute('data-own', 'none')
    expect(screen.getByTestId('chat-mode-source')).toHaveTextContent('follow the agent Careful')
    expect(screen.queryByTestId('chat-mode-follow')).toBeNull()
  })

  it('says a chat keeps its own mode, and follows the agent again on request', async () => {
    setup(chat({ toolMode: 'text', toolModeOwn: true }))
    const save = vi.fn()
    render(<ChatModeSource chatId="c1" save={save} />)
    expect(screen.getByTestId('chat-mode-source')).toHaveAttribute('data-own', 'mode')
    expect(screen.getByTestId('chat-mode-source')).toHaveTextContent('keeps its own tool mode')
    await userEvent.setup().click(screen.getByTestId('chat-mode-follow'))
    expect(save).toHaveBeenCalledWith('xml', 'auto')
  })
})
