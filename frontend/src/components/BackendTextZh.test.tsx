// The backend's coded sentences render in Chinese on the parts that show
// them: a card's preview and refusal, its error result, an answer's error.
import { afterEach, describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import i18n from '../i18n'
import type { Call } from '../api'
import { PreviewBox, ProblemNote, ResultBox } from './ToolCardBoxes'

const leaves = { code: 'path_leaves', params: { path: '"../x"' }, english: 'path "../x" leaves the workspace; use a path relative to the workspace root' }

afterEach(async () => {
  await i18n.changeLanguage('en')
})

describe('backend sentences on cards, in Chinese', () => {
  it('a preview summary, a refusal before Run and an error result', async () => {
    await i18n.changeLanguage('zh')
    const lines = { code: 'count_lines', params: { n: '2' }, english: '2 lines' }
    const size = { code: 'size_bytes', params: { n: '4' }, english: '4 bytes' }
    const { unmount } = render(
      <PreviewBox preview={{ summary: 'Create a.md (2 lines, 4 bytes)', summaryText: { code: 'pv_create', params: { path: 'a.md', lines, size }, english: 'Create a.md (2 lines, 4 bytes)' } }} />,
    )
    expect(screen.getByText('创建 a.md（2 行，4 字节）')).toBeTruthy()
    unmount()

    render(<PreviewBox preview={{ refused: leaves.english, code: 'path_outside', argument: 'path', text: leaves }} />)
    expect(screen.getByTestId('call-refusal').textContent).toContain('路径 "../x" 离开了工作区')
    expect(screen.getByTestId('call-refusal').textContent).not.toContain('leaves the workspace')

    const call = { id: 'c1', name: 'read_file', state: 'error', result: leaves.english, resultText: leaves, resultStatus: 'error' } as unknown as Call
    render(<ResultBox call={call} />)
    expect(screen.getByTestId('call-result').textContent).toContain('路径 "../x" 离开了工作区；请使用相对于工作区根目录的路径')
  })

  it('in English the backend’s own sentence shows', async () => {
    const call = { id: 'c1', name: 'read_file', state: 'error', result: leaves.english, resultText: leaves, resultStatus: 'error' } as unknown as Call
    render(<ResultBox call={call} />)
    expect(screen.getByTestId('call-result').textContent).toContain(leaves.english)
  })
})

describe('problem cards, in Chinese', () => {
  // As the registry codes an unknown tool and arguments its schema refuses (backend/tools/texts.go).
  const unknown = {
    code: 'unknown_tool_suggest',
    params: { name: '"read_fil"', suggest: '"read_file"', tools: 'read_file, list_dir' },
    english: 'There is no tool named "read_fil". Did you mean "read_file"? Available tools: read_file, list_dir.',
  }
  const missing = {
    code: 'argument_error_hint',
    params: { tool: '"read_file"', hint: 'path (string, required)', issues: [{ code: 'issue_missing_argument', params: { name: '"path"' }, english: 'missing required argument "path"' }] },
    english: 'Tool "read_file": missing required argument "path". Expected arguments: path (string, required).',
  }
  const card = (problemText: unknown, problem: string) =>
    ({ id: 'p1', name: 'read_fil', state: 'problem', problem, problemText }) as unknown as Call

  it('an unknown tool and a missing argument say why in Chinese; the English stays for the model', async () => {
    await i18n.changeLanguage('zh')
    const { unmount } = render(<ProblemNote call={card(unknown, unknown.english)} alert />)
    expect(screen.getByTestId('call-problem').textContent).toBe('没有名为 "read_fil" 的工具。你是指 "read_file" 吗？可用的工具：read_file, list_dir。')
    expect(screen.getByRole('alert')).toBeTruthy()
    unmount()
    render(<ProblemNote call={card(missing, missing.english)} />)
    expect(screen.getByTestId('call-problem').textContent).toBe('工具 "read_file"：缺少必需的参数 "path"。应有的参数：path (string, required)。')
  })

  it('an uncoded problem (an older chat) shows its English', async () => {
    await i18n.changeLanguage('zh')
    render(<ProblemNote call={card(undefined, 'Something odd.')} />)
    expect(screen.getByTestId('call-problem').textContent).toBe('Something odd.')
  })
})

