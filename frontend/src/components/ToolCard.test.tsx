import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Call } from '../api'
import { resetStore, useStore } from '../store'
import { groupByMessage } from '../store/calls'
import { ToolCard } from './ToolCard'
import { MessageCalls } from './ToolCalls'

const base = (over: Partial<Call> = {}): Call => ({
  id: 'k1',
  modelCallId: 'call_1',
  chatId: 'chat1',
  messageId: 'm1',
  index: 0,
  name: 'calculate',
  arguments: { expression: '17*23' },
  raw: '{"tool_calls":[{"id":"call_1","name":"calculate","arguments":{"expression":"17*23"}}]}\n',
  format: 'json',
  state: 'pending',
  createdAt: 1000,
  updatedAt: 1000,
  ...over,
})

type Backend = Record<string, ReturnType<typeof vi.fn>>
let backend: Backend

/** A fake Go side: every call action answers with the call in its next state. */
function install(over: Partial<Backend> = {}) {
  backend = {
    ApproveCall: vi.fn(async (id: string, edited: unknown) => base({ id, state: 'approved', edited: undefined, updatedAt: 2000, decidedBy: 'user', decidedAt: 2000, ...(edited ? {} : {}) })),
    DenyCall: vi.fn(async (id: string, reason: string) => base({ id, state: 'denied', reason, updatedAt: 2000 })),
    AlwaysAllowCall: vi.fn(async (id: string) => base({ id, state: 'approved', updatedAt: 2000 })),
    TellModel: vi.fn(async (id: string) => base({ id, state: 'problem', resultStatus: 'error', updatedAt: 2000 })),
    FixAndRun: vi.fn(async (id: string, name: string, args: unknown) => base({ id, name, arguments: args, state: 'approved', updatedAt: 2000 })),
    CancelCall: vi.fn(async () => undefined),
    RunAll: vi.fn(async () => undefined),
    DenyAll: vi.fn(async () => undefined),
    ...over,
  }
  window.go = { main: { App: backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
}

/** Renders a card whose call is also in the store (as in the app). */
function show(call: Call) {
  useStore.setState({ callsByMessage: groupByMessage([call]) })
  return render(<ToolCard call={call} paradigm="json" />)
}

describe('ToolCard', () => {
  beforeEach(() => {
    resetStore()
    install()
  })
  afterEach(() => {
    delete window.go
    vi.useRealTimers()
  })

  it('pending: shows name, summary, pretty arguments, state, and the four actions', () => {
    show(base())
    const card = screen.getByTestId('tool-card')
    expect(card).toHaveAttribute('data-tool', 'calculate')
    expect(card).toHaveAttribute('data-state', 'pending')
    expect(card).toHaveAttribute('data-call-id', 'k1')
    expect(card).toHaveAttribute('tabindex', '0')
    expect(card).toHaveAccessibleName('Tool call calculate (17*23): Pending')
    expect(within(card).getByTestId('call-args').textContent).toBe('{\n  "expression": "17*23"\n}')
    expect(within(card).getByTestId('call-state')).toHaveTextContent('Pending')
    for (const id of ['approve', 'deny', 'edit', 'always-allow']) expect(within(card).getByTestId(id)).toBeEnabled()
    // raw text is collapsed until asked for
    expect(within(card).queryByTestId('call-raw')).toBeNull()
  })

  it('Run approves the call (sending the proposed arguments: no edit)', async () => {
    const user = userEvent.setup()
    show(base())
    await user.click(screen.getByTestId('approve'))
    expect(backend.ApproveCall).toHaveBeenCalledWith('k1', { expression: '17*23' })
    // the reply is stored
    await waitFor(() => expect(useStore.getState().callsByMessage.m1[0].state).toBe('approved'))
  })

  it('Deny opens a reason input; Confirm deny sends the reason', async () => {
    const user = userEvent.setup()
    show(base())
    await user.click(screen.getByTestId('deny'))
    expect(backend.DenyCall).not.toHaveBeenCalled()
    const input = screen.getByTestId('deny-reason')
    expect(input).toHaveFocus()
    await user.type(input, 'not now')
    await user.click(screen.getByTestId('confirm-deny'))
    expect(backend.DenyCall).toHaveBeenCalledWith('k1', 'not now')
  })

  it('Deny without a reason sends an empty one; Esc closes the reason input', async () => {
    const user = userEvent.setup()
    show(base())
    await user.click(screen.getByTestId('deny'))
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('deny-reason')).toBeNull()
    expect(screen.getByTestId('tool-card')).toHaveFocus()
    await user.click(screen.getByTestId('deny'))
    await user.keyboard('{Enter}')
    expect(backend.DenyCall).toHaveBeenCalledWith('k1', '')
  })

  it('Always allow ▾ offers "in this chat" and "everywhere"', async () => {
    const user = userEvent.setup()
    show(base())
    await user.click(screen.getByTestId('always-allow'))
    const menu = screen.getByRole('menu')
    const items = within(menu).getAllByRole('menuitem').map((m) => m.textContent)
    expect(items.slice(0, 2)).toEqual([expect.stringContaining('In this chat'), expect.stringContaining('Everywhere')])
    expect(items).toContainEqual(expect.stringContaining('Never allow'))
    await user.click(screen.getByTestId('always-allow-everywhere'))
    expect(backend.AlwaysAllowCall).toHaveBeenCalledWith('k1', true)
    await user.click(screen.getByTestId('always-allow'))
    await user.click(screen.getByTestId('always-allow-chat'))
    expect(backend.AlwaysAllowCall).toHaveBeenLastCalledWith('k1', false)
  })

  it('Edit sends the parsed JSON; invalid JSON is caught locally; a server error shows in the form', async () => {
    const user = userEvent.setup()
    install({
      ApproveCall: vi.fn().mockRejectedValue(
        JSON.stringify({ code: 'invalid_arguments', message: 'Tool "calculate": unknown argument "foo".' }),
      ),
    })
    show(base())
    await user.click(screen.getByTestId('edit'))
    const box = screen.getByTestId('edit-args') as HTMLTextAreaElement
    expect(JSON.parse(box.value)).toEqual({ expression: '17*23' })

    await user.clear(box)
    await user.type(box, '{{"expression": ')
    await user.click(screen.getByTestId('run-edited'))
    expect(screen.getByTestId('edit-error')).toHaveTextContent('not valid JSON')
    expect(backend.ApproveCall).not.toHaveBeenCalled()

    await user.clear(box)
    await user.type(box, '{{"expression": "2+2", "foo": 1}')
    await user.click(screen.getByTestId('run-edited'))
    expect(backend.ApproveCall).toHaveBeenCalledWith('k1', { expression: '2+2', foo: 1 })
    const err = await screen.findByTestId('edit-error')
    expect(err).toHaveTextContent('unknown argument "foo"')
    expect(err).toHaveTextContent('invalid_arguments')
    expect(screen.getByTestId('edit-args')).toBeInTheDocument() // the form stays open to fix it
    expect(useStore.getState().toasts).toHaveLength(0) // shown inline, not as a toast
  })

  it('keyboard on a focused card: y runs, n opens the reason, e opens the editor, Esc closes it', async () => {
    const user = userEvent.setup()
    show(base())
    const card = screen.getByTestId('tool-card')
    act(() => card.focus())
    await user.keyboard('e')
    expect(screen.getByTestId('edit-args')).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('edit-args')).toBeNull()
    expect(card).toHaveFocus()
    await user.keyboard('n')
    expect(screen.getByTestId('deny-reason')).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(card).toHaveFocus()
    await user.keyboard('y')
    expect(backend.ApproveCall).toHaveBeenCalledWith('k1', { expression: '17*23' })
  })

  it('keyboard: Enter runs and Delete denies; typing inside the card does not trigger shortcuts', async () => {
    const user = userEvent.setup()
    show(base())
    const card = screen.getByTestId('tool-card')
    act(() => card.focus())
    await user.keyboard('{Delete}')
    const reason = screen.getByTestId('deny-reason')
    await user.type(reason, 'yes no') // y/n typed in the input are text, not shortcuts
    expect(reason).toHaveValue('yes no')
    expect(backend.ApproveCall).not.toHaveBeenCalled()
    await user.keyboard('{Escape}')
    await user.keyboard('{Enter}')
    expect(backend.ApproveCall).toHaveBeenCalledTimes(1)
    expect(backend.DenyCall).not.toHaveBeenCalled()
  })

  it('problem: shows the problem and raw text; Fix and run sends a name and arguments; Tell the model', async () => {
    const user = userEvent.setup()
    const problem = base({
      id: 'p1',
      name: 'teleport',
      arguments: { to: 'Mars' }, // as the backend read them
      state: 'problem',
      problem: 'There is no tool named "teleport".',
      raw: '{"tool_calls":[{"id":"call_1","name":"teleport","arguments":{"to":"Mars"}}]}',
    })
    install({
      FixAndRun: vi
        .fn()
        .mockRejectedValueOnce(JSON.stringify({ code: 'unknown_tool', message: 'There is no tool named "teleport".' }))
        .mockResolvedValueOnce(base({ id: 'p1', state: 'approved', updatedAt: 3000 })),
    })
    show(problem)
    const card = screen.getByTestId('tool-card')
    expect(card).toHaveAttribute('data-state', 'problem')
    expect(within(card).getByTestId('call-problem')).toHaveTextContent('no tool named "teleport"')
    expect(within(card).getByTestId('call-raw')).toHaveTextContent('"name":"teleport"')
    expect(within(card).queryByTestId('approve')).toBeNull()
    expect(within(card).getByTestId('call-args')).toHaveTextContent('"to": "Mars"')

    await user.click(within(card).getByTestId('fix-and-run'))
    const name = screen.getByTestId('fix-name')
    expect(name).toHaveValue('teleport')
    expect(JSON.parse((screen.getByTestId('fix-args') as HTMLTextAreaElement).value)).toEqual({ to: 'Mars' })
    await user.click(screen.getByTestId('fix-submit'))
    expect(await screen.findByTestId('fix-error')).toHaveTextContent('no tool named')
    expect(screen.getByTestId('fix-error')).toHaveTextContent('unknown_tool')

    await user.clear(name)
    await user.type(name, 'calculate')
    const args = screen.getByTestId('fix-args')
    await user.clear(args)
    await user.type(args, '{{"expression": "1+1"}')
    await user.click(screen.getByTestId('fix-submit'))
    expect(backend.FixAndRun).toHaveBeenLastCalledWith('p1', 'calculate', { expression: '1+1' })
  })

  it('problem: Tell the model settles it', async () => {
    const user = userEvent.setup()
    show(base({ id: 'p2', state: 'problem', problem: 'Broken.', arguments: null }))
    await user.click(screen.getByTestId('tell-model'))
    expect(backend.TellModel).toHaveBeenCalledWith('p2')
  })

  it('problem sent to the model: the error once, no empty arguments', () => {
    const problem = 'The arguments are not valid JSON, so the call was not run: invalid character'
    show(base({ id: 'p3', state: 'problem', problem, result: problem, resultStatus: 'error', arguments: {}, raw: '{"expression": "17*23", oops}', decidedBy: 'user', decidedAt: 5 }))
    const card = screen.getByTestId('tool-card')
    expect(card.textContent!.split('not valid JSON').length - 1).toBe(1)
    expect(within(card).queryByTestId('call-args')).toBeNull()
    expect(within(card).getByTestId('call-raw')).toHaveTextContent('oops')
    expect(within(card).getByTestId('call-decision')).toHaveTextContent('sent to the model')
  })

  it('running: spinner, live elapsed time ticking, and Cancel', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const start = Date.now()
    show(base({ state: 'running', decidedBy: 'user', decidedAt: start, startedAt: start, updatedAt: start }))
    const card = screen.getByTestId('tool-card')
    expect(within(card).getByTestId('call-state')).toHaveTextContent('Running')
    expect(card.querySelector('.spinner')).not.toBeNull()
    expect(within(card).queryByTestId('approve')).toBeNull()
    const first = within(card).getByTestId('call-elapsed').textContent
    await act(async () => {
      vi.advanceTimersByTime(1500)
    })
    const later = within(card).getByTestId('call-elapsed').textContent
    expect(later).not.toBe(first)
    expect(later).toMatch(/^1\.\d s$/)
    within(card).getByTestId('cancel-call').click()
    expect(backend.CancelCall).toHaveBeenCalledWith('k1')
  })

  it('done: result, duration and who decided when', () => {
    const at = new Date(2026, 0, 2, 14, 2, 11).getTime()
    show(
      base({
        state: 'done',
        decidedBy: 'user',
        decidedAt: at,
        startedAt: at,
        finishedAt: at + 12,
        result: '391',
        resultStatus: 'success',
        updatedAt: at + 12,
      }),
    )
    const card = screen.getByTestId('tool-card')
    expect(within(card).getByTestId('call-result')).toHaveTextContent('391')
    expect(within(card).getByTestId('call-duration')).toHaveTextContent('12 ms')
    expect(within(card).getByTestId('call-decision')).toHaveTextContent('Approved by you · 14:02:11')
    expect(within(card).queryByTestId('approve')).toBeNull()
    expect(within(card).queryByTestId('call-truncated')).toBeNull()
  })

  it('decision lines: rule (this chat), denied with a reason, edited before running (both argument sets), truncated', () => {
    const { unmount } = show(base({ state: 'done', decidedBy: 'rule:chat', decidedAt: 5, result: 'x', truncated: true }))
    expect(screen.getByTestId('call-decision')).toHaveTextContent('Auto-approved by rule (this chat)')
    expect(screen.getByTestId('call-truncated')).toBeInTheDocument()
    unmount()
    const denied = show(base({ state: 'denied', decidedBy: 'user', decidedAt: 5, reason: 'too risky', result: 'The user denied this call. Reason: too risky. Do not retry it unchanged; ask the user or try something else.' }))
    expect(screen.getByTestId('call-decision')).toHaveTextContent('Denied by you: too risky')
    // What the model is told ("Do not retry it unchanged…") is not echoed to the user.
    expect(screen.queryByTestId('call-result')).toBeNull()
    expect(screen.getByTestId('tool-card')).not.toHaveTextContent('Do not retry')
    denied.unmount()
    show(base({ state: 'done', decidedBy: 'user', decidedAt: 5, edited: { expression: '2+2' }, result: '4' }))
    expect(screen.getByTestId('call-decision')).toHaveTextContent('Edited before running')
    // One text with the words that changed marked, not two cut-off blocks.
    const diff = screen.getByTestId('call-args')
    expect(diff.querySelector('del')).toHaveTextContent('17*23')
    expect(diff.querySelector('ins')).toHaveTextContent('2+2')
    expect(diff).toHaveClass('tool-card__pre--wrap')
  })

  it('edit: the diff follows the edit (PreviewCall), and the changed words are marked', async () => {
    const user = userEvent.setup()
    install({
      PreviewCall: vi.fn(async (_id: string, args: { expression?: string }) => ({ summary: `would compute ${args.expression}`, diff: `+${args.expression}` })),
    })
    show(base({ preview: { summary: 'would compute 17*23', diff: '+17*23' } }))
    expect(screen.getByTestId('call-preview')).toHaveTextContent('would compute 17*23')
    await user.click(screen.getByTestId('edit'))
    const box = screen.getByTestId('edit-args')
    await user.clear(box)
    await user.type(box, '{{"expression": "6*7"}')
    await waitFor(() => expect(screen.getByTestId('call-preview')).toHaveTextContent('would compute 6*7'))
    expect(screen.getByTestId('call-preview')).toHaveAttribute('data-draft', 'true')
    expect(backend.PreviewCall).toHaveBeenLastCalledWith('k1', { expression: '6*7' })
    expect(screen.getByTestId('edit-args-diff').querySelector('ins')).toHaveTextContent('6')
    // Cancelling the edit shows the model's change again.
    await user.click(screen.getByTestId('edit-cancel'))
    expect(screen.getByTestId('call-preview')).toHaveTextContent('would compute 17*23')
  })

  it('edit: a preview the backend refuses says so, in place of the diff', async () => {
    const user = userEvent.setup()
    install({ PreviewCall: vi.fn(async () => Promise.reject({ code: 'invalid_arguments', message: 'expression is required' })) })
    show(base({ preview: { summary: 'would compute 17*23' } }))
    await user.click(screen.getByTestId('edit'))
    const box = screen.getByTestId('edit-args')
    await user.clear(box)
    await user.type(box, '{{"x": 1}')
    await waitFor(() => expect(screen.getByTestId('call-preview')).toHaveTextContent('expression is required'))
  })

  it('interrupted: says it never finished and offers Run / Deny again', async () => {
    const user = userEvent.setup()
    show(base({ state: 'interrupted', decidedBy: 'user', decidedAt: 5, startedAt: 5, result: 'the app shut down while this call was running' }))
    const card = screen.getByTestId('tool-card')
    expect(within(card).getByTestId('call-state')).toHaveTextContent('Interrupted')
    expect(card).toHaveTextContent('never finished')
    expect(within(card).getByTestId('call-result')).toHaveTextContent('the app shut down')
    await user.click(within(card).getByTestId('approve'))
    expect(backend.ApproveCall).toHaveBeenCalledWith('k1', { expression: '17*23' })
  })

  it('shows the loop guard and a "read as" tag for another format', () => {
    show(base({ guard: 'Loop guard: same call 3 times.', format: 'hermes' }))
    expect(screen.getByTestId('guard-note')).toHaveTextContent('Loop guard: same call 3 times.')
    expect(screen.getByTestId('call-format')).toHaveTextContent('read as hermes')
  })

  it('marks a repaired call (closers added) and shows it only then', () => {
    const { unmount } = show(base({ repaired: true }))
    expect(screen.getByTestId('repaired-note')).toHaveTextContent('Repaired: closers added')
    expect(screen.getByTestId('repaired-note')).toHaveTextContent('no rule runs a repaired call by itself')
    unmount()
    show(base({}))
    expect(screen.queryByTestId('repaired-note')).toBeNull()
  })

  it('says when argument names repeat or differ only by case (no exact-value rule runs it)', () => {
    const { unmount } = show(base({ arguments: { remote: 'origin' }, ambiguousKeys: ['REMOTE', 'remote'] }))
    expect(screen.getByTestId('ambiguous-keys-note')).toHaveTextContent('REMOTE, remote')
    unmount()
    show(base({}))
    expect(screen.queryByTestId('ambiguous-keys-note')).toBeNull()
  })

  it('shows what the call would change (preview summary and diff), or why it could not be previewed', () => {
    const { unmount } = show(
      base({
        name: 'edit_file',
        arguments: { path: 'notes.md' },
        preview: { summary: 'Edit notes.md: replace 1 line (+1 −1 lines)', diff: '--- a/notes.md\n+++ b/notes.md\n@@ -1 +1 @@\n-old\n+new\n', path: 'notes.md' },
      }),
    )
    const preview = screen.getByTestId('call-preview')
    expect(preview).toHaveTextContent('Edit notes.md: replace 1 line')
    const diff = screen.getByTestId('call-diff')
    expect(diff.querySelector('.diff-add')).toHaveTextContent('+new')
    expect(diff.querySelector('.diff-del')).toHaveTextContent('-old')
    unmount()
    show(base({ name: 'write_file', preview: { error: 'the path is outside the workspace' } }))
    expect(screen.getByTestId('call-preview')).toHaveTextContent('the path is outside the workspace')
  })

  // Issue 30, item 14: before Run, a path leaving the workspace is said on the card (it showed nothing, or "couldn't preview").
  it('says before Run that the call will be refused, and why', () => {
    show(base({ name: 'read_file', preview: { refused: '../etc/passwd leads outside the workspace', code: 'path_outside', argument: 'path' } }))
    expect(screen.getByTestId('call-refusal')).toHaveTextContent('Running this call will be refused: ../etc/passwd leads outside the workspace')
    expect(screen.queryByTestId('call-preview')).toBeNull()
  })

  it('long arguments collapse (> 8 lines) and expand', async () => {
    const user = userEvent.setup()
    const args: Record<string, number> = {}
    for (let i = 0; i < 12; i++) args[`k${i}`] = i
    show(base({ arguments: args }))
    expect(screen.getByTestId('call-args')).toHaveClass('is-collapsed')
    await user.click(screen.getByRole('button', { name: /Show all \(14 lines\)/ }))
    expect(screen.getByTestId('call-args')).not.toHaveClass('is-collapsed')
  })

  it('read-only (Tool lab): no actions at all', () => {
    render(<ToolCard call={base()} paradigm="json" readOnly />)
    expect(screen.queryByTestId('approve')).toBeNull()
    expect(screen.queryByTestId('deny')).toBeNull()
    expect(screen.queryByTestId('call-decision')).toBeNull()
  })
})

describe('MessageCalls', () => {
  beforeEach(() => {
    resetStore()
    install()
  })
  afterEach(() => {
    delete window.go
  })

  it('several undecided calls get Run all / Deny all; cards in index order', async () => {
    const user = userEvent.setup()
    useStore.setState({
      callsByMessage: groupByMessage([base({ id: 'b', index: 1, name: 'get_current_time', arguments: {} }), base({ id: 'a', index: 0 })]),
    })
    render(<MessageCalls messageId="m1" paradigm="json" />)
    expect(screen.getAllByTestId('tool-card').map((c) => c.dataset.callId)).toEqual(['a', 'b'])
    await user.click(screen.getByTestId('run-all'))
    expect(backend.RunAll).toHaveBeenCalledWith('m1')
    await user.click(screen.getByTestId('deny-all'))
    expect(backend.DenyAll).toHaveBeenCalledWith('m1', '')
  })

  it('a single undecided call has no bulk bar', () => {
    useStore.setState({ callsByMessage: groupByMessage([base(), base({ id: 'z', index: 1, state: 'done' })]) })
    render(<MessageCalls messageId="m1" />)
    expect(screen.queryByTestId('run-all')).toBeNull()
  })
})
