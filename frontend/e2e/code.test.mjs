// End-to-end: running code on the real app. The demo model's "run a script"
// proposes run_python: the card shows the script (numbered, highlighted),
// the engine, its bounds and read-write; Run executes it in the sandbox on
// the chat's workspace; the card shows the output, the return value and the
// file it wrote, which is in the Files panel. "Run read-only" cannot write.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { startApp } from './harness.mjs'
import { activeChatId, ask, card, openFiles } from './files-script.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const entry = (path) => `document.querySelector('[data-testid="file-entry"][data-path=${JSON.stringify(path)}]')`
const inCard = (tool, testid) => `${card(tool)}?.querySelector('[data-testid="${testid}"]')`

async function launch() {
  const app = await startApp()
  running.add(app)
  // The first Python run compiles python.wasm (seconds on a busy machine):
  // give the call room; the code's own wall-time bound starts after that.
  await app.eval(`(async () => { const s = await window.go.main.App.GetSettings(); await window.go.main.App.SaveSettings({ ...s, toolTimeoutSeconds: 300 }) })()`)
  return app
}

test('run a script: the code card, Run, its output and the file it wrote in Files', async () => {
  const app = await launch()
  await ask(app, 'run a script')
  await app.waitFor(`!!${card('run_python', 'pending')}`, 15000, 'pending run_python card')
  const listing = await app.waitFor(`${inCard('run_python', 'code-listing')}?.innerText`, 5000, 'the code on the card')
  assert.match(listing, /open\("squares\.txt", "w"\)/)
  assert.match(await app.eval(`${inCard('run_python', 'code-engine')}.innerText`), /CPython 3\.12/)
  assert.match(await app.eval(`${inCard('run_python', 'code-access')}.innerText`), /Read-write/)
  assert.match(await app.eval(`${inCard('run_python', 'code-bounds')}.innerText`), /10\.0 s/)
  await app.waitFor(`${inCard('run_python', 'code-listing')}?.dataset.highlighted === 'true'`, 10000, 'highlighted code')
  await app.eval(`${card('run_python')}.scrollIntoView({ block: 'center' })`)
  await sleep(800)
  app.screenshot('code-card-pending')

  await app.eval(`${inCard('run_python', 'approve')}.click()`)
  await app.waitFor(`!!${card('run_python', 'done')}`, 300000, 'the run finished')
  const report = await app.waitFor(`(() => { const r = ${inCard('run_python', 'code-report')}; return r && r.innerText })()`, 5000, 'the report')
  assert.match(await app.eval(`${inCard('run_python', 'code-stdout')}.innerText`), /wrote squares\.txt: 10 numbers/)
  assert.match(await app.eval(`${inCard('run_python', 'code-value')}.innerText`), /385/)
  assert.equal(await app.eval(`${inCard('run_python', 'code-file')}.dataset.path`), 'squares.txt')
  assert.equal(await app.eval(`${inCard('run_python', 'code-file')}.dataset.change`), 'created')
  assert.match(report, /Ran .* · engine ready in/)
  // The demo answers after the result: once it has, the report stays where it is scrolled.
  await app.waitFor(`(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m && m.dataset.status === 'complete' && /385/.test(m.innerText) })()`, 20000, 'the answer after the run')
  await sleep(500)
  await app.eval(`${inCard('run_python', 'code-report')}.scrollIntoView({ block: 'start' })`)
  await sleep(800)
  app.screenshot('code-card-done')

  // The file is in the chat's workspace, shown in Files.
  await openFiles(app)
  await app.waitFor(`!!${entry('squares.txt')}`, 5000, 'squares.txt listed in Files')
  const chatId = await activeChatId(app)
  const file = await app.eval(`window.go.main.App.ReadWorkspaceFile(${JSON.stringify(chatId)}, 'squares.txt')`)
  assert.equal(file.content, '1\n4\n9\n16\n25\n36\n49\n64\n81\n100\n')
  await sleep(500)
  app.screenshot('code-files')

  // The stored call keeps the report (the card after a reload shows the same).
  const calls = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)
  const run = calls.find((c) => c.name === 'run_python')
  assert.equal(run.structured.value, '385')
  assert.equal(run.structured.files[0].path, 'squares.txt')
  running.delete(app)
  await app.close()
})

test('Settings → Tools → Running code: the bounds are saved and the next card shows them', async () => {
  const app = await launch()
  await app.click('settings-open')
  await app.click('settings-tab-tools')
  await app.waitFor(`!!document.querySelector('[data-testid="code-timeout"]')`, 5000, 'the code bounds')
  assert.equal(await app.eval(`document.querySelector('[data-testid="code-timeout"]').value`), '10')
  await app.type('code-timeout', '5')
  await app.click('code-limits-save')
  await app.waitFor(`!!document.querySelector('[data-testid="code-limits-status"]')`, 5000, 'saved')
  const saved = await app.eval(`window.go.main.App.GetCodeLimits()`)
  assert.equal(saved.timeoutSeconds, 5)
  await sleep(500)
  app.screenshot('code-settings')
  await app.eval(`document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
  await ask(app, 'run a javascript')
  await app.waitFor(`${inCard('run_javascript', 'code-bounds')}?.innerText.includes('5.0 s')`, 15000, 'the card shows the new bound')
  running.delete(app)
  await app.close()
})

test('run a javascript read-only: the run cannot write, the card says so', async () => {
  const app = await launch()
  await ask(app, 'run a javascript')
  await app.waitFor(`!!${card('run_javascript', 'pending')}`, 15000, 'pending run_javascript card')
  assert.match(await app.eval(`${inCard('run_javascript', 'code-engine')}.innerText`), /QuickJS/)
  await app.eval(`${inCard('run_javascript', 'run-read-only')}.click()`)
  await app.waitFor(`!!${card('run_javascript', 'error')}`, 60000, 'the read-only run failed to write')
  const chatId = await activeChatId(app)
  const calls = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)
  const run = calls.find((c) => c.name === 'run_javascript')
  assert.equal(run.structured.readOnly, true)
  assert.ok(run.structured.readOnlyRefused >= 1)
  assert.match(await app.eval(`${inCard('run_javascript', 'code-access')}.innerText`), /Read-only/)
  const read = await app.eval(`window.go.main.App.ReadWorkspaceFile(${JSON.stringify(chatId)}, 'squares.txt').then(() => 'there', (e) => 'missing')`)
  assert.equal(read, 'missing', 'nothing was written')
  await app.eval(`${card('run_javascript')}.scrollIntoView({ block: 'center' })`)
  await sleep(800)
  app.screenshot('code-card-read-only')
  running.delete(app)
  await app.close()
})
