// Rules from a card, Settings → Permissions and Activity: the real App
// against the preview's fake backend (its rules match like backend/approval).
import { beforeEach, describe, expect, it } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { installFakeBackend } from '../../../preview/fake-backend'
import { App } from '../../App'
import { resetStore, useStore } from '../../store'
import { resetPolicy, usePolicy } from '../../store/policy'

async function boot(opts: Parameters<typeof installFakeBackend>[0] = {}) {
  const fake = installFakeBackend({ tick: 2, runMs: 20, empty: true, ...opts })
  render(<App />)
  await screen.findByTestId('composer')
  return fake
}

const cards = () => screen.queryAllByTestId('tool-card')
const lastCard = () => cards().at(-1)!
const lastMessage = () => screen.getAllByTestId('message').at(-1)!

async function ask(user: ReturnType<typeof userEvent.setup>, text: string, count: number) {
  await user.type(screen.getByTestId('composer'), `${text}{Enter}`)
  await waitFor(() => expect(cards()).toHaveLength(count), { timeout: 5000 })
  return lastCard()
}
/** The model has read the results back: its last answer is complete, with no card waiting. */
async function answered() {
  await waitFor(
    () => {
      expect(lastMessage()).toHaveAttribute('data-role', 'assistant')
      expect(lastMessage()).toHaveAttribute('data-status', 'complete')
      expect(lastMessage()).toHaveTextContent("That's everything I needed")
      expect(screen.queryByTestId('stop')).toBeNull()
    },
    { timeout: 5000 },
  )
}

