// End-to-end, issue 30 (fit and finish): screenshots at 1280×800 in English
// and Chinese, light and dark, of what changed, with what each must show.
// SHOT_PREFIX names the files (e.g. "before-" for a run of the old binary).
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, newDataDir, look } from './harness.mjs'
import { ask, card, chooseFolder, openFiles } from './files-script.mjs'

const PREFIX = process.env.SHOT_PREFIX ?? ''
const running = new Set()
after(async () => { for (const a of running) await a.kill() })
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function launch() {
  const app = await startApp({ dataDir: newDataDir() })
  running.add(app)
  return app
}
async function stop(app) {
  running.delete(app)
  await app.close()
}

const shot = (app, name) => app.screenshot(`${PREFIX}${name}`)

test('item 5: with Files open and a call waiting, the title stays readable and the model label stays', async () => {
  const app = await launch()
  await ask(app, 'work with files')
  await app.waitFor(`!!${card('list_directory', 'pending')}`, 20000, 'a waiting card')
  await openFiles(app)
  const widths = {}
  for (const [language, theme] of [['en', 'light'], ['zh', 'dark'], ['en', 'dark'], ['zh', 'light']]) {
    await look(app, language, theme)
    await openFiles(app)
    await app.waitFor(`!!${card('list_directory', 'pending')}`, 10000, 'the card again')
    await sleep(400)
    shot(app, `header-files-waiting-${language}-${theme}`)
    widths[`${language}-${theme}`] = await app.eval(`(() => {
      const r = (s) => { const e = document.querySelector(s); return e ? Math.round(e.getBoundingClientRect().width) : 0 }
      const t = document.querySelector('.chat__title')
      return { title: r('.chat__title'), titleWhole: !!t && t.scrollWidth <= t.clientWidth, model: r('.chat__model'), header: r('.chat__header') }
    })()`)
  }
  console.log('# header widths', JSON.stringify(widths))
  for (const [k, w] of Object.entries(widths)) {
    // Readable: shown whole, or at least 110 px of a longer title.
    assert.ok(w.titleWhole || w.title >= 110, `${k}: the title is ${w.title}px wide and cut`)
    assert.ok(w.model >= 60, `${k}: the model label is ${w.model}px wide`)
  }
  await stop(app)
})

test('item 1: a folder that does not exist is refused at Save; a folder gone since stops the turn and says so', async () => {
  const app = await launch()
  for (const language of ['en', 'zh']) {
    await look(app, language, 'light')
    await app.click('new-chat')
    await openFiles(app)
    await app.click('workspace-settings')
    await app.waitFor(`!!document.querySelector('[data-testid="workspace-dialog"]')`, 5000, 'workspace dialog')
    await app.eval(`document.querySelectorAll('[data-testid="workspace-kind-option"]')[1].click()`)
    await app.waitFor(`!!document.querySelector('[data-testid="workspace-dir"]')`, 5000, 'folder field')
    await app.type('workspace-dir', '/home/nobody/no-such-project')
    await app.click('workspace-save')
    await sleep(800)
    shot(app, `ws-missing-at-save-${language}`)
    const refused = await app.eval(`(() => ({
      open: !!document.querySelector('[data-testid="workspace-dialog"]'),
      error: document.querySelector('[data-testid="workspace-error"]')?.innerText ?? '',
      focus: document.activeElement?.dataset?.testid ?? '',
    }))()`)
    assert.ok(refused.open, 'the dialog stays open')
    assert.match(refused.error, language === 'zh' ? /不存在/ : /does not exist/)
    assert.equal(refused.focus, 'workspace-dir')
    await app.eval(`document.querySelector('[data-testid="workspace-dialog"] .btn--ghost').click()`)
    await sleep(300)
  }

  // A real folder, chosen, then removed: the next turn stops with the reason, kept on the chat.
  const dir = mkdtempSync(join(tmpdir(), 'airlock-vanish-'))
  await app.click('new-chat')
  await chooseFolder(app, dir)
  await app.type('composer', 'hello')
  await app.click('send')
  await app.waitFor(`(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m && m.dataset.status === 'complete' })()`, 20000, 'first answer')
  rmSync(dir, { recursive: true, force: true })
  await app.type('composer', 'work with files')
  await app.click('send')
  await sleep(1500)
  for (const [language, theme] of [['zh', 'light'], ['en', 'dark']]) {
    await look(app, language, theme)
    await sleep(500)
    shot(app, `ws-vanished-${language}-${theme}`)
  }
  const last = await app.eval(`(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return { status: m?.dataset.status, text: m?.innerText ?? '', choose: !!m?.querySelector('[data-testid="workspace-choose-again"]') } })()`)
  assert.equal(last.status, 'error')
  assert.match(last.text, /workspace_unavailable/)
  assert.ok(last.choose, 'offers to choose the folder again')
  assert.equal(await app.eval(`document.querySelectorAll('[data-testid="tool-card"]').length`), 0, 'no card: nothing ran anywhere else')
  await stop(app)
})

