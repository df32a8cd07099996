import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Chat, ToolSpec } from '../api'
import { resetStore, useStore } from '../store'
import { RunToolPanel } from './RunTool'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const TOOLS: ToolSpec[] = [
  { name: 'read_file', kind: 'files', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'mcp__everything__echo', kind: 'mcp', server: 'everything', description: 'Echo.', parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
  { name: 'mcp__everything__tiny_image', kind: 'mcp', server: 'everything', description: 'A picture.', parameters: { type: 'object', properties: {} } },
  { name: 'mcp__git__status', kind: 'mcp', server: 'git', description: 'Status.', parameters: { type: 'object', properties: {} } },
]
const chats: Chat[] = [{ id: 'c1', title: 'Chat', createdAt: 1, updatedAt: 1, paradigm: 'json', recognizeOthers: true, workspaceKind: 'scratch', workspaceDir: '' }]

let RunTool: ReturnType<typeof vi.fn>

describe('Tool lab: running an MCP tool', () => {
  beforeEach(() => {
    resetStore()
    RunTool = vi.fn(async (_chat: string, name: string, args: Record<string, unknown>) => {
      if (name === 'mcp__everything__tiny_image') return { text: 'A picture.', images: [{ mime: 'image/png', data: PNG }], structured: { width: 1 } }
      if (args.message === 'boom') return { text: 'The server could not echo that.', isError: true, images: null }
      return { text: `Echo: ${String(args.message)}` }
    })
    window.go = { main: { App: { RunTool } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
    useStore.setState({ chats, activeChatId: 'c1' })
  })
  afterEach(() => {
    delete window.go
  })

  it('lists MCP tools under their server; an MCP tool says it runs outside Airlock instead of naming the workspace', async () => {
    const user = userEvent.setup()
    render(<RunToolPanel tools={TOOLS} />)
    const groups = Array.from(screen.getByTestId('lab-run-tool').querySelectorAll('optgroup'))
    expect(groups.map((g) => [g.label, Array.from(g.querySelectorAll('option')).map((o) => o.value)])).toEqual([
      ['Airlock', ['read_file']],
      ['MCP: everything', ['mcp__everything__echo', 'mcp__everything__tiny_image']],
      ['MCP: git', ['mcp__git__status']],
    ])
    expect(screen.getByTestId('lab-run-workspace')).toBeInTheDocument()
    await user.selectOptions(screen.getByTestId('lab-run-tool'), 'mcp__everything__echo')
    expect(screen.queryByTestId('lab-run-workspace')).toBeNull()
    expect(screen.getByTestId('lab-run-mcp-note')).toHaveTextContent('the MCP server “everything” acts on its own')
  })

  it('shows the text, the pictures and the structured result', async () => {
    const user = userEvent.setup()
    render(<RunToolPanel tools={TOOLS} />)
    await user.selectOptions(screen.getByTestId('lab-run-tool'), 'mcp__everything__tiny_image')
    await user.click(screen.getByTestId('lab-run'))
    await waitFor(() => expect(RunTool).toHaveBeenCalledWith('c1', 'mcp__everything__tiny_image', {}))
    expect(await screen.findByTestId('lab-output')).toHaveTextContent('A picture.')
    const img = screen.getByTestId('call-image')
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`)
    expect(screen.queryByTestId('lab-run-reported-error')).toBeNull()
    const structured = screen.getByTestId('lab-structured')
    expect(within(structured).getByText('Structured result')).toBeInTheDocument()
    expect(structured.querySelector('pre')?.textContent).toBe('{\n  "width": 1\n}')
  })

  it('says when the tool reported an error (its text still shows)', async () => {
    const user = userEvent.setup()
    render(<RunToolPanel tools={TOOLS} />)
    await user.selectOptions(screen.getByTestId('lab-run-tool'), 'mcp__everything__echo')
    await user.type(screen.getByTestId('lab-arg-message'), 'boom')
    await user.click(screen.getByTestId('lab-run'))
    expect(await screen.findByTestId('lab-run-reported-error')).toHaveTextContent('The tool reported an error')
    expect(screen.getByTestId('lab-output')).toHaveTextContent('The server could not echo that.')
    expect(screen.queryByTestId('call-images')).toBeNull()
    // a normal run clears it
    await user.clear(screen.getByTestId('lab-arg-message'))
    await user.type(screen.getByTestId('lab-arg-message'), 'hi')
    await user.click(screen.getByTestId('lab-run'))
    await waitFor(() => expect(screen.getByTestId('lab-output')).toHaveTextContent('Echo: hi'))
    expect(screen.queryByTestId('lab-run-reported-error')).toBeNull()
  })
})
