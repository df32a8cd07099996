import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Composer } from './Composer'
import { MAX_FILE_BYTES, sniffImage } from './useAttachments'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])

function setup() {
  const onSend = vi.fn().mockResolvedValue(true)
  render(<Composer streaming={false} onSend={onSend} onStop={() => {}} />)
  const input = screen.getByTestId('attach-input') as HTMLInputElement
  return { onSend, input }
}

describe('attachments in the composer', () => {
  it('a file set on attach-input shows as a chip, is sent with the message (base64), and is cleared after', async () => {
    const { onSend, input } = setup()
    const file = new File(['# notes\n'], 'notes.md', { type: 'text/markdown' })
    fireEvent.change(input, { target: { files: [file] } })
    await screen.findByTestId('pending-attachment')
    expect(screen.getByText('notes.md')).toBeTruthy()
    fireEvent.click(screen.getByTestId('send')) // no text: the file alone can be sent
    await waitFor(() => expect(onSend).toHaveBeenCalled())
    expect(onSend.mock.calls[0][1]).toEqual([{ name: 'notes.md', data: btoa('# notes\n') }])
    await waitFor(() => expect(screen.queryByTestId('pending-attachment')).toBeNull())
  })

  it('an image gets a thumbnail from a blob: URL; a chip can be removed', async () => {
    const { input } = setup()
    URL.createObjectURL = vi.fn(() => 'blob:preview')
    URL.revokeObjectURL = vi.fn()
    fireEvent.change(input, { target: { files: [new File([PNG], 'shot.png', { type: 'image/png' })] } })
    const img = (await screen.findByRole('img')) as HTMLImageElement
    expect(img.getAttribute('src')).toBe('blob:preview')
    fireEvent.click(screen.getByTestId('remove-attachment'))
    await waitFor(() => expect(screen.queryByTestId('pending-attachment')).toBeNull())
  })

  it('a file over the cap is refused with the cap named, not read', async () => {
    const { input } = setup()
    const big = new File(['x'], 'huge.log')
    Object.defineProperty(big, 'size', { value: MAX_FILE_BYTES + 1 })
    big.arrayBuffer = vi.fn()
    fireEvent.change(input, { target: { files: [big] } })
    const warn = await screen.findByTestId('attach-warning')
    expect(warn.textContent).toContain('20 MB')
    expect(big.arrayBuffer).not.toHaveBeenCalled()
    expect(screen.queryByTestId('pending-attachment')).toBeNull()
  })

  it('sniffs images by their bytes, not their names', () => {
    expect(sniffImage(PNG)).toBe('image/png')
    expect(sniffImage(new TextEncoder().encode('<svg onload="x"/>'))).toBe('')
  })
})