test('item 6: Escape in Settings over unsaved provider edits asks first', async () => {
  const app = await launch()
  for (const [language, theme] of [['en', 'light'], ['zh', 'dark']]) {
    await look(app, language, theme)
    await app.click('settings-open')
    await app.click('settings-tab-providers')
    await app.click('provider-add')
    await app.type('provider-name', 'My server')
    await app.eval(`document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
    await sleep(500)
    shot(app, `settings-unsaved-escape-${language}-${theme}`)
    assert.ok(await app.eval(`!!document.querySelector('[data-testid="settings-dialog"]')`), 'Settings stays open')
    assert.ok(await app.eval(`!!document.querySelector('[data-testid="confirm-discard-edits"]')`), 'asks first')
    await app.click('confirm-discard-edits')
    await sleep(300)
  }
  await stop(app)
})

test('item 10: "Jump to latest" is never on top of an edit form', async () => {
  const app = await launch()
  await app.click('new-chat')
  for (let i = 0; i < 2; i++) {
    await app.type('composer', 'show me markdown')
    await app.click('send')
    await app.waitFor(`(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m && m.dataset.status !== 'streaming' && document.querySelectorAll('[data-testid="message"][data-role="assistant"]').length >= ${i + 1} })()`, 30000, `answer ${i + 1}`)
  }
  const users = `[...document.querySelectorAll('[data-testid="message"][data-role="user"]')]`
  await app.eval(`(async () => { const sc = document.querySelector('.messages'); sc.scrollTop = sc.scrollHeight; await new Promise((r) => setTimeout(r, 300)); for (let i = 0; i < 40 && ${users}.length === 0; i++) { sc.scrollTop -= 250; await new Promise((r) => setTimeout(r, 120)) } const m = ${users}.at(-1); m.scrollIntoView({ block: 'center' }); m.querySelector('[data-testid="edit-message"]').click(); return true })()`)
  await app.waitFor(`!!document.querySelector('[data-testid="message-editor"]')`, 5000, 'the editor')
  await app.eval(`(async () => { await new Promise((r) => setTimeout(r, 300)); const sc = document.querySelector('.messages'); const e = document.querySelector('[data-testid="message-editor"]'); sc.scrollTop += e.getBoundingClientRect().bottom - sc.getBoundingClientRect().bottom + 8; return true })()`)
  await sleep(600)
  for (const [language, theme] of [['en', 'light'], ['zh', 'dark']]) {
    if (language !== 'en') {
      await look(app, language, theme)
      await app.eval(`(async () => { const sc = document.querySelector('.messages'); sc.scrollTop = sc.scrollHeight; await new Promise((r) => setTimeout(r, 300)); for (let i = 0; i < 40 && ${users}.length === 0; i++) { sc.scrollTop -= 250; await new Promise((r) => setTimeout(r, 120)) } const m = ${users}.at(-1); m.scrollIntoView({ block: 'center' }); m.querySelector('[data-testid="edit-message"]').click(); return true })()`)
      await app.waitFor(`!!document.querySelector('[data-testid="message-editor"]')`, 5000, 'the editor')
      await app.eval(`(async () => { await new Promise((r) => setTimeout(r, 300)); const sc = document.querySelector('.messages'); const e = document.querySelector('[data-testid="message-editor"]'); sc.scrollTop += e.getBoundingClientRect().bottom - sc.getBoundingClientRect().bottom + 8; return true })()`)
      await sleep(600)
    }
    shot(app, `jump-over-edit-${language}-${theme}`)
    const overlap = await app.eval(`(() => {
      const j = document.querySelector('.jump-btn'); const e = document.querySelector('[data-testid="message-editor"]')
      if (!j || !e || getComputedStyle(j).display === 'none') return false
      const a = j.getBoundingClientRect(), b = e.getBoundingClientRect()
      return a.width > 0 && !(a.right < b.left || a.left > b.right || a.bottom < b.top || a.top > b.bottom)
    })()`)
    assert.equal(overlap, false, 'the jump button covers the edit form')
  }
  await stop(app)
})

test('item 13: after Load models, the list is whole inside the dialog', async () => {
  const app = await launch()
  const demoUrl = await app.eval(`(async () => (await window.go.main.App.ListProviders()).find((p) => p.demo)?.baseUrl)()`)
  for (const [language, theme] of [['en', 'dark'], ['zh', 'light']]) {
    await look(app, language, theme)
    await app.click('settings-open')
    await app.click('settings-tab-providers')
    await app.click('provider-add')
    await app.type('provider-name', 'Local')
    await app.type('provider-base-url', demoUrl)
    await app.click('load-models')
    await app.waitFor(`!!document.querySelector('[role="listbox"]')`, 10000, 'the model list')
    await sleep(500)
    shot(app, `models-list-${language}-${theme}`)
    const fits = await app.eval(`(() => {
      const l = document.querySelector('[role="listbox"]').getBoundingClientRect()
      const d = document.querySelector('[data-testid="settings-dialog"]').getBoundingClientRect()
      return { list: [Math.round(l.top), Math.round(l.bottom)], dialog: [Math.round(d.top), Math.round(d.bottom)] }
    })()`)
    console.log('# model list', JSON.stringify(fits))
    assert.ok(fits.list[0] >= fits.dialog[0] && fits.list[1] <= fits.dialog[1], `the list ${fits.list} leaves the dialog ${fits.dialog}`)
    await app.eval(`document.querySelector('[role="listbox"] [role="option"]').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))`)
    await app.eval(`document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
    await sleep(300)
    if (await app.eval(`!!document.querySelector('[data-testid="confirm-discard-edits"]')`)) await app.click('confirm-discard-edits')
    await sleep(300)
  }
  await stop(app)
})

