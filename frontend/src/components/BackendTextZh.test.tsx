// The backend's coded sentences render in Chinese on the parts that show
// them: a card's preview and refusal, its error result, an answer's error.
import { afterEach, describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import i18n from '../i18n'
import type { Call } from '../api'
import { PreviewBox, ResultBox } from './ToolCardBoxes'

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
