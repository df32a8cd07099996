// End-to-end: a real third-party MCP server from npm
// (@modelcontextprotocol/server-everything), started over stdio from
// AIRLOCK_MCP_CONFIG, behind the same cards as the built-in tools.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startApp, newDataDir } from './harness.mjs'

const SERVER = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url))
const ECHO = 'mcp__everything__echo'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })

async function launch(extra = {}) {
  const dataDir = newDataDir()
  const config = join(dataDir, 'mcp.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [SERVER, 'stdio'] }, ...extra } }))
  const app = await startApp({ dataDir, env: { AIRLOCK_MCP_CONFIG: config } })
  running.add(app)
  await app.waitFor(`window.go.main.App.ListMCPServers().then(l => l.servers[0]?.state === 'ready' && l.servers[0])`, 30000, 'server ready')
  return app
}
async function stop(app, how = 'close') {
  running.delete(app)
  return how === 'kill' ? app.kill() : app.close()
}

// serverPids lists the MCP server processes the app started.
function serverPids(app) {
  try {
    return execFileSync('pgrep', ['-P', String(app.proc.pid), '-f', 'server-everything'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number)
  } catch {
    return [] // pgrep exits 1 when nothing matches
  }
}
const alive = (pid) => { try { process.kill(pid, 0); return true } catch { return false } }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function until(check, timeout, what) {
  const deadline = Date.now() + timeout
  while (Date.now() < deadline) {
    if (check()) return
    await sleep(100)
  }
  assert.fail(`timed out waiting for ${what}`)
}

const card = (state) => `[...document.querySelectorAll('[data-testid="tool-card"][data-tool="${ECHO}"]${state ? `[data-state="${state}"]` : ''}')].pop()`
const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText } : null })()`
const chatId = (app) => app.eval(`document.querySelector('[data-testid="chat-item"]').dataset.chatId`)

async function ask(app, text, { newChat = true } = {}) {
  if (newChat) await app.click('new-chat')
  await app.type('composer', text)
  await app.click('send')
}
async function clickIn(app, cardExpr, testid) {
  await app.waitFor(`!!${cardExpr}?.querySelector('[data-testid="${testid}"]')`, 5000, `${testid} button on the card`)
  await app.eval(`${cardExpr}.querySelector('[data-testid="${testid}"]').click()`)
}

test('MCP: the echo call waits on a card with its arguments; Run sends the server\'s answer to the model', async () => {
  const app = await launch()
  const tools = await app.eval(`window.go.main.App.Tools()`)
  const echo = tools.find((t) => t.name === ECHO)
  assert.equal(echo?.kind, 'mcp')
  assert.equal(echo?.server, 'everything')

  await ask(app, 'mcp echo Grüße from the e2e test')
  await app.waitFor(`!!${card('pending')}`, 20000, 'pending MCP card')
  await sleep(500)
  assert.equal(await app.eval(`${card()}.dataset.state`), 'pending', 'nothing runs without a decision')
  const text = await app.eval(`${card()}.innerText`)
  assert.match(text, /Grüße from the e2e test/, 'the card shows the arguments')
  assert.match(await app.eval(`${card()}.querySelector('[data-testid="mcp-note"]')?.innerText ?? ''`), /everything/, 'the card says the server acts outside Airlock')
  app.screenshot('mcp-card-pending')

  await clickIn(app, card(), 'approve')
  await app.waitFor(`!!${card('done')}`, 20000, 'card done')
  const final = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /returned/.test(m.text) && m })()`, 20000, 'final answer')
  assert.match(final.text, /Echo: Grüße from the e2e test/, 'the server\'s answer reached the model')
  const id = await chatId(app)
  const msgs = await app.eval(`window.go.main.App.ListMessages(${JSON.stringify(id)})`)
  assert.match(msgs[2].content, /Echo: Grüße from the e2e test/, 'the results message the model read')
  app.screenshot('mcp-card-done')
  await stop(app)
})

test('MCP: Deny tells the model and the server is never called', async () => {
  const app = await launch()
  await ask(app, 'mcp echo do not send this')
  await app.waitFor(`!!${card('pending')}`, 20000, 'pending MCP card')
  await clickIn(app, card(), 'deny')
  await sleep(200)
  await app.eval(`(() => { const b = ${card()}.querySelector('[data-testid="confirm-deny"]'); if (b) b.click() })()`)
  await app.waitFor(`!!${card('denied')}`, 5000, 'card denied')
  const final = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /denied/i.test(m.text) && m })()`, 20000, 'acknowledgement')
  assert.doesNotMatch(final.text, /Echo: do not send this/)
  const [call] = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(await chatId(app))})`)
  assert.equal(call.resultStatus, 'denied')
  assert.equal(call.startedAt ?? 0, 0, 'the call never started')
  await stop(app)
})