test('item 14: a path leaving the workspace is said on the card before Run', async () => {
  const app = await launch()
  await ask(app, 'work with files')
  await app.waitFor(`!!${card('list_directory', 'pending')}`, 20000, 'a waiting card')
  await app.eval(`${card('list_directory', 'pending')}.querySelector('[data-testid="edit"]').click()`)
  await app.waitFor(`!!document.querySelector('[data-testid="edit-args"]')`, 5000, 'the edit form')
  await app.type('edit-args', '{"path": "../../etc"}')
  const said = await app.waitFor(`document.querySelector('[data-testid="call-refusal"]')?.innerText`, 8000, 'the refusal on the card')
  assert.match(said, /refused/)
  await sleep(300)
  shot(app, 'card-refused-before-run-en-light')
  await look(app, 'zh', 'dark')
  await app.waitFor(`!!${card('list_directory', 'pending')}`, 10000, 'the card again')
  await app.eval(`${card('list_directory', 'pending')}.querySelector('[data-testid="edit"]').click()`)
  await app.waitFor(`!!document.querySelector('[data-testid="edit-args"]')`, 5000, 'the edit form')
  await app.type('edit-args', '{"path": "../../etc"}')
  await app.waitFor(`!!document.querySelector('[data-testid="call-refusal"]')`, 8000, 'the refusal on the card')
  await sleep(300)
  shot(app, 'card-refused-before-run-zh-dark')
  await stop(app)
})
