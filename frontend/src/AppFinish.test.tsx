// Fit and finish (issue 30): the real App against the preview's fake Go backend.
import { describe, expect, it, beforeEach } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { installFakeBackend } from '../preview/fake-backend'
import { App } from './App'
import { resetStore } from './store'

async function boot(opts: Parameters<typeof installFakeBackend>[0] = {}) {
  const fake = installFakeBackend({ tick: 2, ...opts })
  render(<App />)
  await screen.findAllByTestId('chat-item').catch(() => null)
  await screen.findByTestId('composer')
  return fake
}

describe('fit and finish', { timeout: 20000 }, () => {
  beforeEach(() => {
    resetStore()
  })

  // Item 6: before, Escape closed Settings and dropped the edits without asking.
  it('Escape in Settings over unsaved provider edits asks first; Keep editing keeps them, Discard closes', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('provider-chip'))
    const dialog = await screen.findByTestId('settings-dialog')
    await user.click(within(dialog).getByText('Work OpenAI'))
    await user.type(screen.getByTestId('provider-name'), ' (new)')
    await user.keyboard('{Escape}')
    const ask = await screen.findByTestId('confirm-dialog')
    expect(ask).toHaveTextContent('Discard unsaved changes?')
    expect(screen.getByTestId('settings-dialog')).toBeInTheDocument()
    await user.keyboard('{Escape}') // Keep editing
    expect(screen.queryByTestId('confirm-dialog')).toBeNull()
    expect(screen.getByTestId('provider-name')).toHaveValue('Work OpenAI (new)')
    await user.keyboard('{Escape}')
    await user.click(await screen.findByTestId('confirm-discard-edits'))
    expect(screen.queryByTestId('settings-dialog')).toBeNull()
    // Nothing unsaved: Escape closes at once.
    await user.click(screen.getByTestId('provider-chip'))
    await screen.findByTestId('settings-dialog')
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('confirm-dialog')).toBeNull()
    expect(screen.queryByTestId('settings-dialog')).toBeNull()
  })
})
