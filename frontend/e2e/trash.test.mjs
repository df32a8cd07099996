// End-to-end, issue 30 (expected, not found): the Trash for deleted chats,
// and Files ▸ Save as… / Open in editor, on the real built app with the demo
// model; screenshots in English and Chinese, light and dark.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fillSaveDialog, hasXdotool, look, newDataDir, startApp } from './harness.mjs'
import { activeChatId, openFiles } from './files-script.mjs'

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
const LOOKS = [['en', 'light'], ['en', 'dark'], ['zh', 'light'], ['zh', 'dark']]

const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? m.dataset.status : null })()`
async function newChatWith(app, text) {
  await app.click('new-chat')
  await app.type('composer', text)
  await app.click('send')
  await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="user"]')].some(m => m.innerText.includes(${JSON.stringify(text)}))`, 5000, 'user message shown')
  await app.waitFor(`${lastAssistant} === 'complete'`, 60000, 'answer complete')
  return activeChatId(app)
}
const deleteFromSidebar = (app, id) =>
  app.eval(`document.querySelector('[data-testid="chat-item"][data-chat-id="${id}"]').closest('li').querySelector('[data-testid="chat-delete"]').click()`)
const messagesOf = (app, id) => app.eval(`window.go.main.App.ListMessages(${JSON.stringify(id)}).then(ms => ms.map(m => [m.id, m.role, m.content, m.status]))`)

test('Trash: Delete moves a chat there; the view lists it; Restore brings it back exactly; Empty Trash asks first', async () => {
  const app = await launch()
  const a = await newChatWith(app, 'hello')
  const b = await newChatWith(app, 'Tell me about the zebra protocol')
  await newChatWith(app, 'hello again')
  const before = await messagesOf(app, a)
  assert.ok(before.length >= 2, 'chat a has its messages')

  for (const id of [a, b]) {
    await deleteFromSidebar(app, id)
    await app.waitFor(`!document.querySelector('[data-testid="chat-item"][data-chat-id="${id}"]')`, 5000, 'gone from the list')
  }
  const trash = await app.eval(`window.go.main.App.ListTrash()`)
  assert.deepEqual(trash.map((t) => t.id).sort(), [a, b].sort())
  // Not found by search any more.
  const hits = await app.eval(`window.go.main.App.Search('zebra')`)
  assert.equal(hits.filter((h) => h.chatId === b).length, 0, 'search leaves the Trash out')

  for (const [language, theme] of LOOKS) {
    await look(app, language, theme)
    await app.click('trash-open')
    await app.waitFor(`document.querySelectorAll('[data-testid="trash-item"]').length === 2`, 5000, 'two chats in the Trash')
    const left = await app.eval(`[...document.querySelectorAll('[data-testid="trash-days-left"]')].map(e => e.textContent)`)
    assert.equal(left.length, 2)
    for (const l of left) assert.match(l, language === 'en' ? /^30 days left$/ : /^还剩 30 天$/)
    await sleep(400)
    app.screenshot(`trash-${language}-${theme}`)
    if (theme === 'dark') {
      await app.click('trash-empty')
      await app.waitFor(`!!document.querySelector('[data-testid="confirm-empty-trash"]')`, 3000, 'Empty Trash asks first')
      await sleep(300)
      app.screenshot(`trash-empty-confirm-${language}-${theme}`)
      await app.eval(`document.querySelector('[data-testid="confirm-dialog"] [data-cancel]').click()`)
      await sleep(300)
    }
  }
  assert.equal((await app.eval(`window.go.main.App.ListTrash()`)).length, 2, 'Cancel kept the Trash')

  await look(app, 'en', 'light')
  await app.click('trash-open')
  await app.waitFor(`!!document.querySelector('[data-testid="trash-item"][data-chat-id="${a}"]')`, 5000, 'a listed')
  await app.eval(`document.querySelector('[data-testid="trash-item"][data-chat-id="${a}"] [data-testid="trash-restore"]').click()`)
  await app.waitFor(`!document.querySelector('[data-testid="trash-item"][data-chat-id="${a}"]')`, 5000, 'a left the Trash')
  await app.waitFor(`!!document.querySelector('[data-testid="chat-item"][data-chat-id="${a}"]')`, 5000, 'a back in the list')
  assert.deepEqual(await messagesOf(app, a), before, 'restored exactly')

  await app.click('trash-empty')
  await app.click('confirm-empty-trash')
  await app.waitFor(`!!document.querySelector('[data-testid="trash-none"]')`, 5000, 'the Trash is empty')
  assert.equal((await app.eval(`window.go.main.App.ListTrash()`)).length, 0)
  const gone = await app.eval(`window.go.main.App.RestoreChat(${JSON.stringify(b)}).then(() => 'restored', e => String(e))`)
  assert.match(gone, /not_found/, 'emptied for good')
  await stop(app)
})

