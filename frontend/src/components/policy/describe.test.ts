import { describe, expect, it } from 'vitest'
import i18n from '../../i18n'
import { folderChoices, matchText, ruleText, whoText } from './describe'

const t = i18n.getFixedT('en')
const zh = i18n.getFixedT('zh')

describe('rules in words', () => {
  it('offers the call’s folder, then each parent, then the whole workspace', () => {
    expect(folderChoices('docs/api/v2')).toEqual(['docs/api/v2', 'docs/api', 'docs', '.'])
    expect(folderChoices('docs/')).toEqual(['docs', '.'])
    expect(folderChoices('.')).toEqual(['.'])
    expect(folderChoices('')).toEqual(['.'])
  })

  it('names who decided, in both languages', () => {
    expect(whoText('rule:12', t)).toBe('rule #12')
    expect(whoText('user', t)).toBe('you')
    expect(whoText('loop_guard', t)).toBe('the loop guard')
    expect(whoText('turn_cap', t)).toBe('the turn cap')
    expect(whoText('new_message', t)).toBe('your new message')
    expect(whoText('rule:chat', t)).toBe('a rule (this chat)')
    expect(whoText('rule:0', t)).toBe('rule:0') // not a rule id: shown as stored
    expect(whoText('rule:7', zh)).toBe('规则 #7')
  })

  it('says what a rule matches and for how long', () => {
    expect(matchText({ match: { kind: 'path', path: 'docs' } }, t)).toBe('paths under docs')
    expect(matchText({ match: { kind: 'path', path: '.' } }, t)).toBe('any path in the workspace')
    expect(matchText({ match: { kind: 'exact', arg: 'timezone', value: 'UTC' } }, t)).toBe('timezone = "UTC"')
    const r = { id: 3, effect: 'deny' as const, tool: 'write_file', match: { kind: 'any' as const }, scope: 'hour' as const, chatId: '', createdAt: 0, uses: 0 }
    expect(ruleText(r, t)).toBe('Never allow write_file · any arguments · for an hour')
  })
})
