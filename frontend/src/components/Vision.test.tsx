// What the server says of a model's vision, in the composer's warning and
// the chat's image options.
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Composer } from './Composer'
import { ImageOptions } from './ImageOptions'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])

function backend(vision: Record<string, string>) {
  const app = {
    ModelVision: vi.fn().mockResolvedValue({ providerId: 'p', model: 'llama3.2', ...vision }),
    SetModelVision: vi.fn().mockResolvedValue({ providerId: 'p', model: 'llama3.2', sees: 'yes', source: 'user', server: 'no' }),
    ToolImages: vi.fn().mockResolvedValue(true),
  }
  window.go = { main: { App: app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
  return app
}

afterEach(() => {
  delete window.go
})

describe('the server’s word on vision', () => {
  it('the composer warns, naming the server, when an image is attached for a model its server says is text-only', async () => {
    backend({ sees: 'no', source: 'server', server: 'no' })
    URL.createObjectURL = vi.fn(() => 'blob:preview')
    URL.revokeObjectURL = vi.fn()
    render(<Composer streaming={false} onSend={vi.fn()} onStop={() => {}} />)
    fireEvent.change(screen.getByTestId('attach-input'), { target: { files: [new File([PNG], 'shot.png', { type: 'image/png' })] } })
    const warn = await screen.findByTestId('attach-warning')
    expect(warn.textContent).toContain('The server says llama3.2 does not take images')
  })

  it('no warning when the user said the model takes images, whatever the server says', async () => {
    const app = backend({ sees: 'yes', source: 'user', server: 'no' })
    URL.createObjectURL = vi.fn(() => 'blob:preview')
    URL.revokeObjectURL = vi.fn()
    render(<Composer streaming={false} onSend={vi.fn()} onStop={() => {}} />)
    fireEvent.change(screen.getByTestId('attach-input'), { target: { files: [new File([PNG], 'shot.png', { type: 'image/png' })] } })
    await screen.findByTestId('pending-attachment')
    await waitFor(() => expect(app.ModelVision).toHaveBeenCalled())
    expect(screen.queryByTestId('attach-warning')).toBeNull()
  })

  it('the options follow the server by default, say so, and say tools’ images are not sent', async () => {
    backend({ sees: 'no', source: 'server', server: 'no' })
    render(<ImageOptions ids="t" chatId="c1" />)
    const select = (await screen.findByTestId('model-vision')) as HTMLSelectElement
    expect(select.value).toBe('')
    expect(select.options[0].textContent).toBe('As the server says: no (leave them out)')
    expect((await screen.findByTestId('tool-images-unseen')).textContent).toContain('llama3.2 does not take images')
  })
})
