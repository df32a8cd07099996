import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRef, useState } from 'react'
import { KeyboardMenu } from './KeyboardMenu'

/** A trigger and a menu of four items, as the app's menus use it. */
function Harness({ onClose, onPick }: { onClose: (back: boolean) => void; onPick: (label: string) => void }) {
  const [open, setOpen] = useState(true)
  const trigger = useRef<HTMLButtonElement>(null)
  const items = ['Rename', 'Pin', 'Duplicate', 'Delete']
  return (
    <>
      <button ref={trigger} type="button" onClick={() => setOpen(true)}>
        open
      </button>
      <button type="button">elsewhere</button>
      {open && (
        <KeyboardMenu
          label="Chat"
          trigger={trigger}
          onClose={(back) => {
            setOpen(false)
            onClose(back)
          }}
        >
          {items.map((l) => (
            <button key={l} type="button" role="menuitem" tabIndex={-1} onClick={() => onPick(l)}>
              {l}
            </button>
          ))}
        </KeyboardMenu>
      )}
    </>
  )
}

const item = (name: string) => screen.getByRole('menuitem', { name })

describe('KeyboardMenu', () => {
  it('focuses the first item; arrows move and wrap; Home/End jump; Enter activates', async () => {
    const user = userEvent.setup()
    const onPick = vi.fn()
    render(<Harness onClose={vi.fn()} onPick={onPick} />)
    await waitFor(() => expect(item('Rename')).toHaveFocus())
    await user.keyboard('{ArrowDown}')
    expect(item('Pin')).toHaveFocus()
    await user.keyboard('{ArrowUp}{ArrowUp}')
    expect(item('Delete')).toHaveFocus() // wrapped
    await user.keyboard('{ArrowDown}')
    expect(item('Rename')).toHaveFocus() // wrapped back
    await user.keyboard('{End}')
    expect(item('Delete')).toHaveFocus()
    await user.keyboard('{Home}')
    expect(item('Rename')).toHaveFocus()
    await user.keyboard('{ArrowDown}{Enter}')
    expect(onPick).toHaveBeenCalledWith('Pin')
  })

  it('type-ahead: a letter jumps to the next item starting with it, letters typed together spell a prefix', async () => {
    const user = userEvent.setup()
    render(<Harness onClose={vi.fn()} onPick={vi.fn()} />)
    await waitFor(() => expect(item('Rename')).toHaveFocus())
    // The clock is held still: letters count as typed together without depending on the machine's speed.
    const clock = vi.spyOn(Date, 'now').mockReturnValue(10_000)
    await user.keyboard('d')
    expect(item('Duplicate')).toHaveFocus()
    await user.keyboard('e')
    expect(item('Delete')).toHaveFocus() // "de": Duplicate does not match, Delete does
    clock.mockReturnValue(20_000) // a pause: a new search
    await user.keyboard('p')
    expect(item('Pin')).toHaveFocus()
    clock.mockReturnValue(30_000)
    await user.keyboard('x')
    expect(item('Pin')).toHaveFocus() // nothing starts with x: focus stays
    clock.mockRestore()
  })

  // Issue 30, item 15: before, "d" "d" typed together looked for "dd" and stayed put.
  it('type-ahead: the same letter typed again moves on to the next item with it', async () => {
    const user = userEvent.setup()
    render(<Harness onClose={vi.fn()} onPick={vi.fn()} />)
    await waitFor(() => expect(item('Rename')).toHaveFocus())
    const clock = vi.spyOn(Date, 'now').mockReturnValue(10_000)
    await user.keyboard('d')
    expect(item('Duplicate')).toHaveFocus()
    await user.keyboard('d')
    expect(item('Delete')).toHaveFocus()
    await user.keyboard('d')
    expect(item('Duplicate')).toHaveFocus() // and round again
    clock.mockRestore()
  })

  it('Escape and Tab close and ask for focus back; a press outside closes without it', async () => {
    const user = userEvent.setup()
    const onClose = vi.fn()
    const { unmount } = render(<Harness onClose={onClose} onPick={vi.fn()} />)
    await waitFor(() => expect(item('Rename')).toHaveFocus())
    await user.keyboard('{Escape}')
    expect(onClose).toHaveBeenLastCalledWith(true)
    expect(screen.queryByRole('menu')).toBeNull()

    await user.click(screen.getByRole('button', { name: 'open' }))
    await waitFor(() => expect(item('Rename')).toHaveFocus())
    await user.keyboard('{Tab}')
    expect(onClose).toHaveBeenLastCalledWith(true)

    await user.click(screen.getByRole('button', { name: 'open' }))
    expect(screen.getByRole('menu')).toBeInTheDocument() // a press on the trigger is not "outside"
    fireEvent.mouseDown(screen.getByRole('button', { name: 'elsewhere' }))
    expect(onClose).toHaveBeenLastCalledWith(false)
    expect(screen.queryByRole('menu')).toBeNull()
    unmount()
  })
})
