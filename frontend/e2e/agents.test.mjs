// End-to-end: per-chat models and agents on the real app, against the demo
// model run as its own server (cmd/mockllm) behind a proxy that records
// every request, so the test reads which model and system prompt each chat
// sent, and which tools it offered.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { newDataDir, startApp } from './harness.mjs'
import { startRecordingDemo } from './recorder.mjs'

let recorder, proxyURL, bodies, app
const dataDir = newDataDir()
const launch = () => startApp({ dataDir, env: { AIRLOCK_BASE_URL: proxyURL, AIRLOCK_MODEL: 'airlock-demo' } })
async function shot(name) {
  await app.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`)
  await sleep(600)
  app.screenshot(name)
}

before(async () => {
  recorder = await startRecordingDemo('20ms')
  proxyURL = recorder.url
  bodies = recorder.bodies
})
after(async () => {
  await app?.kill()
  recorder?.close()
})

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const system = (b) => b.messages.find((m) => m.role === 'system')?.content ?? ''
const lastDone = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return !!m && m.dataset.status !== 'streaming' })()`

async function pickModel(model) {
  await app.click('model-chip')
  await app.click(`[data-testid="model-option"][data-provider="env"][data-model="${model}"]`)
  await app.waitFor(`document.querySelector('[data-testid="model-chip"]').dataset.model === ${JSON.stringify(model)}`, 5000, `the chip naming ${model}`)
}
async function pickAgent(id) {
  await app.click('agent-chip')
  await app.click(`[data-testid="agent-option"][data-agent="${id}"]`)
  await app.waitFor(`document.querySelector('[data-testid="agent-chip"]').dataset.agent === ${JSON.stringify(id)}`, 5000, `the agent chip naming ${id}`)
}
async function send(text) {
  await app.type('composer', text)
  await app.click('send')
  await app.waitFor(lastDone, 20000, 'the answer')
}

test('two chats on two models of one server, each with its own agent; a read-only agent offers no write tool; tools turned off are not offered', async () => {
  app = await launch()
  const alpha = await app.eval(`window.go.main.App.SaveAgent({ name: 'Alpha', systemPrompt: 'You are agent Alpha.', toolMode: 'auto', paradigm: 'json', tools: { default: true, toggles: {}, readOnly: false }, maxTurns: 25, toolTimeoutSeconds: 30, workspaceKind: 'scratch' })`)
  const beta = await app.eval(`window.go.main.App.SaveAgent({ name: 'Beta', systemPrompt: 'You are agent Beta.', toolMode: 'text', paradigm: 'json', tools: { default: true, toggles: {}, readOnly: false }, maxTurns: 25, toolTimeoutSeconds: 30, workspaceKind: 'scratch' })`)
  // (The agent menu reads the agents each time it opens.)

  // The picker lists the server's models (the demo's other two among them), grouped by provider.
  await app.click('new-chat')
  await app.click('model-chip')
  const listed = await app.waitFor(
    `(() => { const o = [...document.querySelectorAll('[data-testid="model-option"][data-provider="env"]')].map((b) => b.dataset.model); return o.length >= 3 && o })()`,
    10000,
    'the server’s models',
  )
  assert.ok(listed.includes('airlock-demo-text-only') && listed.includes('airlock-demo-ignores-tools'), `listed: ${listed}`)
  await app.type('model-search', 'ignores')
  await app.waitFor(
    `(() => { const o = [...document.querySelectorAll('[data-testid="model-option"]')]; return o.length >= 1 && o.length < ${listed.length} && o.every((b) => b.dataset.model.includes('ignores')) })()`,
    5000,
    'the search narrowing the list',
  )
  await shot('agents-picker-search')
  await app.eval(`document.querySelector('[data-testid="model-chip"]').click()`)

  // Chat one: Alpha on airlock-demo-text-only.
  await pickAgent(alpha.id)
  await pickModel('airlock-demo-text-only')
  let from = bodies.length
  await send('hello from chat one')
  const one = bodies.slice(from)
  assert.ok(one.length >= 1 && one.every((b) => b.model === 'airlock-demo-text-only'), `chat one asked ${one.map((b) => b.model)}`)
  assert.ok(one.every((b) => system(b).startsWith('You are agent Alpha.')), `chat one's system prompt: ${system(one[0]).slice(0, 80)}`)
  const chatOne = await app.eval(`document.querySelector('[data-testid="chat-item"]').dataset.chatId`)

  // Chat two: Beta on airlock-demo; chat one keeps its model.
  await app.click('new-chat')
  await pickAgent(beta.id)
  await pickModel('airlock-demo')
  from = bodies.length
  await send('hello from chat two')
  const two = bodies.slice(from)
  assert.ok(two.length === 1 && two[0].model === 'airlock-demo', `chat two asked ${two.map((b) => b.model)}`)
  assert.ok(system(two[0]).startsWith('You are agent Beta.') && !system(two[0]).includes('Alpha'), `chat two's system prompt: ${system(two[0]).slice(0, 80)}`)
  const chats = await app.eval(`window.go.main.App.ListChats()`)
  const c1 = chats.find((c) => c.id === chatOne)
  assert.equal(c1.model, 'airlock-demo-text-only', 'switching chat two left chat one alone')
  assert.equal(c1.agentId, alpha.id)

  // Each answer names the model that wrote it.
  const msgs = await app.eval(`window.go.main.App.ListMessages(${JSON.stringify(chatOne)})`)
  assert.equal(msgs.find((m) => m.role === 'assistant').model, 'airlock-demo-text-only')

  // Back in chat one, another turn still goes to its own model and prompt.
  await app.click(`[data-testid="chat-item"][data-chat-id="${chatOne}"]`)
  await app.waitFor(`document.querySelector('[data-testid="model-chip"]').dataset.model === 'airlock-demo-text-only'`, 5000, 'chat one’s chip')
  from = bodies.length
  await send('and again')
  assert.ok(bodies.slice(from).every((b) => b.model === 'airlock-demo-text-only' && system(b).startsWith('You are agent Alpha.')))

  // The read-only reviewer offers no tool that writes.
  const writers = (await app.eval(`window.go.main.App.Tools()`)).filter((t) => t.changes).map((t) => t.name)
  assert.ok(writers.length > 0)
  await app.click('new-chat')
  await pickAgent('reviewer')
  await pickModel('airlock-demo')
  from = bodies.length
  await send('hello reviewer')
  const offered = (bodies[from].tools ?? []).map((t) => t.function.name)
  assert.ok(offered.includes('read_file'), `the reviewer offers ${offered}`)
  for (const w of writers) assert.ok(!offered.includes(w), `the read-only reviewer offered ${w}`)

  // Tools turned off one by one in the chat's checklist are not offered.
  await app.click('chat-options')
  await app.click('chat-tools-open')
  await app.waitFor(`!!document.querySelector('[data-testid="tool-toggle"][data-tool="read_file"]')`, 5000, 'the checklist')
  const blocked = await app.eval(`[...document.querySelectorAll('[data-testid="tool-toggle"]')].filter((c) => c.disabled).map((c) => c.dataset.tool)`)
  for (const w of writers) assert.ok(blocked.includes(w), `${w} can be turned on in a read-only agent's chat`)
  assert.match(await app.eval(`document.querySelector('[data-testid="rule-vs-toggle"]').innerText`), /rule/i)
  await app.click('[data-testid="tool-toggle"][data-tool="read_file"]')
  await app.waitFor(`!document.querySelector('[data-testid="tool-toggle"][data-tool="read_file"]').checked`, 5000, 'read_file off')
  await shot('agents-tools-checklist')
  await app.eval(`document.querySelector('[data-testid="chat-tools"] [data-testid="dialog-close"], [data-testid="chat-tools"] .dialog__close')?.click()`)
  await app.eval(`document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
  from = bodies.length
  await send('read the notes please')
  const after = (bodies[from].tools ?? []).map((t) => t.function.name)
  assert.ok(!after.includes('read_file') && after.includes('list_files') !== undefined, `after turning read_file off: ${after}`)
  // The reviewer's approval default runs its reads without asking, and says so.
  const chatId = await app.eval(`document.querySelector('[data-testid="chat-item"]').dataset.chatId`)
  const calls = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)
  for (const c of calls.filter((c) => c.state === 'done')) assert.equal(c.decidedBy, 'agent:reviewer', `${c.name} was decided by ${c.decidedBy}`)
})

test('screenshots: the picker and the checklist, English and Chinese, light and dark', async () => {
  for (const [language, theme] of [['en', 'light'], ['en', 'dark'], ['zh', 'light'], ['zh', 'dark']]) {
    const st = await app.eval(`window.go.main.App.GetSettings()`)
    await app.eval(`window.go.main.App.SaveSettings(${JSON.stringify({ ...st, language, theme })})`)
    await app.close()
    app = await launch()
    await app.click('[data-testid="chat-item"]')
    await app.click('model-chip')
    await app.waitFor(`document.querySelectorAll('[data-testid="model-option"]').length >= 3`, 10000, 'the picker')
    await shot(`agents-picker-${language}-${theme}`)
    await app.eval(`document.querySelector('[data-testid="model-chip"]').click()`)
    await app.click('chat-options')
    await app.waitFor(`!!document.querySelector('[data-testid="chat-mode-source"]')`, 5000, 'where the tool mode comes from')
    await shot(`agents-chatoptions-${language}-${theme}`)
    await app.click('chat-tools-open')
    await app.waitFor(`!!document.querySelector('[data-testid="tool-toggle"]')`, 5000, 'the checklist')
    await shot(`agents-tools-${language}-${theme}`)
    await app.eval(`document.querySelector('[data-testid="chat-tools"] .dialog__header .icon-btn').click()`)
    await app.click('settings-open')
    await app.click('settings-tab-agents')
    await app.waitFor(`document.querySelectorAll('[data-testid="agent-card"]').length >= 5`, 5000, 'the agents')
    await shot(`agents-settings-${language}-${theme}`)
    await app.click('[data-testid="agent-card"][data-agent="reviewer"] [data-testid="agent-edit"]')
    await app.waitFor(`!!document.querySelector('[data-testid="agent-form"] [data-testid="tool-toggle"]')`, 5000, 'the agent form')
    await shot(`agents-form-${language}-${theme}`)
    // The reviewer's approval default: reads run without asking.
    assert.equal(await app.eval(`document.querySelector('[data-testid="agent-approval-reads"]').checked`), true)
    await app.eval(`document.querySelector('[data-testid="agent-approval"]').scrollIntoView({ block: 'center' })`)
    await shot(`agents-approval-${language}-${theme}`)
  }
})
