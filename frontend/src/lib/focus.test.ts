import { afterEach, describe, expect, it } from 'vitest'
import { keepFocus } from './focus'

const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)))

afterEach(() => {
  document.body.innerHTML = ''
})

describe('keepFocus', () => {
  it('gives focus back to the opener after a native dialog dropped it', async () => {
    document.body.innerHTML = '<button id="b">Export</button>'
    const b = document.getElementById('b')!
    b.focus()
    await keepFocus(async () => {
      b.blur() // the native dialog takes focus; the page's lands on body
      return ''
    })
    await frame()
    expect(document.activeElement).toBe(b)
  })

  it('falls back when the opener is gone (a menu item), and leaves focus alone when it was kept', async () => {
    document.body.innerHTML = '<div id="m"><button id="item">Export</button></div><button id="row">Chat</button><input id="i">'
    document.getElementById('item')!.focus()
    await keepFocus(
      async () => document.getElementById('m')!.remove(),
      () => document.getElementById('row'),
    )
    await frame()
    expect(document.activeElement?.id).toBe('row')

    const input = document.getElementById('i') as HTMLInputElement
    await keepFocus(async () => input.focus())
    await frame()
    expect(document.activeElement).toBe(input)
  })
})
