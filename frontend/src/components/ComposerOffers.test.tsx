import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { McpOffers, McpServerInfo } from '../api'
import { resetMcp, useMcp } from '../store/mcp'
import { resetStore, useStore } from '../store'
import { offersChanged, resetMcpOffers } from '../store/mcpOffers'
import { Composer } from './Composer'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

const OFFERS: McpOffers = {
  prompts: [
    { server: 'docs', name: 'summarize', title: 'Summarize', description: 'Summarizes the page.', arguments: [] },
    { server: 'code', name: 'review', description: 'Reviews a file.', arguments: [{ name: 'file', description: 'Which file', required: true }, { name: 'tone' }] },
  ],
  resources: [
    { server: 'docs', uri: 'mem://docs/readme.md', name: 'readme.md', mime: 'text/markdown', size: 7, description: 'The readme.' },
    { server: 'docs', uri: 'mem://img/pixel.png', name: 'pixel.png', mime: 'image/png' },
  ],
  templates: [{ server: 'code', uriTemplate: 'mem://items/{id}', name: 'item', variables: ['id'] }],
  problems: ['slow: listing its prompts got no answer within 10s'],
}

type Fn = ReturnType<typeof vi.fn>
let app: Record<string, Fn>
URL.createObjectURL = vi.fn(() => 'blob:preview')
URL.revokeObjectURL = vi.fn()

const ready = (name: string) => ({ name, state: 'ready', tools: 1, problems: [], restartsOnUse: false, since: '', fromEnv: false, config: { name, enabled: true } }) as McpServerInfo

