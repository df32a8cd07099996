import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import type { Message } from '../api'
import { resetStore, useStore } from '../store'
import { MessageItem } from './MessageItem'

const answer = (over: Partial<Message>): Message => ({
  id: 'm1',
  chatId: 'c1',
  role: 'assistant',
  kind: 'text',
  content: 'The first half of a long ans',
  reasoning: '',
  status: 'complete',
  usage: { promptTokens: 10, completionTokens: 512, totalTokens: 522 },
  createdAt: 1,
  updatedAt: 1,
  ...over,
})

afterEach(() => resetStore())

describe('an answer its token budget cut off', () => {
  it('says so, and Continue asks the model to go on (last answer only)', () => {
    const send = vi.fn(async () => true)
    useStore.setState({ send })
    const { rerender } = render(
      <MessageItem message={answer({ errorCode: 'cut_off', errorMessage: 'The answer reached its length limit.' })} canRetry onRetry={() => {}} />,
    )
    expect(screen.getByTestId('message-cut-off')).toHaveTextContent('length limit')
    fireEvent.click(screen.getByTestId('continue-answer'))
    expect(send).toHaveBeenCalledWith('Continue exactly where you stopped.')

    rerender(<MessageItem message={answer({ errorCode: 'cut_off' })} canRetry={false} onRetry={() => {}} />)
    expect(screen.queryByTestId('continue-answer')).toBeNull()
  })

  it('a finished answer says nothing of the kind', () => {
    render(<MessageItem message={answer({})} canRetry onRetry={() => {}} />)
    expect(screen.queryByTestId('message-cut-off')).toBeNull()
  })
})