// Whole conversations with the fake model: slower than a unit test on a loaded machine.
describe('rules from a card', { timeout: 20000 }, () => {
  beforeEach(() => {
    resetStore()
    resetPolicy()
  })

  it('a path rule for this chat: offered from the call’s folder and its parents, tested, saved; the next call under it runs by itself, one elsewhere waits', async () => {
    const user = userEvent.setup()
    const fake = await boot()
    await user.click(screen.getByTestId('new-chat'))
    const first = await ask(user, 'read docs/api/a.md', 1)
    expect(first).toHaveAttribute('data-state', 'pending')

    await user.click(within(first).getByTestId('always-allow'))
    await user.click(await screen.findByTestId('always-allow-path'))
    expect(screen.getByTestId('always-allow')).toBeInTheDocument()
    const dialog = await screen.findByTestId('rule-dialog')
    expect(within(dialog).getByTestId('rule-kind-path')).toBeChecked()
    // docs/api/ first, then its parents, then the whole workspace
    expect(within(dialog).getAllByTestId('rule-folder').map((r) => (r as HTMLInputElement).value)).toEqual(['docs/api', 'docs', '.'])
    await user.click(within(dialog).getAllByTestId('rule-folder')[1]) // docs/
    expect(within(dialog).getByTestId('rule-scope-chat')).toBeChecked() // the default scope

    await user.click(within(dialog).getByTestId('rule-test'))
    expect(await within(dialog).findByTestId('rule-test-result')).toHaveTextContent('Would have allowed 1 of the 1 calls of this chat')
    expect(within(dialog).getAllByTestId('rule-test-call')[0]).toHaveTextContent('read_file')
    // changing the draft drops the stale result
    await user.click(within(dialog).getByTestId('rule-scope-hour'))
    expect(within(dialog).queryByTestId('rule-test-result')).toBeNull()
    await user.click(within(dialog).getByTestId('rule-scope-chat'))

    await user.click(within(dialog).getByTestId('rule-save'))
    await waitFor(() => expect(screen.queryByTestId('rule-dialog')).toBeNull())
    expect(fake.rules).toMatchObject([{ id: 1, effect: 'allow', tool: 'read_file', match: { kind: 'path', path: 'docs' }, scope: 'chat' }])
    const decision = await within(first).findByTestId('rule-decision')
    expect(decision).toHaveTextContent('Allowed by rule #1')
    expect(within(first).getByTestId('call-decision')).toHaveTextContent(/paths under docs · this chat/)
    await answered()

    // under docs/: runs by itself, decided by the rule
    const second = await ask(user, 'read docs/b.md', 2)
    await waitFor(() => expect(second).not.toHaveAttribute('data-state', 'pending'), { timeout: 3000 })
    expect(within(second).getByTestId('rule-decision')).toHaveTextContent('Allowed by rule #1')
    await answered()
    // elsewhere: waits for you, with the menu
    const third = await ask(user, 'read src/main.go', 3)
    expect(third).toHaveAttribute('data-state', 'pending')
    expect(within(third).getByTestId('always-allow')).toBeInTheDocument()

    // the link on a rule's card opens Settings → Permissions, where the rule shows its uses
    await user.click(within(second).getByTestId('rule-link'))
    const row = await screen.findByTestId('rule-row')
    expect(row).toHaveAttribute('data-effect', 'allow')
    expect(row).toHaveTextContent('read_file')
    expect(row).toHaveTextContent('paths under docs')
    await waitFor(() => expect(within(row).getByTestId('rule-uses')).toHaveTextContent('2 calls'))
    expect(within(row).getByTestId('rule-expiry')).toHaveTextContent('until revoked')
  })

  it('Never allow: the card is denied by the rule, the model is told the message; Settings → Permissions shows it and revokes it', async () => {
    const user = userEvent.setup()
    const fake = await boot()
    await user.click(screen.getByTestId('new-chat'))
    const card = await ask(user, 'read secrets/key.txt', 1)
    await user.click(within(card).getByTestId('always-allow'))
    await user.click(await screen.findByTestId('never-allow'))
    const dialog = await screen.findByTestId('rule-dialog')
    expect(dialog).toHaveTextContent('Never allow read_file')
    await user.type(within(dialog).getByTestId('rule-message'), 'Ask me before reading files.')
    await user.click(within(dialog).getByTestId('rule-save'))
    await waitFor(() => expect(card).toHaveAttribute('data-state', 'denied'))
    expect(within(card).getByTestId('rule-decision')).toHaveTextContent('Denied by rule #1')
    await waitFor(() => expect(within(card).getByTestId('rule-told')).toHaveTextContent('The model is told: “Ask me before reading files.”'))
    expect(fake.calls[0].result).toContain('The user says: Ask me before reading files.')

    await user.click(screen.getByTestId('settings-open'))
    await user.click(screen.getByTestId('settings-tab-permissions'))
    const row = await screen.findByTestId('rule-row')
    expect(row).toHaveAttribute('data-effect', 'deny')
    expect(within(row).getByTestId('rule-message')).toHaveTextContent('Ask me before reading files.')
    await user.click(within(row).getByTestId('revoke-rule'))
    expect(screen.getByTestId('rule-row')).toBeInTheDocument() // asks first (issue 30, item 15)
    await user.click(await screen.findByTestId('confirm-revoke'))
    expect(await screen.findByTestId('rules-empty')).toBeInTheDocument()
    expect(fake.rules).toHaveLength(0)
  })

  it('an exact-value rule offers the call’s arguments; a refusal shows in the dialog and the card still waits', async () => {
    const user = userEvent.setup()
    await boot()
    const app = window.go!.main!.App!
    const real = app.AddRuleFromCall
    app.AddRuleFromCall = async () => {
      app.AddRuleFromCall = real // refused once
      throw JSON.stringify({ code: 'invalid_rule', message: 'the value of "path" is too long for a rule' })
    }
    await user.click(screen.getByTestId('new-chat'))
    const card = await ask(user, 'read notes.md', 1)
    await user.click(within(card).getByTestId('always-allow'))
    await user.click(await screen.findByTestId('always-allow-exact'))
    const dialog = await screen.findByTestId('rule-dialog')
    expect(within(dialog).getByTestId('rule-value')).toHaveTextContent('"notes.md"')
    // a path rule for the root is offered too; ask for a folder the fake refuses
    await user.click(within(dialog).getByTestId('rule-kind-path'))
    expect(within(dialog).getAllByTestId('rule-folder').map((r) => (r as HTMLInputElement).value)).toEqual(['.'])
    await user.click(within(dialog).getByTestId('rule-kind-exact'))
    await user.click(within(dialog).getByTestId('rule-scope-call'))
    await user.click(within(dialog).getByTestId('rule-save'))
    expect(await within(dialog).findByTestId('rule-error')).toHaveTextContent('too long for a rule')
    expect(card).toHaveAttribute('data-state', 'pending')
    expect(within(dialog).getByTestId('rule-scope-call')).toBeChecked() // nothing chosen is lost
    await user.click(within(dialog).getByTestId('rule-save'))
    await waitFor(() => expect(card).not.toHaveAttribute('data-state', 'pending'))
    expect(within(card).getByTestId('call-decision')).toHaveTextContent(/Allowed by rule #1 · path = "notes.md" · this answer/)
  })

  it('the loop-guard card offers no Always allow; Always allow → Everywhere shows the rule on the card', async () => {
    const user = userEvent.setup()
    await boot()
    await user.click(screen.getByTestId('new-chat'))
    const first = await ask(user, 'loop', 1)
    await user.click(within(first).getByTestId('always-allow'))
    await user.click(screen.getByTestId('always-allow-everywhere'))
    expect(await within(first).findByTestId('rule-decision')).toHaveTextContent('Allowed by rule #1')
    expect(within(first).getByTestId('call-decision')).toHaveTextContent(/any arguments · always/)
    // the script repeats the call: the third time the loop guard holds it
    await waitFor(() => expect(screen.getAllByTestId('guard-note')).toHaveLength(1), { timeout: 8000 })
    const held = screen.getAllByTestId('guard-note')[0].closest('[data-testid="tool-card"]') as HTMLElement
    expect(held).toHaveAttribute('data-state', 'pending')
    expect(within(held).queryByTestId('always-allow')).toBeNull()
    expect(within(held).getByTestId('approve')).toBeInTheDocument()
  })
})

describe('Activity', { timeout: 20000 }, () => {
  beforeEach(() => {
    resetStore()
    resetPolicy()
  })

  it('lists each decision with who made it, filters by decision, opens a card, exports, and pages', async () => {
    const user = userEvent.setup()
    const fake = await boot()
    await user.click(screen.getByTestId('new-chat'))
    const first = await ask(user, 'read docs/a.md', 1)
    await user.click(within(first).getByTestId('always-allow'))
    await user.click(screen.getByTestId('always-allow-chat'))
    await answered()
    await ask(user, 'read docs/b.md', 2)
    await answered()
    const third = await ask(user, 'calc 2+2', 3)
    await user.click(within(third).getByTestId('deny'))
    await user.keyboard('{Enter}')
    await answered()

    await user.click(screen.getByTestId('chat-activity'))
    await screen.findByTestId('activity')
    await waitFor(() => expect(screen.getAllByTestId('activity-row').length).toBeGreaterThanOrEqual(5))
    const rows = screen.getAllByTestId('activity-row')
    // newest first: the denial by you, then the two reads (approved by the rule, and ran)
    expect(rows[0]).toHaveAttribute('data-decision', 'denied')
    expect(within(rows[0]).getByTestId('activity-who')).toHaveTextContent('by you')
    const byRule = rows.filter((r) => r.dataset.decidedBy === 'rule:1' && r.dataset.decision === 'approved')
    expect(byRule).toHaveLength(2)
    expect(within(byRule[0]).getByTestId('activity-who')).toHaveTextContent('by rule #1')

    await user.selectOptions(screen.getByTestId('activity-decision'), 'denied')
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(1))
    await user.selectOptions(screen.getByTestId('activity-decision'), '')
    await user.selectOptions(screen.getByTestId('activity-tool'), 'calculate')
    await waitFor(() => expect(screen.getAllByTestId('activity-row').every((r) => r.dataset.tool === 'calculate')).toBe(true))

    await user.click(screen.getByTestId('activity-export-csv'))
    await waitFor(() => expect(screen.getByText('Activity exported')).toBeInTheDocument())
    // The export is what the view shows: its tool filter too (issue 30, item 4).
    expect(fake.exported.at(-1)).toMatchObject({ tool: 'calculate', decision: '', format: 'csv' })

    // a row opens its card in its chat
    await user.click(within(screen.getAllByTestId('activity-row')[0]).getByTestId('activity-open'))
    await screen.findByTestId('composer')
    const id = third.dataset.callId // the chat view was rebuilt: find the card anew
    await waitFor(() => expect(document.querySelector(`[data-testid="tool-card"][data-call-id="${id}"]`)).toHaveFocus())
    expect(document.querySelector(`[data-call-id="${id}"]`)).toHaveClass('is-highlighted')
    expect(useStore.getState().view).toBe('chat')

    // paging: a long trail loads a page at a time
    const base = fake.audit[0]
    for (let i = 0; i < 120; i++) fake.audit.push({ ...base, id: 1000 + i, uid: `x${i}`, decision: 'ran', tool: 'get_current_time' })
    await user.click(screen.getByTestId('activity-open'))
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(50))
    await user.click(screen.getByTestId('activity-more'))
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(100))
    expect(usePolicy.getState().filter.chatId).toBe('')
  })
})
