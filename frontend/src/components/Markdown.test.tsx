import { describe, expect, it, vi, beforeEach } from 'vitest'
import { render, fireEvent, waitFor } from '@testing-library/react'
import { Markdown } from './Markdown'

const md = (text: string) => render(<Markdown text={text} />).container

describe('Markdown (untrusted model output)', () => {
  beforeEach(() => {
    window.runtime = { BrowserOpenURL: vi.fn() }
  })

  it('strips <script> elements and their contents', () => {
    const c = md('Hello <script>window.pwned = 1</script> world')
    expect(c.querySelector('script')).toBeNull()
    expect(c.textContent).not.toContain('window.pwned')
    expect(c.textContent).toContain('Hello')
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined()
  })

  it('removes event-handler attributes such as onerror/onclick', () => {
    const c = md('<p onclick="alert(1)">hi</p>\n\n<img src="x" onerror="alert(1)">')
    expect(c.innerHTML).not.toMatch(/onerror|onclick/i)
    expect(c.querySelector('[onerror]')).toBeNull()
    expect(c.querySelector('[onclick]')).toBeNull()
  })

  it('renders javascript: links inert (no href, no navigation)', () => {
    const c = md('[click me](javascript:alert(1)) and <a href="javascript:alert(2)">raw</a>')
    expect(c.innerHTML).not.toMatch(/javascript:/i)
    for (const a of Array.from(c.querySelectorAll('a'))) {
      expect(a.getAttribute('href') ?? '').not.toMatch(/^javascript:/i)
    }
    expect(c.textContent).toContain('click me')
    expect(c.querySelectorAll('a[href]').length).toBe(0)
  })

  it('blocks remote images with a visible placeholder', () => {
    const c = md('![pixel](https://evil.example/track.png) <img src="http://evil.example/a.gif">')
    expect(c.querySelector('img')).toBeNull()
    expect(c.textContent).toContain('[remote image blocked: https://evil.example/track.png]')
    expect(c.textContent).toContain('[remote image blocked: http://evil.example/a.gif]')
  })

  it('removes iframes, styles, forms and objects', () => {
    const c = md(
      '<iframe src="https://evil.example"></iframe><style>body{display:none}</style><form action="https://x"><button>go</button></form><object data="x.swf"></object>',
    )
    expect(c.querySelector('iframe')).toBeNull()
    expect(c.querySelector('style')).toBeNull()
    expect(c.querySelector('form')).toBeNull()
    expect(c.querySelector('object')).toBeNull()
    expect(c.textContent).not.toContain('display:none')
  })

  it('keeps code highlighting classes and a language label (the grammar loads on demand)', async () => {
    const c = md('```js\nconst answer = 42 // yes\n```')
    await waitFor(() => expect(c.querySelector('.hljs-keyword')).not.toBeNull())
    const code = c.querySelector('pre code')!
    expect(code).not.toBeNull()
    expect(code.className).toContain('hljs')
    expect(code.className).toContain('language-js')
    expect(c.querySelector('.hljs-keyword')?.textContent).toBe('const')
    expect(c.querySelector('.hljs-number')?.textContent).toBe('42')
    expect(c.querySelector('.hljs-comment')).not.toBeNull()
    expect(c.querySelector('.code-block__lang')?.textContent).toBe('js')
    expect(c.querySelector('[data-testid="copy-code"]')).not.toBeNull()
  })

  it('keeps normal links and opens them externally without navigating', async () => {
    const c = md('See [docs](https://example.com/docs) or [mail](mailto:a@b.c)')
    const a = c.querySelector('a[href="https://example.com/docs"]') as HTMLAnchorElement
    expect(a).not.toBeNull()
    const ev = new MouseEvent('click', { bubbles: true, cancelable: true })
    a.dispatchEvent(ev)
    expect(ev.defaultPrevented).toBe(true)
    // Without the OpenURL binding (an older backend): the runtime's way.
    await vi.waitFor(() => expect(window.runtime!.BrowserOpenURL).toHaveBeenCalledWith('https://example.com/docs'))
    expect(c.querySelector('a[href="mailto:a@b.c"]')).not.toBeNull()
  })

  it('does not keep dangerous protocols like data: or vbscript: on links', () => {
    const c = md('[a](data:text/html,<script>alert(1)</script>) [b](vbscript:msgbox)')
    expect(c.querySelectorAll('a[href]').length).toBe(0)
  })

  it('renders GFM tables, lists and emphasis', () => {
    const c = md('| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- **two**\n\n~~gone~~')
    expect(c.querySelector('table')).not.toBeNull()
    expect(c.querySelectorAll('td').length).toBe(2)
    expect(c.querySelectorAll('li').length).toBe(2)
    expect(c.querySelector('strong')?.textContent).toBe('two')
    expect(c.querySelector('del')?.textContent).toBe('gone')
  })

  it('copy button copies the raw code text', async () => {
    const setText = vi.fn().mockResolvedValue(true)
    window.runtime = { ClipboardSetText: setText }
    const { findByText, getByTestId } = render(<Markdown text={'```py\nprint("hi")\n```'} />)
    fireEvent.click(getByTestId('copy-code'))
    await findByText('Copied')
    expect(setText).toHaveBeenCalledWith('print("hi")')
  })
})
