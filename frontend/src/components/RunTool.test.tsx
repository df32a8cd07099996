import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Chat, ToolSpec } from '../api'
import { resetStore, useStore } from '../store'
import { RunToolPanel } from './RunTool'

const TOOLS: ToolSpec[] = [
  {
    name: 'list_directory',
    description: 'List a folder.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Folder to list.' },
        recursive: { type: 'boolean' },
        depth: { type: 'integer', minimum: 1, maximum: 20 },
      },
    },
  },
  {
    name: 'write_file',
    description: 'Write a file.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
  { name: 'get_current_time', description: 'Now.', parameters: { type: 'object', properties: {} } },
]

const chats: Chat[] = [
  { id: 'c1', title: 'Scratch chat', createdAt: 1, updatedAt: 2, paradigm: 'json', recognizeOthers: true, workspaceKind: 'scratch', workspaceDir: '' },
  { id: 'c2', title: 'Site', createdAt: 1, updatedAt: 1, paradigm: 'json', recognizeOthers: true, workspaceKind: 'overlay', workspaceDir: '/home/me/site' },
]

let RunTool: ReturnType<typeof vi.fn>

describe('Tool lab: run a tool by hand', () => {
  beforeEach(() => {
    resetStore()
    RunTool = vi.fn(async (_chat: string, name: string, args: Record<string, unknown>) => {
      if (args.path === '../../etc/passwd') throw JSON.stringify({ code: 'path_outside', message: 'path "../../etc/passwd" leaves the workspace' })
      return `${name} ran with ${JSON.stringify(args)}`
    })
    window.go = { main: { App: { RunTool, GetWorkspace: vi.fn(async () => ({ kind: 'scratch', dir: '', entries: [], truncated: false })) } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
    useStore.setState({ chats, activeChatId: 'c2' })
  })
  afterEach(() => {
    delete window.go
  })

  it('defaults to the current chat and shows its workspace; says that tools run immediately', async () => {
    const user = userEvent.setup()
    render(<RunToolPanel tools={TOOLS} />)
    expect(screen.getByTestId('lab-run-note')).toHaveTextContent('You are the one deciding: tools run immediately.')
    expect(screen.getByTestId('lab-run-chat')).toHaveValue('c2')
    expect(screen.getByTestId('lab-run-workspace')).toHaveTextContent('Overlay')
    expect(screen.getByTestId('lab-run-workspace')).toHaveTextContent('/home/me/site')
    await user.selectOptions(screen.getByTestId('lab-run-chat'), 'c1')
    expect(screen.getByTestId('lab-run-workspace')).toHaveTextContent('Scratch')
  })

  it('builds the form from the schema: types, required marks', async () => {
    const user = userEvent.setup()
    render(<RunToolPanel tools={TOOLS} />)
    expect(screen.getByTestId('lab-run-tool')).toHaveValue('list_directory')
    const fields = () => screen.getAllByTestId('lab-field')
    expect(fields().map((f) => [f.dataset.name, f.dataset.kind ?? 'boolean', f.dataset.required ?? ''])).toEqual([
      ['path', 'string', ''],
      ['recursive', 'boolean', ''],
      ['depth', 'integer', ''],
    ])
    expect(screen.getByTestId('lab-arg-path').tagName).toBe('INPUT')
    expect(screen.getByTestId('lab-arg-recursive')).toHaveAttribute('type', 'checkbox')
    expect(screen.getByTestId('lab-arg-depth')).toHaveAttribute('type', 'number')

    await user.selectOptions(screen.getByTestId('lab-run-tool'), 'write_file')
    expect(fields().map((f) => [f.dataset.name, f.dataset.required])).toEqual([
      ['path', 'true'],
      ['content', 'true'],
    ])
    expect(screen.getByTestId('lab-arg-content').tagName).toBe('TEXTAREA')
    expect(screen.getByTestId('lab-arg-path')).toHaveAttribute('aria-required', 'true')
    expect(within(fields()[0]).getByText('required')).toBeInTheDocument()

    await user.selectOptions(screen.getByTestId('lab-run-tool'), 'get_current_time')
    expect(screen.queryAllByTestId('lab-field')).toHaveLength(0)
    expect(screen.getByText('No parameters.')).toBeInTheDocument()
  })

  it('Run sends the typed arguments and shows the output; a missing required field is caught first', async () => {
    const user = userEvent.setup()
    render(<RunToolPanel tools={TOOLS} />)
    await user.type(screen.getByTestId('lab-arg-path'), 'src')
    await user.click(screen.getByTestId('lab-arg-recursive'))
    await user.type(screen.getByTestId('lab-arg-depth'), '2')
    await user.click(screen.getByTestId('lab-run'))
    await waitFor(() => expect(RunTool).toHaveBeenCalledWith('c2', 'list_directory', { path: 'src', recursive: true, depth: 2 }))
    expect(await screen.findByTestId('lab-output')).toHaveTextContent('list_directory ran with {"path":"src","recursive":true,"depth":2}')

    await user.selectOptions(screen.getByTestId('lab-run-tool'), 'write_file')
    await user.click(screen.getByTestId('lab-run'))
    expect(screen.getByTestId('lab-field-error')).toHaveTextContent('Required.')
    expect(RunTool).toHaveBeenCalledTimes(1)
    await user.type(screen.getByTestId('lab-arg-path'), 'a.md')
    await user.type(screen.getByTestId('lab-arg-content'), 'hello{Enter}world')
    await user.click(screen.getByTestId('lab-run'))
    await waitFor(() => expect(RunTool).toHaveBeenLastCalledWith('c2', 'write_file', { path: 'a.md', content: 'hello\nworld' }))
  })

  it('raw JSON: the form carries over, and an error from the backend shows with its code', async () => {
    const user = userEvent.setup()
    render(<RunToolPanel tools={TOOLS} />)
    await user.type(screen.getByTestId('lab-arg-path'), 'docs')
    await user.click(screen.getByTestId('lab-raw-toggle'))
    const raw = screen.getByTestId('lab-raw')
    expect(JSON.parse((raw as HTMLTextAreaElement).value)).toEqual({ path: 'docs' })
    await user.clear(raw)
    await user.click(raw)
    await user.paste('{"path": "../../etc/passwd"}')
    await user.click(screen.getByTestId('lab-run'))
    const err = await screen.findByTestId('lab-run-error')
    expect(err).toHaveTextContent('leaves the workspace')
    expect(err).toHaveTextContent('path_outside')
    // invalid JSON is caught locally
    await user.clear(raw)
    await user.paste('{nope')
    await user.click(screen.getByTestId('lab-run'))
    expect(screen.getByTestId('lab-raw-error')).toHaveTextContent('not valid JSON')
    expect(RunTool).toHaveBeenCalledTimes(1)
    // back to the form with what the JSON held
    await user.clear(raw)
    await user.paste('{"path": "src", "depth": 3}')
    await user.click(screen.getByTestId('lab-raw-toggle'))
    expect(screen.getByTestId('lab-arg-path')).toHaveValue('src')
    expect(screen.getByTestId('lab-arg-depth')).toHaveValue(3)
  })
})
