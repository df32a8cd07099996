import { describe, expect, it, vi } from 'vitest'
import { render, screen, fireEvent, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Composer } from './Composer'

const setup = (props: Partial<Parameters<typeof Composer>[0]> = {}) => {
  const onSend = vi.fn().mockResolvedValue(true)
  const onStop = vi.fn()
  const utils = render(<Composer streaming={false} onSend={onSend} onStop={onStop} {...props} />)
  return { onSend, onStop, box: screen.getByTestId('composer') as HTMLTextAreaElement, ...utils }
}

describe('Composer', () => {
  it('Enter sends the text and clears the box', async () => {
    const user = userEvent.setup()
    const { onSend, box } = setup()
    await user.type(box, 'Hello there')
    await user.keyboard('{Enter}')
    expect(onSend).toHaveBeenCalledWith('Hello there')
    await waitFor(() => expect(box.value).toBe(''))
  })

  it('Shift+Enter inserts a newline instead of sending', async () => {
    const user = userEvent.setup()
    const { onSend, box } = setup()
    await user.type(box, 'line one')
    await user.keyboard('{Shift>}{Enter}{/Shift}')
    await user.type(box, 'line two')
    expect(onSend).not.toHaveBeenCalled()
    expect(box.value).toBe('line one\nline two')
    await user.keyboard('{Enter}')
    expect(onSend).toHaveBeenCalledWith('line one\nline two')
  })

  it('does not send while an input method is composing', () => {
    const { onSend, box } = setup()
    fireEvent.change(box, { target: { value: 'ni' } })
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 })
    expect(onSend).not.toHaveBeenCalled()
  })

  it('the Send button sends; it is disabled for blank text', async () => {
    const user = userEvent.setup()
    const { onSend, box } = setup()
    expect(screen.getByTestId('send')).toBeDisabled()
    await user.type(box, '   ')
    expect(screen.getByTestId('send')).toBeDisabled()
    await user.type(box, 'hi')
    expect(screen.getByTestId('send')).toBeEnabled()
    await user.click(screen.getByTestId('send'))
    expect(onSend).toHaveBeenCalledWith('   hi')
  })

  it('while streaming: Send becomes Stop, and Enter does not send', async () => {
    const user = userEvent.setup()
    const { onSend, onStop, box } = setup({ streaming: true })
    expect(screen.queryByTestId('send')).toBeNull()
    const stop = screen.getByTestId('stop')
    expect(stop).toBeEnabled()
    await user.type(box, 'next question')
    await user.keyboard('{Enter}')
    expect(onSend).not.toHaveBeenCalled()
    expect(box.value).toBe('next question') // the draft is kept
    await user.click(stop)
    expect(onStop).toHaveBeenCalledTimes(1)
  })

  it('switches back from Stop to Send when the stream ends', () => {
    const onSend = vi.fn()
    const { rerender } = render(<Composer streaming onSend={onSend} onStop={() => {}} />)
    expect(screen.getByTestId('stop')).toBeInTheDocument()
    rerender(<Composer streaming={false} onSend={onSend} onStop={() => {}} />)
    expect(screen.queryByTestId('stop')).toBeNull()
    expect(screen.getByTestId('send')).toBeInTheDocument()
  })

  it('restores the text when sending fails', async () => {
    const user = userEvent.setup()
    const { box } = setup({ onSend: vi.fn().mockResolvedValue(false) })
    await user.type(box, 'keep me')
    await user.keyboard('{Enter}')
    await waitFor(() => expect(box.value).toBe('keep me'))
  })
})