function install(over: Record<string, Fn> = {}) {
  app = {
    MCPOffers: vi.fn(async (_chat: string, _servers: string[] | null, prompts: boolean) =>
      prompts ? { ...OFFERS, resources: [], templates: [] } : { ...OFFERS, prompts: [] }),
    UseMCPPrompt: vi.fn(async (_s: string, name: string, args: Record<string, string>) => ({
      text: name === 'review' ? `Review ${args.file} please.` : 'Summarize this page.',
      files: name === 'review' ? [{ name: 'image-1.png', size: 70, image: 'image/png', data: PNG }] : [],
    })),
    ReadMCPResource: vi.fn(async (_s: string, _uri: string, name: string) => ({ text: '', files: [{ name, size: 7, image: '', data: btoa('# Hello') }] })),
    ReadMCPTemplate: vi.fn(async () => ({ text: '', files: [{ name: 'beta', size: 6, image: '', data: btoa('item b') }] })),
    CompleteMCP: vi.fn(async (_s: string, _k: string, _r: string, _a: string, value: string) => ['alpha', 'beta', 'alpine'].filter((v) => v.startsWith(value))),
    ...over,
  }
  window.go = { main: { App: app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

function fresh() {
  resetStore()
  resetMcp()
  resetMcpOffers()
  useMcp.setState({ servers: [ready('docs')], loaded: true })
  install()
}

const setup = () => {
  const onSend = vi.fn().mockResolvedValue(true)
  render(<Composer streaming={false} onSend={onSend} onStop={vi.fn()} chatId="c1" />)
  return { onSend, box: screen.getByTestId('composer') as HTMLTextAreaElement }
}

describe('Composer: the MCP servers’ prompts ("/")', () => {
  beforeEach(fresh)
  afterEach(() => {
    delete window.go
  })

  it('lists the prompts with their server and description, filters, and is driven by the keyboard', async () => {
    const user = userEvent.setup()
    const { box } = setup()
    await user.type(box, '/')
    const menu = await screen.findByTestId('prompt-menu')
    const options = await within(menu).findAllByTestId('prompt-option')
    expect(options.map((o) => o.dataset.name)).toEqual(['summarize', 'review'])
    expect(options[0]).toHaveTextContent('/summarize')
    expect(options[0]).toHaveTextContent('from docs')
    expect(options[0]).toHaveTextContent('Summarizes the page.')
    expect(options[0]).toHaveAttribute('aria-selected', 'true')
    expect(within(menu).getByTestId('offer-problems')).toHaveTextContent('slow: listing its prompts')
    expect(app.MCPOffers).toHaveBeenCalledWith('c1', null, true, false)

    expect(box).toHaveAttribute('aria-activedescendant', options[0].id)
    await user.keyboard('{ArrowDown}')
    expect(within(menu).getAllByTestId('prompt-option')[1]).toHaveAttribute('aria-selected', 'true')
    expect(box).toHaveAttribute('aria-activedescendant', within(menu).getAllByTestId('prompt-option')[1].id)
    expect(box.getAttribute('aria-controls')).toBe(within(menu).getByRole('listbox').id)
    await user.keyboard('{ArrowDown}') // wraps
    expect(within(menu).getAllByTestId('prompt-option')[0]).toHaveAttribute('aria-selected', 'true')

    await user.type(box, 'rev')
    expect(within(menu).getAllByTestId('prompt-option').map((o) => o.dataset.name)).toEqual(['review'])
    await user.type(box, 'zzz')
    expect(within(menu).getByTestId('prompt-menu-empty')).toHaveTextContent('No prompt matches “/revzzz”')
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('prompt-menu')).toBeNull()
    expect(box.value).toBe('/revzzz')
    expect(box).not.toHaveAttribute('aria-activedescendant')
  })

  it('a prompt without arguments fills the box at once; Enter picks, it does not send', async () => {
    const user = userEvent.setup()
    const { box, onSend } = setup()
    await user.type(box, '/sum')
    await screen.findAllByTestId('prompt-option')
    await user.keyboard('{Enter}')
    await waitFor(() => expect(box.value).toBe('Summarize this page.'))
    expect(onSend).not.toHaveBeenCalled()
    expect(app.UseMCPPrompt).toHaveBeenCalledWith('docs', 'summarize', {})
    expect(screen.queryByTestId('prompt-menu')).toBeNull()
  })

  it('a prompt with arguments asks for them (required marked), then inserts its text and attaches its image', async () => {
    const user = userEvent.setup()
    const { box, onSend } = setup()
    await user.type(box, '/review')
    await screen.findAllByTestId('prompt-option')
    await user.keyboard('{Enter}')
    const form = await screen.findByTestId('prompt-form')
    const fields = within(form).getAllByTestId('offer-field')
    expect(fields[0]).toHaveTextContent('file · required')
    expect(fields[1]).not.toHaveTextContent('required')
    await user.click(within(form).getByTestId('prompt-form-use'))
    expect(within(form).getByTestId('prompt-form-error')).toHaveTextContent('Fill in “file” first.')
    expect(app.UseMCPPrompt).not.toHaveBeenCalled()

    await user.type(within(fields[0]).getByTestId('offer-field-input'), 'al')
    // the server's suggestions, picked with a click
    await waitFor(() => expect(within(fields[0]).getAllByTestId('offer-suggestion').map((b) => b.textContent)).toEqual(['alpha', 'alpine']))
    const suggestion = within(fields[0]).getAllByTestId('offer-suggestion')
    expect(app.CompleteMCP).toHaveBeenLastCalledWith('code', 'prompt', 'review', 'file', 'al', {})
    await user.click(suggestion[0])
    await user.type(within(fields[0]).getByTestId('offer-field-input'), '{Enter}') // Enter uses the prompt; it never sends the message
    await waitFor(() => expect(box.value).toBe('Review alpha please.'))
    expect(onSend).not.toHaveBeenCalled()
    expect(app.UseMCPPrompt).toHaveBeenCalledWith('code', 'review', { file: 'alpha' })
    expect(screen.getAllByTestId('pending-attachment')).toHaveLength(1)
    expect(screen.queryByTestId('prompt-form')).toBeNull()
  })

  it('a refusal is said under the box and the text stays', async () => {
    install({ UseMCPPrompt: vi.fn(async () => Promise.reject(JSON.stringify({ code: 'mcp_offer', message: 'the prompt "summarize" of "docs": it contains audio, which Airlock cannot put in a message' }))) })
    const user = userEvent.setup()
    const { box } = setup()
    await user.type(box, '/sum')
    await screen.findAllByTestId('prompt-option')
    await user.keyboard('{Enter}')
    expect(await screen.findByTestId('attach-warning')).toHaveTextContent('contains audio')
    expect(box.value).toBe('/sum')
  })

  it('in a chat not created yet, asks for the servers that chat will offer', async () => {
    useStore.setState({ newChatServers: ['docs'] })
    const user = userEvent.setup()
    render(<Composer streaming={false} onSend={vi.fn()} onStop={vi.fn()} chatId={null} />)
    await user.type(screen.getByTestId('composer'), '/')
    await screen.findAllByTestId('prompt-option')
    expect(app.MCPOffers).toHaveBeenCalledWith('', ['docs'], true, false)
  })

  it('with no MCP server ready "/" is just text', async () => {
    useMcp.setState({ servers: [] })
    const user = userEvent.setup()
    const { box } = setup()
    await user.type(box, '/x')
    expect(screen.queryByTestId('prompt-menu')).toBeNull()
    expect(screen.queryByTestId('attach-from-server')).toBeNull()
  })

  it('reads the list again after a server says it changed', async () => {
    const user = userEvent.setup()
    const { box } = setup()
    await user.type(box, '/')
    await screen.findAllByTestId('prompt-option')
    app.MCPOffers.mockResolvedValueOnce({ prompts: [{ server: 'docs', name: 'fresh', arguments: [] }], resources: [], templates: [], problems: [] })
    offersChanged()
    await waitFor(() => expect(screen.getAllByTestId('prompt-option').map((o) => o.dataset.name)).toEqual(['fresh']))
  })
})

describe('Composer: attach from an MCP server', () => {
  beforeEach(fresh)
  afterEach(() => {
    delete window.go
  })

  it('lists resources and templates, filters, and attaches a resource as a file', async () => {
    const user = userEvent.setup()
    const { onSend, box } = setup()
    await user.click(screen.getByTestId('attach-from-server'))
    const picker = await screen.findByTestId('resource-picker')
    const items = await within(picker).findAllByTestId('resource-option')
    expect(items.map((i) => i.dataset.uri)).toEqual(['mem://docs/readme.md', 'mem://img/pixel.png'])
    expect(items[0]).toHaveTextContent('text/markdown · 7 B')
    expect(within(picker).getAllByTestId('resource-template')).toHaveLength(1)
    expect(app.MCPOffers).toHaveBeenCalledWith('c1', null, false, true)

    await user.type(within(picker).getByTestId('resource-filter'), 'pixel')
    expect(within(picker).getAllByTestId('resource-option').map((i) => i.dataset.uri)).toEqual(['mem://img/pixel.png'])
    expect(within(picker).queryByTestId('resource-template')).toBeNull()
    await user.clear(within(picker).getByTestId('resource-filter'))

    await user.click(within(picker).getAllByTestId('resource-option')[0])
    await waitFor(() => expect(screen.queryByTestId('resource-picker')).toBeNull())
    expect(app.ReadMCPResource).toHaveBeenCalledWith('docs', 'mem://docs/readme.md', 'readme.md')
    expect(screen.getByTestId('pending-attachment')).toHaveAttribute('title', 'readme.md · 7 B')
    await user.type(box, 'Read this')
    await user.keyboard('{Enter}')
    expect(onSend).toHaveBeenCalledWith('Read this', [{ name: 'readme.md', data: btoa('# Hello') }])
  })

  it('fills a template with the server’s suggestions, then attaches what it names', async () => {
    const user = userEvent.setup()
    const { onSend, box } = setup()
    await user.type(box, 'draft')
    await user.click(screen.getByTestId('attach-from-server'))
    const picker = await screen.findByTestId('resource-picker')
    await user.click(await within(picker).findByTestId('resource-template'))
    const form = within(picker).getByTestId('resource-template-form')
    await user.click(within(picker).getByTestId('resource-template-attach'))
    expect(within(picker).getByTestId('resource-error')).toHaveTextContent('Fill in “id” first.')
    await user.type(within(form).getByTestId('offer-field-input'), 'b')
    await waitFor(() => expect(within(form).getAllByTestId('offer-suggestion').map((b) => b.textContent)).toEqual(['beta']))
    const s = within(form).getAllByTestId('offer-suggestion')
    expect(app.CompleteMCP).toHaveBeenLastCalledWith('code', 'resource', 'mem://items/{id}', 'id', 'b', {})
    await user.click(s[0])
    await user.type(within(form).getByTestId('offer-field-input'), '{Enter}')
    await waitFor(() => expect(screen.queryByTestId('resource-picker')).toBeNull())
    expect(app.ReadMCPTemplate).toHaveBeenCalledWith('code', 'mem://items/{id}', { id: 'beta' })
    expect(onSend).not.toHaveBeenCalled() // the picker's Enter is not the composer's
    expect(screen.getAllByTestId('pending-attachment')).toHaveLength(1)
  })

  it('a refused resource keeps the picker open and says why', async () => {
    install({ ReadMCPResource: vi.fn(async () => Promise.reject(JSON.stringify({ code: 'attachment_refused', message: 'big.bin is 30 MB; one attached file may be at most 20 MB.' }))) })
    const user = userEvent.setup()
    setup()
    await user.click(screen.getByTestId('attach-from-server'))
    const picker = await screen.findByTestId('resource-picker')
    await user.click((await within(picker).findAllByTestId('resource-option'))[0])
    expect(await within(picker).findByTestId('resource-error')).toHaveTextContent('at most 20 MB')
    expect(screen.queryByTestId('pending-attachment')).toBeNull()
  })
})
