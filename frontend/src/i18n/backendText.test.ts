import { describe, expect, it } from 'vitest'
import { createI18n } from './core'
import { en } from './en'
import { zh } from './zh'
import { backendTextEn } from './backendText.en'
import { backendTextZh } from './backendText.zh'
import { errorSentence, renderText } from './backendText'
import { toApiError } from '../api'

const holes = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort()

function tFor(lng: 'en' | 'zh') {
  const i = createI18n(lng)
  i.addResourceBundle('en', en)
  i.addResourceBundle('zh', zh)
  return i.getFixedT(lng)
}

describe('the backend’s sentences (backendText.en.ts is generated from every Go declaration)', () => {
  it('every code the backend can send has a Chinese string with the same placeholders', () => {
    const codes = Object.keys(backendTextEn)
    expect(codes.length).toBeGreaterThan(100)
    for (const code of codes) {
      const zhText = (backendTextZh as Record<string, string>)[code]
      // Chinese, unless the sentence is only its parts ("{{first}}{{then}}").
      const rest = (zhText ?? '').replace(/{{\s*\w+\s*}}/g, '').trim()
      expect(typeof zhText === 'string' && (rest === '' || /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/.test(rest)), `zh for ${code}`).toBe(true)
      expect(holes(zhText), code).toEqual(holes((backendTextEn as Record<string, string>)[code]))
    }
    expect(Object.keys(backendTextZh).sort()).toEqual(codes.sort())
  })

  it('renders a coded sentence in Chinese with its parameters, a nested sentence included', () => {
    const t = tFor('zh')
    expect(renderText(t, { code: 'path_leaves', params: { path: '"../x"' }, english: 'path "../x" leaves the workspace; …' })).toBe(
      '路径 "../x" 离开了工作区；请使用相对于工作区根目录的路径',
    )
    const missing = { code: 'ws_folder_missing', params: { folder: '/home/a/gone' }, english: 'folder /home/a/gone does not exist' }
    const unavailable = { code: 'workspace_unavailable', params: { reason: missing }, english: 'Nothing was sent…' }
    expect(renderText(t, unavailable)).toBe(
      '没有向模型发送任何内容：此对话的工作区无法打开（文件夹 /home/a/gone 不存在）。请重新选择其文件夹，或将此对话切换到临时工作区，然后重试。',
    )
    const exited = { code: 'mcp_exited_at_start', params: { exit: { code: 'mcp_exit_status', params: { status: '1' }, english: 'exit status 1' } }, english: 'exited during start-up (exit status 1)' }
    expect(renderText(t, exited)).toBe('启动过程中退出（退出码 1）')
    const summary = {
      code: 'pv_create',
      params: { path: 'notes.md', lines: { code: 'count_lines', params: { n: '3' }, english: '3 lines' }, size: { code: 'size_bytes', params: { n: '20' }, english: '20 bytes' } },
      english: 'Create notes.md (3 lines, 20 bytes)',
    }
    expect(renderText(t, summary)).toBe('创建 notes.md（3 行，20 字节）')
    const status = { code: 'llm_with_status', params: { what: { code: 'llm_bad_key', english: 'The provider rejected the API key' }, status: '401' }, english: '…' }
    expect(renderText(t, { code: 'llm_said', params: { what: status, said: 'Incorrect API key provided.' }, english: '…' })).toBe(
      '服务商拒绝了 API 密钥（HTTP 401）：Incorrect API key provided.',
    )
    // In English the same sentence reads as the backend wrote it.
    expect(renderText(tFor('en'), summary)).toBe('Create notes.md (3 lines, 20 bytes)')
  })

  it('falls back to the English: an uncoded sentence, a code the UI does not know, or none', () => {
    const t = tFor('zh')
    expect(renderText(t, { code: '', english: 'exec: "npx": not found' })).toBe('exec: "npx": not found')
    expect(renderText(t, { code: 'from_a_newer_backend', params: {}, english: 'Something new' })).toBe('Something new')
    expect(renderText(t, undefined, 'the stored English')).toBe('the stored English')
    expect(renderText(t, null)).toBe('')
  })

  it('an API error carries its coded sentence to the UI', () => {
    const raw = JSON.stringify({ code: 'path_outside', message: 'path "/etc" is absolute; …', text: { code: 'path_absolute', params: { path: '"/etc"', example: '"etc"' }, english: 'path "/etc" is absolute; …' } })
    const err = toApiError(raw)
    expect(err.text?.code).toBe('path_absolute')
    expect(errorSentence(tFor('zh'), err)).toBe('路径 "/etc" 是绝对路径；请使用相对于工作区根目录的路径（例如 "etc"）')
    expect(errorSentence(tFor('zh'), toApiError(JSON.stringify({ code: 'x', message: 'plain English' })))).toBe('plain English')
  })
})
