import { beforeEach, describe, expect, it } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Call, ToolSpec } from '../api'
import { resetStore, useStore } from '../store'
import { groupByMessage } from '../store/calls'
import { ToolCard } from './ToolCard'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const call = (over: Partial<Call> = {}): Call => ({
  id: 'k1',
  modelCallId: 'call_1',
  chatId: 'chat1',
  messageId: 'm1',
  index: 0,
  name: 'mcp__everything__echo',
  arguments: { message: 'hello there' },
  raw: '',
  format: 'json',
  state: 'pending',
  createdAt: 1000,
  updatedAt: 1000,
  ...over,
})

const TOOLS: ToolSpec[] = [
  { name: 'calculate', description: '', kind: 'builtin' },
  { name: 'mcp__everything__echo', description: '', kind: 'mcp', server: 'everything' },
  // the tools list knows the server even when the name would be read otherwise
  { name: 'mcp__a__b__c', description: '', kind: 'mcp', server: 'a__b' },
]

function show(c: Call) {
  useStore.setState({ callsByMessage: groupByMessage([c]) })
  return render(<ToolCard call={c} paradigm="json" />)
}

describe('ToolCard: MCP tools', () => {
  beforeEach(() => {
    resetStore()
    useStore.setState({ tools: TOOLS })
  })

  it('an MCP call says it runs outside Airlock, names its server, and still shows the full arguments and actions', () => {
    show(call())
    const card = screen.getByTestId('tool-card')
    expect(within(card).getByTestId('mcp-note')).toHaveTextContent(
      'Runs outside Airlock: the MCP server “everything” acts on its own, not inside this chat’s workspace.',
    )
    expect(within(card).getByTestId('mcp-note')).toHaveAttribute('role', 'note')
    expect(within(card).getByTestId('mcp-badge')).toHaveTextContent('everything')
    expect(within(card).getByTestId('call-args').textContent).toBe('{\n  "message": "hello there"\n}')
    expect(within(card).getByTestId('approve')).toBeEnabled()
  })

  it('the server comes from the tools list; the mcp__<server>__ prefix is the fallback when the tool is gone', () => {
    show(call({ name: 'mcp__a__b__c' }))
    expect(screen.getByTestId('mcp-badge')).toHaveTextContent('a__b')
    resetStore()
    show(call({ id: 'k2', name: 'mcp__github__search_issues' }))
    expect(screen.getAllByTestId('mcp-note').at(-1)).toHaveTextContent('the MCP server “github”')
  })

  it('Airlock’s own tools have no MCP note', () => {
    show(call({ name: 'calculate', arguments: { expression: '1+1' } }))
    expect(screen.queryByTestId('mcp-note')).toBeNull()
    expect(screen.queryByTestId('mcp-badge')).toBeNull()
  })
})

describe('ToolCard: pictures a tool returned', () => {
  beforeEach(() => {
    resetStore()
    useStore.setState({ tools: TOOLS })
  })

  it('shows raster pictures as thumbnails; a click opens one larger', async () => {
    const user = userEvent.setup()
    show(
      call({
        state: 'done',
        result: 'Two pictures. (They were shown to the user.)',
        resultStatus: 'success',
        images: [
          { mime: 'image/png', data: PNG },
          { mime: 'image/webp', data: 'UklGRhoAAABXRUJQVlA4' },
        ],
      }),
    )
    const imgs = screen.getAllByTestId('call-image') as HTMLImageElement[]
    expect(imgs).toHaveLength(2)
    expect(imgs[0].getAttribute('src')).toBe(`data:image/png;base64,${PNG}`)
    expect(imgs[1].getAttribute('src')).toMatch(/^data:image\/webp;base64,/)
    expect(imgs[0]).toHaveAccessibleName('Picture 1 returned by mcp__everything__echo')
    expect(screen.getByTestId('call-images')).toHaveTextContent('2 pictures from the tool')
    await user.click(screen.getByRole('button', { name: 'Open picture 2 larger' }))
    const dialog = screen.getByTestId('call-image-dialog')
    expect(within(dialog).getByRole('img').getAttribute('src')).toMatch(/^data:image\/webp;base64,/)
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('call-image-dialog')).toBeNull()
  })

  it('never puts an SVG (or another type) in an <img>: it says a picture was not shown', () => {
    const { container } = show(
      call({
        state: 'done',
        result: 'ok',
        resultStatus: 'success',
        images: [
          { mime: 'image/svg+xml', data: 'PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+' },
          { mime: 'application/pdf', data: 'JVBERi0=' },
        ],
      }),
    )
    expect(screen.queryAllByTestId('call-image')).toHaveLength(0)
    expect(container.querySelector('img')).toBeNull()
    const skipped = screen.getAllByTestId('call-image-skipped')
    expect(skipped.map((s) => s.textContent)).toEqual([
      expect.stringContaining('A picture of type image/svg+xml was returned; it is not shown'),
      expect.stringContaining('application/pdf'),
    ])
  })

  it('no pictures, no picture section', () => {
    show(call({ state: 'done', result: 'Echo: hi', resultStatus: 'success', images: [] }))
    expect(screen.queryByTestId('call-images')).toBeNull()
  })
})
