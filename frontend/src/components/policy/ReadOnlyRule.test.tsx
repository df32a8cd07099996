// "Read-only tools of <server>" in a card's Always allow menu: offered only
// when the server says, in its current list, that the tool is read-only and
// not destructive; the dialog says the claim is the server's; the draft
// sent is the readonly kind.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Call, ToolSpec } from '../../api'
import { resetStore, useStore } from '../../store'
import { resetPolicy } from '../../store/policy'
import { AlwaysAllowMenu } from './AlwaysAllowMenu'
import { matchText } from './describe'
import i18n, { applyLanguage } from '../../i18n'

const card = (name: string): Call => ({
  id: 'k1', modelCallId: 'c1', chatId: 'chat1', messageId: 'm1', index: 0, name,
  arguments: {}, raw: '', format: 'json', state: 'pending', createdAt: 1, updatedAt: 1,
})
const TOOLS: ToolSpec[] = [
  { name: 'mcp__git__log', description: '', kind: 'mcp', server: 'git', hints: { readOnly: true, title: 'Log' } },
  { name: 'mcp__git__push', description: '', kind: 'mcp', server: 'git', hints: { destructive: true } },
  { name: 'mcp__git__status', description: '', kind: 'mcp', server: 'git' },
]
const options = { tool: '', folder: '', pathArgs: [], args: [], scopes: ['call', 'chat', 'hour', 'session', 'always'], covering: [] }

let AddRuleFromCall: ReturnType<typeof vi.fn>

async function openMenu(name: string) {
  useStore.setState({ tools: TOOLS })
  render(<AlwaysAllowMenu call={card(name)} onPick={() => {}} />)
  await userEvent.click(screen.getByTestId('always-allow'))
  await screen.findByTestId('always-allow-any')
}

describe('a rule on a server’s read-only tools', () => {
  beforeEach(() => {
    resetStore()
    resetPolicy()
    AddRuleFromCall = vi.fn(async (_id: string, d: unknown) => ({
      rule: { id: 9, effect: 'allow', tool: 'mcp__git__*', toolServer: 'git', match: { kind: 'readonly' }, scope: (d as { scope: string }).scope, chatId: '', createdAt: 1, uses: 1 },
      call: { ...card('mcp__git__log'), state: 'done', decidedBy: 'rule:9' },
    }))
    window.go = {
      main: {
        App: { RuleOptions: async () => options, AddRuleFromCall, ListRules: async () => [] } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>,
      },
    }
  })
  afterEach(() => {
    window.go = undefined
  })

  it('is offered for a tool the server says is read-only, and saves the readonly kind after saying it is a claim', async () => {
    await openMenu('mcp__git__log')
    const item = screen.getByTestId('always-allow-readonly')
    expect(item).toHaveTextContent('Read-only tools of git')
    await userEvent.click(item)
    const dialog = await screen.findByTestId('rule-dialog')
    expect(within(dialog).getByTestId('rule-kind-readonly')).toBeChecked()
    expect(within(dialog).getByTestId('rule-readonly-claim')).toHaveTextContent('the server’s own claim')
    await userEvent.click(within(dialog).getByTestId('rule-scope-always'))
    await userEvent.click(within(dialog).getByTestId('rule-save'))
    await waitFor(() => expect(AddRuleFromCall).toHaveBeenCalled())
    expect(AddRuleFromCall.mock.calls[0][1]).toMatchObject({ effect: 'allow', match: 'readonly', scope: 'always' })
  })

  it('is not offered for a destructive tool, or one whose server says nothing', async () => {
    await openMenu('mcp__git__push')
    expect(screen.queryByTestId('always-allow-readonly')).toBeNull()
  })

  it('is not offered for a tool without annotations', async () => {
    await openMenu('mcp__git__status')
    expect(screen.queryByTestId('always-allow-readonly')).toBeNull()
  })

  it('reads as such in Permissions and Activity, in English and Chinese', async () => {
    const rule = { match: { kind: 'readonly' as const } }
    await applyLanguage('en')
    expect(matchText(rule, i18n.getFixedT('en'))).toBe('tools the server says are read-only')
    await applyLanguage('zh')
    expect(matchText(rule, i18n.getFixedT('zh'))).toBe('服务器自称只读的工具')
    await applyLanguage('en')
  })
})
