import { describe, expect, it } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import type { Message } from '../api'
import { MessageItem } from './MessageItem'
import { USER_LIMITS } from '../lib/collapse'

const msg = (over: Partial<Message>): Message => ({
  id: 'm1',
  chatId: 'c1',
  role: 'user',
  kind: 'text',
  content: '',
  reasoning: '',
  status: 'complete',
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  createdAt: 1,
  updatedAt: 1,
  ...over,
})
const paste = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n')

describe('huge messages collapse', () => {
  it('a 3,000-line user message shows its first lines and "Show all (3000 lines)"; Show all / Show less toggle it', () => {
    const { container } = render(<MessageItem message={msg({ content: paste })} canRetry={false} onRetry={() => {}} />)
    const text = () => container.querySelector('.msg__plain')!.textContent!
    expect(text().split('\n')).toHaveLength(USER_LIMITS.showLines)
    const btn = screen.getByTestId('show-all')
    expect(btn).toHaveTextContent('Show all (3000 lines)')
    expect(btn).toHaveAttribute('aria-expanded', 'false')
    fireEvent.click(btn)
    expect(text()).toBe(paste)
    expect(btn).toHaveTextContent('Show less')
    fireEvent.click(btn)
    expect(text().split('\n')).toHaveLength(USER_LIMITS.showLines)
  })

  it('a short user message has no Show all', () => {
    render(<MessageItem message={msg({ content: 'hello\nthere' })} canRetry={false} onRetry={() => {}} />)
    expect(screen.queryByTestId('show-all')).toBeNull()
  })

  it('a long code block in an answer is clipped with Show all; a short one is not', () => {
    const code = Array.from({ length: 200 }, (_, i) => `x${i} = ${i}`).join('\n')
    const { container } = render(
      <MessageItem message={msg({ role: 'assistant', content: '```\n' + code + '\n```\n\n```\nshort\n```' })} canRetry={false} onRetry={() => {}} />,
    )
    const blocks = container.querySelectorAll('.code-block')
    expect(blocks).toHaveLength(2)
    expect(blocks[0]).toHaveClass('is-collapsed')
    expect(blocks[1]).not.toHaveClass('is-collapsed')
    const btn = screen.getByTestId('show-all')
    expect(btn).toHaveTextContent('Show all (200 lines)')
    fireEvent.click(btn)
    expect(blocks[0]).not.toHaveClass('is-collapsed')
  })
})

describe('the token line', () => {
  it('says the prompt-cache reads and writes when the provider reported them, and nothing of a cache otherwise', () => {
    const usage = { promptTokens: 1225, completionTokens: 15, totalTokens: 1240, cacheReadTokens: 1000, cacheWriteTokens: 200 }
    const { unmount } = render(<MessageItem message={msg({ role: 'assistant', content: 'hi', usage })} canRetry={false} onRetry={() => {}} />)
    expect(screen.getByTestId('usage')).toHaveTextContent('1240 tokens (1225 in / 15 out) · cache: 1000 read, 200 written')
    unmount()
    render(<MessageItem message={msg({ role: 'assistant', content: 'hi', usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } })} canRetry={false} onRetry={() => {}} />)
    expect(screen.getByTestId('usage')).not.toHaveTextContent('cache')
  })
})
