// End-to-end: native tool calls and Auto on the real app, against the demo
// model run as its own server (cmd/mockllm) behind a proxy that records
// every request the app sends, so the test reads what the model received.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startApp } from './harness.mjs'
import { startRecordingDemo } from './recorder.mjs'

const running = new Set()
let recorder, proxyURL, bodies

before(async () => {
  recorder = await startRecordingDemo('60ms')
  proxyURL = recorder.url
  bodies = recorder.bodies
})
after(async () => {
  for (const a of running) await a.kill()
  recorder?.close()
})

async function launch(env) {
  bodies.length = 0
  const app = await startApp({ env: { AIRLOCK_BASE_URL: proxyURL, ...env } })
  running.add(app)
  return app
}
async function stop(app) {
  running.delete(app)
  return app.close()
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const card = (tool, state) => `document.querySelector('[data-testid="tool-card"][data-tool="${tool}"]${state ? `[data-state="${state}"]` : ''}')`
const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText } : null })()`

async function ask(app, text) {
  await app.click('new-chat')
  await app.type('composer', text)
  await app.click('send')
}

test('native: the call forms while the model writes, waits on its card, runs, and the next request carries the tool message', async () => {
  const app = await launch({ AIRLOCK_MODEL: 'airlock-demo', AIRLOCK_TOOL_MODE: 'native' })
  await ask(app, 'please calculate 17*23')
  // Forming: the name first, then the arguments growing; nothing to decide on it.
  const forming = await app.waitFor(`(() => { const f = document.querySelector('[data-testid="forming-card"][data-tool="calculate"]'); return f && { text: f.innerText, buttons: f.querySelectorAll('button[data-testid="approve"]').length } })()`, 15000, 'a forming card')
  assert.equal(forming.buttons, 0, 'a forming card cannot be approved')
  await sleep(150)
  app.screenshot('native-forming')
  await app.waitFor(`!!${card('calculate', 'pending')}`, 15000, 'the pending card')
  assert.equal(await app.eval(`document.querySelectorAll('[data-testid="forming-card"]').length`), 0, 'forming cards make way for the real one')
  assert.match(await app.eval(`${card('calculate')}.querySelector('[data-testid="call-family"]')?.innerText ?? ''`), /native/i)
  assert.ok(bodies[0].tools?.some((t) => t.function?.name === 'calculate'), 'the tools went as the tools parameter')

  const chatId = await app.eval(`document.querySelector('[data-testid="chat-item"]').dataset.chatId`)
  const [call] = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)
  assert.equal(call.format, 'native')
  await app.eval(`${card('calculate')}.querySelector('[data-testid="approve"]').click()`)
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /391/.test(m.text) })()`, 20000, 'the answer using the result')
  const next = bodies[1].messages
  const asst = next.find((m) => m.role === 'assistant' && m.tool_calls?.length)
  const tool = next.find((m) => m.role === 'tool')
  assert.equal(asst.tool_calls[0].id, call.modelCallId)
  assert.equal(tool.tool_call_id, call.modelCallId)
  assert.equal(tool.content, '391')
  app.screenshot('native-done')
  await stop(app)
})

test('auto: a model that refuses tools falls back to text in the same answer, and Auto remembers it', async () => {
  const app = await launch({ AIRLOCK_MODEL: 'airlock-demo-text-only' })
  await ask(app, 'What time is it?')
  await app.waitFor(`!!${card('get_current_time', 'pending')}`, 20000, 'a card read from the text')
  assert.ok(bodies[0].tools?.length > 0, 'Auto asked natively first')
  assert.equal(bodies[1].tools, undefined, 'then with text calls')
  const msgs = await app.eval(`window.go.main.App.ListMessages(document.querySelector('[data-testid="chat-item"]').dataset.chatId)`)
  assert.equal(msgs.length, 2, 'one answer: the user message stands, no failed attempt left behind')
  const mode = await app.eval(`window.go.main.App.ModelMode(document.querySelector('[data-testid="chat-item"]').dataset.chatId, '', '')`)
  assert.equal(mode.learned, 'text')
  assert.match(mode.reason, /does not support tools/)
  await app.waitFor(`/Auto/.test(document.body.innerText)`, 5000, 'the user is told')
  app.screenshot('auto-learned-text')

  // The next chat asks with text calls straight away.
  const before = bodies.length
  await ask(app, 'calculate 2+3')
  await app.waitFor(`!!${card('calculate', 'pending')}`, 20000, 'a text card')
  assert.equal(bodies.length, before + 1)
  assert.equal(bodies[before].tools, undefined)
  await stop(app)
})
