// MCP end-to-end-ish: the real App against the preview's fake Go backend (preview/fake-mcp.ts).
import { beforeEach, describe, expect, it } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { installFakeBackend } from '../preview/fake-backend'
import type { Chat } from './api'
import { App } from './App'
import { resetStore, useStore } from './store'
import { resetMcp } from './store/mcp'

async function boot(opts: Parameters<typeof installFakeBackend>[0] = {}) {
  const fake = installFakeBackend({ tick: 2, mcpStartMs: 30, ...opts })
  render(<App />)
  await screen.findByTestId('composer')
  return fake
}
const row = (name: string) => screen.getAllByTestId('mcp-server').find((r) => r.dataset.name === name)!
const mcpTools = () => useStore.getState().tools.filter((t) => t.kind === 'mcp').map((t) => t.name)

describe('MCP with the fake backend', () => {
  beforeEach(() => {
    resetStore()
    resetMcp()
  })

  it('Settings → Tools: the servers; switching one off and on follows mcp:changed, and so does the tools list', async () => {
    const user = userEvent.setup()
    await boot()
    await waitFor(() => expect(mcpTools()).toEqual(['mcp__everything__echo', 'mcp__everything__tiny_image']))
    await user.click(screen.getByTestId('settings-open'))
    const tabs = screen.getAllByRole('tab').map((t) => t.dataset.testid)
    expect(tabs.indexOf('settings-tab-tools')).toBe(tabs.indexOf('settings-tab-general') + 1)
    expect(tabs.indexOf('settings-tab-permissions')).toBe(tabs.indexOf('settings-tab-tools') + 1)
    await user.click(screen.getByTestId('settings-tab-tools'))
    await screen.findAllByTestId('mcp-server')
    expect(within(row('everything')).getByTestId('mcp-status')).toHaveTextContent('Ready · 2 tools')
    expect(within(row('sqlite')).getByTestId('mcp-reason')).toHaveTextContent('exit status 1')

    await user.click(within(row('everything')).getByTestId('mcp-enable'))
    await waitFor(() => expect(within(row('everything')).getByTestId('mcp-status')).toHaveTextContent('Disabled'))
    await waitFor(() => expect(mcpTools()).toEqual([]))
    await user.click(within(row('everything')).getByTestId('mcp-enable'))
    // starting, then ready (two mcp:changed events)
    await waitFor(() => expect(row('everything')).toHaveAttribute('data-state', 'ready'))
    await waitFor(() => expect(mcpTools()).toHaveLength(2))
  })

  it('adds a server with the form; it starts and becomes ready; its secret never comes back', async () => {
    const user = userEvent.setup()
    const fake = await boot()
    useStore.getState().openSettings('tools')
    await screen.findAllByTestId('mcp-server')
    await user.click(screen.getByTestId('mcp-add'))
    await user.type(screen.getByTestId('mcp-name'), 'notes')
    await user.type(screen.getByTestId('mcp-command'), 'node')
    await user.type(screen.getByTestId('mcp-args'), '/home/me/My Notes/server.js')
    await user.click(screen.getByTestId('mcp-env-add'))
    await user.keyboard('NOTES_KEY')
    await user.type(screen.getByTestId('mcp-env-value'), 's3cret')
    await user.click(screen.getByTestId('mcp-save'))
    await waitFor(() => expect(row('notes')).toHaveAttribute('data-state', 'ready'))
    expect(fake.mcp.servers.find((s) => s.cfg.name === 'notes')?.cfg).toMatchObject({
      args: ['/home/me/My Notes/server.js'],
      env: { NOTES_KEY: 's3cret' },
    })
    expect(document.body.textContent).not.toContain('s3cret')
    // edit it without touching the secret: the fake keeps it
    await user.click(within(row('notes')).getByTestId('mcp-edit'))
    expect(screen.getByTestId('mcp-env-value')).toHaveValue('')
    await user.click(screen.getByTestId('mcp-save'))
    await screen.findByTestId('mcp-saved')
    expect(fake.mcp.servers.find((s) => s.cfg.name === 'notes')?.cfg.env).toEqual({ NOTES_KEY: 's3cret' })
  })

  it('an MCP call: the card says where it runs; Run shows the picture the tool returned', async () => {
    const user = userEvent.setup()
    await boot({ empty: true, runMs: 20 })
    await user.click(screen.getByTestId('new-chat'))
    await user.type(screen.getByTestId('composer'), 'mcp image please{Enter}')
    const card = await screen.findByTestId('tool-card', {}, { timeout: 5000 })
    expect(card).toHaveAttribute('data-tool', 'mcp__everything__tiny_image')
    expect(within(card).getByTestId('mcp-note')).toHaveTextContent('the MCP server “everything” acts on its own')
    expect(within(card).getByTestId('mcp-badge')).toHaveTextContent('everything')
    await user.click(within(card).getByTestId('approve'))
    const img = await screen.findByTestId('call-image', {}, { timeout: 3000 })
    expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/)
    expect(screen.getByTestId('tool-card')).toHaveAttribute('data-state', 'done')
  })

  it('a new chat’s choice of servers is applied right after CreateChat', async () => {
    const user = userEvent.setup()
    await boot({ empty: true })
    await user.click(screen.getByTestId('new-chat'))
    await user.click(screen.getByTestId('chat-options'))
    await user.click(await screen.findByTestId('chat-mcp-choose'))
    const sqlite = screen.getAllByTestId('chat-mcp-server').find((b) => b.dataset.name === 'sqlite')!
    await user.click(sqlite)
    await user.keyboard('{Escape}')
    await user.type(screen.getByTestId('composer'), 'Hello{Enter}')
    await waitFor(async () => {
      const chats = (await window.go!.main!.App!.ListChats()) as Chat[]
      expect(chats).toHaveLength(1)
      expect(chats[0].mcpServers).toEqual(['everything'])
    })
    await waitFor(() => expect(useStore.getState().chats[0]?.mcpServers).toEqual(['everything']))
  })
})