test('MCP: Always allow runs the next echo without a click', async () => {
  const app = await launch()
  await ask(app, 'mcp echo one')
  await app.waitFor(`!!${card('pending')}`, 20000, 'pending MCP card')
  const id = await chatId(app)
  const [first] = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(id)})`)
  await app.eval(`window.go.main.App.AlwaysAllowCall(${JSON.stringify(first.id)}, false)`)
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /Echo: one/.test(m.text) })()`, 20000, 'first loop done')
  await ask(app, 'mcp echo two', { newChat: false })
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /Echo: two/.test(m.text) })()`, 20000, 'second call ran by itself')
  const calls = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(id)})`)
  assert.equal(calls.length, 2)
  assert.match(calls[1].decidedBy, /^rule:\d+$/)
  assert.equal(calls[1].state, 'done')
  await stop(app)
})

test('MCP: a server killed mid-call gives a clear error, then comes back on the next call; none outlives Airlock', async () => {
  const app = await launch()
  const [pid] = serverPids(app)
  assert.ok(pid, 'the server runs as a child of Airlock')
  await ask(app, 'mcp echo first')
  await app.waitFor(`!!${card('pending')}`, 20000, 'pending MCP card')
  await clickIn(app, card(), 'approve')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /Echo: first/.test(m.text) })()`, 20000, 'first echo')
  const id = await chatId(app)
  // A long call, run by hand (the Tool lab's path: the engine's, with its timeout and Stop).
  const run = app.eval(`window.go.main.App.RunTool(${JSON.stringify(id)}, 'mcp__everything__trigger-long-running-operation', { duration: 20, steps: 5 })
    .then(() => 'finished', (e) => 'error: ' + (e?.message ?? e))`)
  await sleep(1500)
  process.kill(pid, 'SIGKILL')
  const outcome = await run
  console.log('# the card error when the server was killed mid-call:', outcome)
  assert.match(outcome, /^error: .*everything/, `a clear error naming the server: ${outcome}`)
  assert.doesNotMatch(outcome, /^error: .*(EOF|broken pipe)$/i, 'more than a transport error')

  // The next call starts the server again.
  await ask(app, 'mcp echo back again', { newChat: false })
  await app.waitFor(`!!${card('pending')}`, 20000, 'pending MCP card')
  await clickIn(app, card(), 'approve')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /Echo: back again/.test(m.text) })()`, 30000, 'the server came back')
  const [again] = serverPids(app)
  assert.ok(again && again !== pid, 'a new server process')

  // No child outlives Airlock, even killed with SIGKILL.
  await stop(app, 'kill')
  await until(() => !alive(again), 5000, 'the server to exit with Airlock')
})

test('MCP: Settings → Tools shows each server\'s status; a command that does not exist says so', async () => {
  const app = await launch({ missing: { command: '/nonexistent/mcp-server', env: { API_TOKEN: 'tok-e2e-secret' } } })
  await app.waitFor(`window.go.main.App.ListMCPServers().then(l => l.servers.find(s => s.name === 'missing')?.state === 'failed')`, 20000, 'missing fails')
  await app.click('settings-open')
  await app.click('settings-tab-tools')
  const row = (name) => `document.querySelector('[data-testid="mcp-server"][data-name="${name}"]')`
  await app.waitFor(`${row('everything')}?.dataset.state === 'ready' && ${row('missing')}?.dataset.state === 'failed'`, 10000, 'both rows')
  assert.match(await app.eval(`${row('everything')}.innerText`), /\d+ tools/)
  assert.match(await app.eval(`${row('missing')}.innerText`), /nonexistent\/mcp-server/)
  assert.doesNotMatch(await app.eval(`document.body.innerText`), /tok-e2e-secret/, 'no secret on screen')
  await app.eval(`${row('missing')}.querySelector('[data-testid="mcp-stderr-toggle"]')?.click()`)
  await sleep(400)
  app.screenshot('mcp-settings-servers')
  await stop(app)
})
