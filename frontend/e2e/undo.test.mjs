// End-to-end: nothing lost before review, and Undo, on the real app with the
// demo model's files script (list, write, edit, read — one approved card per
// turn). An overlay's pending changes survive kill -9 and still apply (and
// the Apply can be undone from the History); in a folder workspace a write is
// undone from its card — refused first, plainly, while a later edit still
// stands on the file.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, newDataDir } from './harness.mjs'
import { EDITED, activeChatId, approveFileSteps, ask, card, lastAssistant, openFiles } from './files-script.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })

async function launch(dataDir = newDataDir()) {
  const app = await startApp({ dataDir })
  running.add(app)
  return app
}
async function stop(app) {
  running.delete(app)
  return app.close()
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** A new chat ('hello' answered) working in dir, chosen through the panel's workspace settings. */
async function chatOn(app, kind, dir) {
  await ask(app, 'hello')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' })()`, 20000, 'hello answered')
  const chatId = await activeChatId(app)
  await openFiles(app)
  await app.click('workspace-settings')
  await app.waitFor(`!!document.querySelector('[data-testid="workspace-dialog"]')`, 5000, 'workspace dialog')
  await app.click(`[data-testid="workspace-kind-option"][value="${kind}"]`)
  await app.waitFor(`!!document.querySelector('[data-testid="workspace-dir"]')`, 3000, 'folder field')
  await app.type('workspace-dir', dir)
  await app.click('workspace-save')
  await app.waitFor(`!document.querySelector('[data-testid="workspace-dialog"]')`, 5000, 'dialog closed after Save')
  const chat = (await app.eval(`window.go.main.App.ListChats()`)).find((c) => c.id === chatId)
  assert.equal(chat.workspaceKind, kind)
  assert.equal(chat.workspaceDir, dir)
  return chatId
}

test('overlay: the model’s pending changes survive kill -9, still apply after the relaunch, and the Apply is undone from the History', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-overlay-kill-'))
  const existing = '# Existing\n\nThis file was here before the model.\n'
  writeFileSync(join(dir, 'existing.md'), existing)
  const dataDir = newDataDir()

  let app = await launch(dataDir)
  const chatId = await chatOn(app, 'overlay', dir)
  await ask(app, 'work with files', { newChat: false })
  await approveFileSteps(app)
  assert.equal(existsSync(join(dir, 'notes.md')), false, 'nothing on disk before Apply')
  const pending = await app.eval(`window.go.main.App.WorkspaceChanges(${JSON.stringify(chatId)})`)
  assert.deepEqual(pending.map((c) => [c.path, c.op]), [['notes.md', 'added']])

  // kill -9: no shutdown hook runs.
  running.delete(app)
  const exit = await app.kill()
  assert.equal(exit.signal, 'SIGKILL')
  assert.equal(existsSync(join(dir, 'notes.md')), false, 'still nothing on disk')

  app = await launch(dataDir)
  assert.equal(await activeChatId(app), chatId)
  await openFiles(app)
  await app.click('changes-tab')
  await app.waitFor(`!!document.querySelector('[data-testid="change"][data-path="notes.md"]')`, 10000, 'notes.md still waiting in Changes after kill -9')
  const diff = await app.eval(`document.querySelector('[data-testid="change"][data-path="notes.md"] [data-testid="change-diff"]').innerText`)
  assert.match(diff, /\+# Notes from Airlock/)
  assert.ok(diff.includes(`+${EDITED}`), 'the edit made before the kill is there too')
  await sleep(800)
  app.screenshot('undo-overlay-after-kill')

  await app.click('apply-all')
  await app.waitFor(`!!document.querySelector('[data-testid="changes-empty"]')`, 5000, 'no changes left')
  const written = readFileSync(join(dir, 'notes.md'), 'utf8')
  assert.match(written, /^# Notes from Airlock/)
  assert.ok(written.includes(EDITED))
  assert.equal(readFileSync(join(dir, 'existing.md'), 'utf8'), existing)

  // The Apply kept a checkpoint: the History undoes it.
  const applied = `document.querySelector('[data-testid="checkpoint"][data-tool="apply"]')`
  await app.waitFor(`${applied}?.dataset.state === 'undoable'`, 5000, 'the Apply in the History')
  assert.match(await app.eval(`${applied}.innerText`), /notes\.md/)
  await sleep(500)
  app.screenshot('undo-history-apply')
  await app.eval(`${applied}.querySelector('[data-testid="checkpoint-undo"]').click()`)
  await app.waitFor(`${applied}?.dataset.state === 'undone'`, 5000, 'the Apply undone')
  assert.equal(existsSync(join(dir, 'notes.md')), false, 'the undo removed what the Apply wrote')
  assert.equal(readFileSync(join(dir, 'existing.md'), 'utf8'), existing)
  // The change is back in the overlay, waiting for review again (issue 30, item 2).
  await app.click('changes-tab')
  await app.waitFor(`[...document.querySelectorAll('[data-testid="change"]')].some((c) => c.innerText.includes('notes.md'))`, 5000, 'notes.md among the Changes again')
  await sleep(400)
  app.screenshot('undo-apply-back-in-changes')
  await stop(app)
})

test('folder: a write is undone from its card — refused while a later edit stands, then after undoing the edit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-folder-undo-'))
  const original = '# My notes\n\nWritten by hand; the model will overwrite me.\n'
  writeFileSync(join(dir, 'notes.md'), original)

  const app = await launch()
  const chatId = await chatOn(app, 'folder', dir)
  await ask(app, 'work with files', { newChat: false })
  await approveFileSteps(app)
  const edited = readFileSync(join(dir, 'notes.md'), 'utf8')
  assert.ok(edited.includes(EDITED), 'the folder was written directly')

  // Each changing card has its checkpoint; the read-only ones have none.
  const undoOf = (tool) => `${card(tool, 'done')}?.querySelector('[data-testid="undo"]')`
  await app.waitFor(`!!${undoOf('write_file')} && !!${undoOf('edit_file')}`, 10000, 'Undo on the write and edit cards')
  assert.equal(await app.eval(`!!${card('read_file', 'done')}.querySelector('[data-testid="card-undo"]')`), false)
  assert.equal(await app.eval(`!!${card('list_directory', 'done')}.querySelector('[data-testid="card-undo"]')`), false)
  const list = await app.eval(`window.go.main.App.ListCheckpoints(${JSON.stringify(chatId)})`)
  assert.deepEqual(list.checkpoints.map((c) => c.tool), ['edit_file', 'write_file'])

  // The edit came after the write: undoing the write now would lose it.
  await app.eval(`${undoOf('write_file')}.click()`)
  const conflict = await app.waitFor(`${card('write_file')}.querySelector('[data-testid="undo-conflict"]')?.innerText`, 5000, 'the conflict on the card')
  assert.match(conflict, /notes\.md/)
  assert.match(conflict, /changed since/)
  assert.equal(readFileSync(join(dir, 'notes.md'), 'utf8'), edited, 'a refused undo changes nothing')
  await app.eval(`${card('write_file')}.scrollIntoView({ block: 'center' })`)
  await sleep(800)
  app.screenshot('undo-card-conflict')

  // Undo the edit, then the write: the hand-written file is back.
  await app.eval(`${undoOf('edit_file')}.click()`)
  await app.waitFor(`!!${card('edit_file')}.querySelector('[data-testid="undo-done"]')`, 5000, 'edit undone')
  assert.ok(!readFileSync(join(dir, 'notes.md'), 'utf8').includes(EDITED))
  await app.eval(`${undoOf('write_file')}.click()`)
  await app.waitFor(`!!${card('write_file')}.querySelector('[data-testid="undo-done"]')`, 5000, 'write undone')
  assert.equal(readFileSync(join(dir, 'notes.md'), 'utf8'), original)
  assert.equal(await app.eval(`!!${card('write_file')}.querySelector('[data-testid="undo-conflict"]')`), false, 'the old refusal is gone')
  await sleep(800)
  app.screenshot('undo-card-done')

  // The folder's History tab says the same.
  await app.click('history-tab')
  await app.waitFor(`document.querySelectorAll('[data-testid="checkpoint"][data-state="undone"]').length === 2`, 5000, 'both undone in the History')
  await stop(app)
})
