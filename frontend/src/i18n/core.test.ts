import { describe, expect, it, vi } from 'vitest'
import { createI18n } from './core'

const en = {
  greet: 'Hello, {{name}}!',
  twice: '{{a}} and {{a}}, not {{b}}',
  files_one: '{{count}} file',
  files_other: '{{count}} files',
  deep: { er: { key: 'found' } },
  obj: { x: 'y' },
}
const zh = { greet: '你好，{{name}}！', files_one: '{{count}} 个文件（one）', files_other: '{{count}} 个文件' }

function setup() {
  const i = createI18n('en')
  i.addResourceBundle('en', en)
  i.addResourceBundle('zh', zh)
  return i
}

describe('i18n core', () => {
  it('interpolates every {{name}}, leaves unknown ones, does not escape', () => {
    const i = setup()
    expect(i.t('greet', { name: '<b>&' })).toBe('Hello, <b>&!')
    expect(i.t('twice', { a: 1 })).toBe('1 and 1, not {{b}}')
    expect(i.t('twice', { a: 'x', b: undefined })).toBe('x and x, not ')
    expect(i.t('greet', { name: '{{name}}' })).toBe('Hello, {{name}}!') // a value is not scanned again
  })

  it('picks _one/_other by count with the language plural rules', () => {
    const i = setup()
    expect(i.t('files', { count: 1 })).toBe('1 file')
    expect(i.t('files', { count: 0 })).toBe('0 files')
    expect(i.t('files', { count: 2 })).toBe('2 files')
    const zt = i.getFixedT('zh')
    expect(zt('files', { count: 1 })).toBe('1 个文件') // Chinese has only "other"
    expect(zt('files', { count: 5 })).toBe('5 个文件')
  })

  it('walks nested keys; a missing key or a non-string comes back as the key', () => {
    const i = setup()
    expect(i.t('deep.er.key')).toBe('found')
    expect(i.t('deep.er.nope')).toBe('deep.er.nope')
    expect(i.t('greet.too.far')).toBe('greet.too.far')
    expect(i.t('obj')).toBe('obj')
    expect(i.t('files')).toBe('files') // plural forms need a count
  })

  it('uses defaultValue (interpolated) only when the key is missing', () => {
    const i = setup()
    expect(i.t('lab.skipped.weird', { defaultValue: 'weird' })).toBe('weird')
    expect(i.t('nope', { defaultValue: 'hi {{who}}', who: 'you' })).toBe('hi you')
    expect(i.t('deep.er.key', { defaultValue: 'x' })).toBe('found')
  })

  it('switching language notifies subscribers and gives a new t', async () => {
    const i = setup()
    const seen = vi.fn()
    const off = i.subscribe(seen)
    const before = i.getFixedT(i.language)
    const v = i.version()
    expect(i.getFixedT('en')).toBe(before) // stable between changes
    const t = await i.changeLanguage('zh')
    expect(i.language).toBe('zh')
    expect(seen).toHaveBeenCalledTimes(1)
    expect(i.version()).toBe(v + 1)
    expect(i.getFixedT('zh')).toBe(t)
    expect(t('greet', { name: '世界' })).toBe('你好，世界！')
    expect(i.t('greet', { name: '世界' })).toBe('你好，世界！')
    await i.changeLanguage('zh') // already shown: nothing to tell
    expect(seen).toHaveBeenCalledTimes(1)
    off()
    await i.changeLanguage('en')
    expect(seen).toHaveBeenCalledTimes(1)
  })

  it('adding a bundle notifies, and the strings show at once', () => {
    const i = createI18n('en')
    const seen = vi.fn()
    i.subscribe(seen)
    const t = i.getFixedT('en')
    expect(i.hasResourceBundle('en')).toBe(false)
    expect(t('greet', { name: 'A' })).toBe('greet')
    i.addResourceBundle('en', en)
    expect(seen).toHaveBeenCalledTimes(1)
    expect(i.hasResourceBundle('en')).toBe(true)
    expect(i.getResourceBundle('en')).toBe(en)
    expect(i.getFixedT('en')).not.toBe(t) // memoized components see the new strings
    expect(i.getFixedT('en')('greet', { name: 'A' })).toBe('Hello, A!')
  })

  it('a t from getFixedT keeps its language whatever is shown', async () => {
    const i = setup()
    const zt = i.getFixedT('zh')
    await i.changeLanguage('en')
    expect(zt('greet', { name: 'x' })).toBe('你好，x！')
    expect(i.t('greet', { name: 'x' })).toBe('Hello, x!')
  })
})
