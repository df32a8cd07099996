// End-to-end: workspaces on the real app with the demo model's files script
// (list, write, edit, read — one approved card per turn). Scratch files are
// kept with the chat across a restart; an overlay leaves the real folder
// untouched until Apply; a hostile path is refused.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, newDataDir } from './harness.mjs'
import { EDITED, activeChatId, approveFileSteps, ask, card, lastAssistant, openFiles } from './files-script.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })

// The harness gives each data dir its own WebKit storage, so the files
// panel's remembered open/closed state does not depend on earlier runs —
// and survives a restart on the same dir.
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
const entry = (path) => `document.querySelector('[data-testid="file-entry"][data-path=${JSON.stringify(path)}]')`

test('scratch: the write card shows its diff before Run; notes.md is in the Files panel and survives a restart', async () => {
  const dataDir = newDataDir()
  let app = await launch(dataDir)
  await ask(app, 'work with files')
  await approveFileSteps(app, async (tool) => {
    if (tool !== 'write_file') return
    // The diff is on the card before anything runs.
    const diff = await app.waitFor(`${card('write_file', 'pending')}?.querySelector('[data-testid="call-diff"]')?.innerText`, 5000, 'diff on the write card')
    assert.match(diff, /\+# Notes from Airlock/)
    assert.equal(await app.eval(`${card('write_file')}.dataset.state`), 'pending')
    await app.eval(`${card('write_file')}.scrollIntoView({ block: 'center' })`)
    await sleep(1000)
    app.screenshot('workspace-diff-card')
  })

  await openFiles(app)
  await app.waitFor(`!!${entry('notes.md')}`, 5000, 'notes.md listed')
  assert.equal(await app.eval(`${entry('notes.md')}.dataset.changed`), '')
  assert.equal(await app.eval(`document.querySelector('[data-testid="workspace-kind"]').dataset.kind`), 'scratch')
  await app.click(`[data-testid="file-entry"][data-path="notes.md"]`)
  const shown = await app.waitFor(
    `(() => { const v = document.querySelector('[data-testid="file-viewer"]'); return v && v.innerText.includes(${JSON.stringify(EDITED)}) && v.innerText })()`,
    5000,
    'viewer shows the edited line',
  )
  assert.match(shown, /# Notes from Airlock/)
  await sleep(1000)
  app.screenshot('workspace-files-panel')
  await stop(app)

  // Same data dir: the scratch workspace was saved with the chat (and the panel remembers it was open).
  app = await launch(dataDir)
  await app.waitFor(`!!document.querySelector('[data-testid="files-panel"]')`, 5000, 'panel open again after restart')
  await app.waitFor(`!!${entry('notes.md')}`, 5000, 'notes.md still listed after restart')
  const chatId = await activeChatId(app)
  const file = await app.eval(`window.go.main.App.ReadWorkspaceFile(${JSON.stringify(chatId)}, 'notes.md')`)
  assert.ok(file.content.includes(EDITED), 'edited content persisted')
  await stop(app)
})

test('overlay: the real folder is untouched until Apply all writes the reviewed change', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-overlay-'))
  const existing = '# Existing\n\nThis file was here before the model.\n'
  writeFileSync(join(dir, 'existing.md'), existing)

  const app = await launch()
  await ask(app, 'hello')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' })()`, 20000, 'hello answered')
  const chatId = await activeChatId(app)

  // Through the panel's workspace settings: Overlay on the folder.
  await openFiles(app)
  await app.click('workspace-settings')
  await app.waitFor(`!!document.querySelector('[data-testid="workspace-dialog"]')`, 5000, 'workspace dialog')
  await app.click('[data-testid="workspace-kind-option"][value="overlay"]')
  await app.waitFor(`!!document.querySelector('[data-testid="workspace-dir"]')`, 3000, 'folder field')
  await app.type('workspace-dir', dir)
  await app.click('workspace-save')
  await app.waitFor(`!document.querySelector('[data-testid="workspace-dialog"]')`, 5000, 'dialog closed after Save')
  const chat = (await app.eval(`window.go.main.App.ListChats()`)).find((c) => c.id === chatId)
  assert.equal(chat.workspaceKind, 'overlay')
  assert.equal(chat.workspaceDir, dir)
  await app.waitFor(`!!${entry('existing.md')}`, 5000, 'the folder listed in the panel')
  assert.equal(await app.eval(`document.querySelector('[data-testid="workspace-kind"]').dataset.kind`), 'overlay')

  await ask(app, 'work with files', { newChat: false })
  await approveFileSteps(app)

  // Nothing reached the disk.
  assert.equal(existsSync(join(dir, 'notes.md')), false, 'notes.md must not be on disk before Apply')
  assert.equal(readFileSync(join(dir, 'existing.md'), 'utf8'), existing)

  // The tree marks it added; the Changes view shows the diff.
  await app.waitFor(`${entry('notes.md')}?.dataset.changed === 'added'`, 5000, 'notes.md marked added')
  await app.click('changes-tab')
  await app.waitFor(`!!document.querySelector('[data-testid="changes"] [data-testid="change"][data-path="notes.md"]')`, 5000, 'notes.md in Changes')
  const change = await app.eval(`(() => { const c = document.querySelector('[data-testid="change"][data-path="notes.md"]'); return { op: c.dataset.op, diff: c.querySelector('[data-testid="change-diff"]').innerText } })()`)
  assert.equal(change.op, 'added')
  assert.match(change.diff, /\+# Notes from Airlock/)
  assert.ok(change.diff.includes(`+${EDITED}`), 'the diff holds the edited line')
  assert.equal(await app.eval(`document.querySelectorAll('[data-testid="change"]').length`), 1)
  await sleep(1000)
  app.screenshot('workspace-changes')

  await app.click('apply-all')
  await app.waitFor(`!!document.querySelector('[data-testid="changes-empty"]')`, 5000, 'no changes left')
  assert.ok(existsSync(join(dir, 'notes.md')), 'notes.md written by Apply')
  const written = readFileSync(join(dir, 'notes.md'), 'utf8')
  assert.match(written, /^# Notes from Airlock/)
  assert.ok(written.includes(EDITED))
  assert.equal(readFileSync(join(dir, 'existing.md'), 'utf8'), existing)
  assert.deepEqual(await app.eval(`window.go.main.App.WorkspaceChanges(${JSON.stringify(chatId)})`), [])
  await stop(app)
})

test('a hostile path is refused: RunTool read_file ../../etc/passwd → path_outside (API and Tool lab)', async () => {
  const app = await launch()
  await ask(app, 'hello')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' })()`, 20000, 'hello answered')
  const chatId = await activeChatId(app)

  const r = await app.eval(`window.go.main.App.RunTool(${JSON.stringify(chatId)}, 'read_file', { path: '../../etc/passwd' })
    .then((out) => ({ ok: true, out }), (e) => ({ ok: false, raw: String(e && e.message !== undefined ? e.message : e) }))`)
  assert.equal(r.ok, false, `must be refused, got ${JSON.stringify(r)}`)
  const err = JSON.parse(r.raw)
  assert.equal(err.code, 'path_outside')
  assert.doesNotMatch(err.message, /root:/)

  // The same through Tool lab → Run a tool.
  await app.click('tool-lab-open')
  await app.click('lab-tab-run')
  await app.waitFor(`!!document.querySelector('[data-testid="lab-run-tool"]')`, 5000, 'run panel')
  assert.equal(await app.eval(`document.querySelector('[data-testid="lab-run-chat"]').value`), chatId)
  await app.eval(`(() => {
    const s = document.querySelector('[data-testid="lab-run-tool"]')
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(s, 'read_file')
    s.dispatchEvent(new Event('change', { bubbles: true }))
  })()`)
  await app.waitFor(`!!document.querySelector('[data-testid="lab-arg-path"]')`, 3000, 'path field')
  await app.type('lab-arg-path', '../../etc/passwd')
  await app.click('lab-run')
  const shown = await app.waitFor(`document.querySelector('[data-testid="lab-run-error"]')?.innerText`, 5000, 'error shown')
  assert.match(shown, /path_outside/)
  assert.equal(await app.eval(`!!document.querySelector('[data-testid="lab-output"]')`), false)
  await stop(app)
})
