import { afterEach, describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import i18n from '../../i18n'
import type { AuditEntry } from '../../api'
import { ActivityRow } from './ActivityView'

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: 1,
  uid: 'u1',
  chatId: 'c1',
  callId: 'k1',
  messageId: 'm1',
  tool: 'read_file',
  decision: 'approved',
  decidedBy: 'rule:1',
  at: 1714554240000,
  arguments: { path: 'a' },
  runArguments: { path: 'a' },
  preview: null,
  resultStatus: '',
  durationMs: 0,
  imported: false,
  ...over,
})

describe('an imported row of the trail', () => {
  afterEach(() => void i18n.changeLanguage('en'))

  it('says it was imported, in both languages; a local row does not', async () => {
    const { unmount } = render(<ol><ActivityRow entry={entry({ imported: true })} chatTitle="" locale="en" /></ol>)
    expect(screen.getByTestId('activity-row')).toHaveAttribute('data-imported', 'true')
    expect(screen.getByTestId('activity-imported')).toHaveTextContent('Imported')
    expect(screen.getByTestId('activity-imported').title).toMatch(/another computer/)
    unmount()

    await i18n.changeLanguage('zh')
    const zh = render(<ol><ActivityRow entry={entry({ imported: true })} chatTitle="" locale="zh" /></ol>)
    expect(screen.getByTestId('activity-imported')).toHaveTextContent('已导入')
    zh.unmount()

    render(<ol><ActivityRow entry={entry()} chatTitle="" locale="en" /></ol>)
    expect(screen.queryByTestId('activity-imported')).toBeNull()
    expect(screen.getByTestId('activity-row')).not.toHaveAttribute('data-imported')
  })
})