test('Files: Save as… writes a Scratch file where the dialog says; a folder file offers Open in editor, and a link out is refused', async () => {
  const app = await launch()
  const id = await newChatWith(app, 'hello')
  const body = '# Plan\n\n1. write it down\n'
  await app.eval(`window.go.main.App.RunTool(${JSON.stringify(id)}, 'write_file', { path: 'plan.md', content: ${JSON.stringify(body)} })`)
  await openFiles(app)
  await app.click('files-refresh')
  await app.waitFor(`!!document.querySelector('[data-testid="file-entry"][data-path="plan.md"]')`, 5000, 'plan.md listed')

  for (const [language, theme] of LOOKS) {
    await look(app, language, theme)
    await openFiles(app)
    await app.waitFor(`!!document.querySelector('[data-testid="file-entry"][data-path="plan.md"]')`, 5000, 'plan.md listed')
    await app.click('[data-testid="file-entry"][data-path="plan.md"]')
    await app.click('file-menu')
    await app.waitFor(`!!document.querySelector('[data-testid="file-save-as"]')`, 3000, 'Save as… offered')
    assert.equal(await app.eval(`!!document.querySelector('[data-testid="file-open-editor"]')`), false, 'no Open in editor for Scratch')
    await sleep(400)
    app.screenshot(`files-menu-scratch-${language}-${theme}`)
  }

  if (hasXdotool) {
    await look(app, 'en', 'light')
    await openFiles(app)
    await app.waitFor(`!!document.querySelector('[data-testid="file-entry"][data-path="plan.md"]')`, 5000, 'plan.md listed')
    await app.click('[data-testid="file-entry"][data-path="plan.md"]')
    await app.click('file-menu')
    await app.waitFor(`!!document.querySelector('[data-testid="file-save-as"]')`, 3000, 'Save as… offered')
    const file = join(mkdtempSync(join(tmpdir(), 'airlock-saveas-')), 'plan copy.md')
    await app.eval(`(setTimeout(() => document.querySelector('[data-testid="file-save-as"]').click(), 0), true)`)
    await fillSaveDialog('Save a copy', file)
    await app.waitFor(`[...document.querySelectorAll('[data-testid="toast"]')].some(t => t.innerText.includes(${JSON.stringify(file)}))`, 10000, 'saved toast')
    assert.ok(existsSync(file), 'the copy was written')
    assert.equal(readFileSync(file, 'utf8'), body)
  }

  // A folder workspace: Open in editor is offered; a link leading out is refused by the real binary.
  const dir = mkdtempSync(join(tmpdir(), 'airlock-open-'))
  const outside = mkdtempSync(join(tmpdir(), 'airlock-outside-'))
  writeFileSync(join(dir, 'notes.md'), 'notes\n')
  writeFileSync(join(outside, 'secret.txt'), 'no\n')
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'))
  await app.eval(`window.go.main.App.SetWorkspace(${JSON.stringify(id)}, 'folder', ${JSON.stringify(dir)})`)
  const refused = await app.eval(`window.go.main.App.OpenWorkspaceFile(${JSON.stringify(id)}, 'link.txt').then(() => 'opened', e => String(e))`)
  assert.match(refused, /path_outside/)
  for (const [language, theme] of [['en', 'dark'], ['zh', 'light']]) {
    await look(app, language, theme)
    await openFiles(app)
    await app.waitFor(`!!document.querySelector('[data-testid="file-entry"][data-path="notes.md"]')`, 5000, 'notes.md listed')
    await app.click('[data-testid="file-entry"][data-path="notes.md"]')
    await app.click('file-menu')
    await app.waitFor(`!!document.querySelector('[data-testid="file-open-editor"]')`, 3000, 'Open in editor offered')
    await sleep(400)
    app.screenshot(`files-menu-folder-${language}-${theme}`)
  }

  // The folder vanishes: the Files panel offers the chat's way out, and Switch to Scratch works.
  rmSync(dir, { recursive: true, force: true })
  for (const [language, theme] of [['zh', 'dark'], ['en', 'light']]) {
    await look(app, language, theme)
    await openFiles(app)
    await app.waitFor(`!!document.querySelector('[data-testid="files-panel"] [data-testid="files-error"]') && !!document.querySelector('[data-testid="files-panel"] [data-testid="workspace-choose-again"]')`, 5000, 'Files offers to choose the folder again')
    await sleep(400)
    app.screenshot(`files-folder-vanished-${language}-${theme}`)
  }
  await app.click('[data-testid="files-panel"] [data-testid="workspace-use-scratch"]')
  await app.waitFor(`!!document.querySelector('[data-testid="file-entry"][data-path="plan.md"]')`, 5000, 'back on the Scratch files')
  assert.equal((await app.eval(`window.go.main.App.ListChats()`)).find((c) => c.id === id).workspaceKind, 'scratch')
  await stop(app)
})
