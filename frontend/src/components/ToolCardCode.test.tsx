import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Call, CodeReport } from '../api'
import { resetStore, useStore } from '../store'
import { groupByMessage } from '../store/calls'
import { ToolCard } from './ToolCard'

const code = "import os\nopen('squares.txt', 'w').write('1\\n4\\n')\nprint('wrote')\n6 * 7\n"
const bounds = { timeoutMs: 10000, memoryBytes: 128 << 20, outputBytes: 16 << 10, maxFiles: 50, writeBytes: 10 << 20 }
const plan = { engine: 'CPython 3.12.0 (WASI)', language: 'python', bounds, readOnly: false, lines: 4 }

const base = (over: Partial<Call> = {}): Call => ({
  id: 'k1',
  modelCallId: 'call_1',
  chatId: 'chat1',
  messageId: 'm1',
  index: 0,
  name: 'run_python',
  arguments: { code },
  raw: '',
  format: 'native',
  state: 'pending',
  preview: plan,
  createdAt: 1000,
  updatedAt: 1000,
  ...over,
})

const report: CodeReport = {
  ...plan,
  stdout: 'wrote\n',
  stderr: '',
  value: '42',
  exitCode: 0,
  files: [{ path: 'squares.txt', change: 'created', diff: '--- /dev/null\n+++ b/squares.txt\n@@ -0,0 +1,2 @@\n+1\n+4\n', size: 4 }],
  durationMs: 120,
  startMs: 80,
  memoryBytes: 12 << 20,
}

let approve: ReturnType<typeof vi.fn>

function show(call: Call) {
  useStore.setState({ callsByMessage: groupByMessage([call]) })
  return render(<ToolCard call={call} paradigm="json" />)
}

describe('the code card', () => {
  beforeEach(() => {
    resetStore()
    approve = vi.fn(async (id: string) => base({ id, state: 'approved', updatedAt: 2000 }))
    window.go = { main: { App: { ApproveCall: approve } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
  })
  afterEach(() => {
    delete window.go
  })

  it('shows the code with line numbers, the engine, the bounds and read-write before the run', () => {
    show(base())
    const listing = screen.getByTestId('code-listing')
    expect(listing.textContent).toContain("open('squares.txt', 'w')")
    expect(listing.querySelector('.code-listing__gutter')?.textContent).toBe('1\n2\n3\n4\n')
    expect(screen.getByTestId('code-engine').textContent).toBe('CPython 3.12.0 (WASI)')
    const chips = screen.getByTestId('code-bounds').textContent ?? ''
    expect(chips).toContain('10.0 s')
    expect(chips).toContain('128 MB')
    expect(chips).toContain('50 files')
    expect(screen.getByTestId('code-access').textContent).toContain('Read-write')
    expect(screen.queryByTestId('call-args')).toBeNull() // the code, not raw JSON
  })

  it('Run read-only approves with read_only: true', async () => {
    show(base())
    await userEvent.click(screen.getByTestId('run-read-only'))
    await waitFor(() => expect(approve).toHaveBeenCalled())
    expect(approve.mock.calls[0][1]).toEqual({ code, read_only: true })
  })

  it('a read-only call says so and offers no second read-only button', () => {
    show(base({ arguments: { code, read_only: true }, preview: { ...plan, readOnly: true } }))
    expect(screen.getByTestId('code-access').textContent).toContain('Read-only')
    expect(screen.queryByTestId('run-read-only')).toBeNull()
  })

  it('after the run shows its output, return value, files changed, time and memory', () => {
    show(base({ state: 'done', result: 'stdout:\nwrote\n', structured: report, startedAt: 2000, finishedAt: 2200 }))
    const r = screen.getByTestId('code-report')
    expect(within(r).getByTestId('code-stdout').textContent).toBe('wrote\n')
    expect(within(r).getByTestId('code-value').textContent).toContain('42')
    const file = within(r).getByTestId('code-file')
    expect(file.getAttribute('data-path')).toBe('squares.txt')
    expect(file.textContent).toContain('created')
    expect(within(file).getByTestId('code-file-diff').textContent).toContain('+4')
    expect(within(r).getByTestId('code-stats').textContent).toMatch(/Ran 120 ms.*12(\.0)? MB/)
    expect(screen.queryByTestId('call-result')).toBeNull()
  })

  it('a run that hit a bound says which one', () => {
    const hit = { ...report, stdout: '', value: '', files: [], bound: 'time', error: 'stopped: the run hit the wall-time bound (10s)', exitCode: 1 }
    show(base({ state: 'error', result: 'x', structured: hit }))
    expect(screen.getByTestId('code-report').getAttribute('data-bound')).toBe('time')
    expect(screen.getByTestId('code-stop').textContent).toContain('Stopped at the wall-time bound.')
  })
})
