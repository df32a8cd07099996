import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useCodeLimits } from '../../store/code'
import { CodePanel } from './CodePanel'

const defaults = { timeoutSeconds: 10, memoryMiB: 128, outputKiB: 16, maxFiles: 50, maxWriteMiB: 10 }
let save: ReturnType<typeof vi.fn>

describe('Settings → Running code', () => {
  beforeEach(() => {
    useCodeLimits.setState({ limits: null, error: null })
    save = vi.fn(async (l: unknown) => l)
    window.go = {
      main: { App: { GetCodeLimits: vi.fn(async () => defaults), SaveCodeLimits: save } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> },
    }
  })
  afterEach(() => {
    delete window.go
  })

  it('shows the bounds, refuses one out of range, saves a good one', async () => {
    render(<CodePanel />)
    const timeout = (await screen.findByTestId('code-timeout')) as HTMLInputElement
    expect(timeout.value).toBe('10')
    expect((screen.getByTestId('code-memory') as HTMLInputElement).value).toBe('128')
    const saveButton = screen.getByTestId('code-limits-save') as HTMLButtonElement
    expect(saveButton.disabled).toBe(true) // nothing changed

    await userEvent.clear(timeout)
    await userEvent.type(timeout, '61')
    expect(screen.getByText('A whole number from 1 to 60.')).toBeTruthy()
    expect(saveButton.disabled).toBe(true)

    await userEvent.clear(timeout)
    await userEvent.type(timeout, '20')
    expect(saveButton.disabled).toBe(false)
    await userEvent.click(saveButton)
    await waitFor(() => expect(save).toHaveBeenCalledWith({ ...defaults, timeoutSeconds: 20 }))
    expect(await screen.findByTestId('code-limits-status')).toBeTruthy()
  })
})
