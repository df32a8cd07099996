// Files waiting in the composer count in the context gauge: their pixels
// read from the header, published for the gauge's next reading.
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Composer } from './Composer'
import { imageSize } from './useAttachments'
import { useContextUsage } from '../store/context'

const pad = (a: number[]) => new Uint8Array([...a, ...new Array(40).fill(0)])
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))
const PNG = pad([0x89, ...ascii('PNG'), 13, 10, 26, 10, 0, 0, 0, 13, ...ascii('IHDR'), 0, 0, 0x07, 0x80, 0, 0, 0x04, 0x38])
const GIF = pad([...ascii('GIF89a'), 0x40, 0x01, 0xf0, 0x00])
const JPEG = pad([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...new Array(14).fill(0), 0xff, 0xc0, 0, 17, 8, 0x02, 0x58, 0x03, 0x20])
const WEBP = pad([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8X'), 10, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x03, 0, 0x2b, 0x01, 0])

describe('files waiting in the composer, for the gauge', () => {
  it('reads an image’s size from its header', () => {
    expect(imageSize(PNG, 'image/png')).toEqual([1920, 1080])
    expect(imageSize(GIF, 'image/gif')).toEqual([320, 240])
    expect(imageSize(JPEG, 'image/jpeg')).toEqual([800, 600])
    expect(imageSize(WEBP, 'image/webp')).toEqual([1024, 300])
    expect(imageSize(new Uint8Array(4), 'image/png')).toEqual([0, 0])
  })

  it('publishes the pending files (kind, size, pixels) and clears them when sent', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x')
    URL.revokeObjectURL = vi.fn()
    const onSend = vi.fn().mockResolvedValue(true)
    render(<Composer streaming={false} onSend={onSend} onStop={() => {}} />)
    fireEvent.change(screen.getByTestId('attach-input'), {
      target: { files: [new File([PNG], 'shot.png'), new File(['a,b\n'], 'data.csv')] },
    })
    await waitFor(() => expect(useContextUsage.getState().draftFiles).toHaveLength(2))
    expect(useContextUsage.getState().draftFiles).toEqual([
      { name: 'shot.png', image: true, size: PNG.length, width: 1920, height: 1080 },
      { name: 'data.csv', image: false, size: 4, width: 0, height: 0 },
    ])
    fireEvent.click(screen.getByTestId('send'))
    await waitFor(() => expect(useContextUsage.getState().draftFiles).toEqual([]))
  })
})
