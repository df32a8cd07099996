// End-to-end: the approval loop on the real app with the demo model's tool
// scripts. Nothing runs until a card is approved; results flow back; the
// model answers; decisions survive a restart.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { startApp, newDataDir } from './harness.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })
async function launch(opts) {
  const app = await startApp(opts)
  running.add(app)
  return app
}
async function stop(app, how = 'close') {
  running.delete(app)
  return how === 'kill' ? app.kill() : app.close()
}

const card = (tool, state) => `document.querySelector('[data-testid="tool-card"][data-tool="${tool}"]${state ? `[data-state="${state}"]` : ''}')`
const cards = (tool) => `[...document.querySelectorAll('[data-testid="tool-card"][data-tool="${tool}"]')].map(c => c.dataset.state)`
const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText } : null })()`

async function ask(app, text, { newChat = true } = {}) {
  if (newChat) await app.click('new-chat')
  await app.type('composer', text)
  await app.click('send')
}

async function clickIn(app, cardExpr, testid) {
  await app.waitFor(`!!${cardExpr}?.querySelector('[data-testid="${testid}"]')`, 5000, `${testid} button on the card`)
  await app.eval(`${cardExpr}.querySelector('[data-testid="${testid}"]').click()`)
}

test('a tool call waits on a card; Run sends the result back and the model answers', async () => {
  const app = await launch()
  await ask(app, 'What time is it?')
  await app.waitFor(`!!${card('get_current_time', 'pending')}`, 15000, 'pending card')
  // Nothing ran: the card is still pending a moment later and no results message exists.
  await new Promise((r) => setTimeout(r, 500))
  assert.equal(await app.eval(`${card('get_current_time')}.dataset.state`), 'pending')
  const chatId = await app.eval(`document.querySelector('[data-testid="chat-item"]').dataset.chatId`)
  assert.equal((await app.eval(`window.go.main.App.ListMessages(${JSON.stringify(chatId)})`)).length, 2)
  app.screenshot('tool-card-pending')

  await clickIn(app, card('get_current_time'), 'approve')
  await app.waitFor(`!!${card('get_current_time', 'done')}`, 10000, 'card done')
  const final = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /returned/.test(m.text) && m })()`, 20000, 'final answer')
  assert.match(final.text, /get_current_time/)
  const msgs = await app.eval(`window.go.main.App.ListMessages(${JSON.stringify(chatId)})`)
  assert.deepEqual(msgs.map((m) => `${m.role}:${m.kind}`), ['user:text', 'assistant:text', 'user:tool_results', 'assistant:text'])
  const calls = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)
  assert.equal(calls[0].decidedBy, 'user')
  assert.equal(calls[0].resultStatus, 'success')
  app.screenshot('tool-card-done')
  await stop(app)
})

test('Deny: the model is told and acknowledges', async () => {
  const app = await launch()
  await ask(app, 'please calculate 6*7')
  await app.waitFor(`!!${card('calculate', 'pending')}`, 15000, 'pending card')
  await clickIn(app, card('calculate'), 'deny')
  // Some UIs ask for an optional reason first: confirm if asked.
  await new Promise((r) => setTimeout(r, 200))
  await app.eval(`(() => { const b = ${card('calculate')}.querySelector('[data-testid="confirm-deny"]'); if (b) b.click() })()`)
  await app.waitFor(`!!${card('calculate', 'denied')}`, 5000, 'card denied')
  const final = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /denied/i.test(m.text) && m })()`, 20000, 'acknowledgement')
  assert.match(final.text, /did not run/)
  await stop(app)
})

test('Always allow: the next call of that tool runs without a click', async () => {
  const app = await launch()
  await ask(app, 'What time is it?')
  await app.waitFor(`!!${card('get_current_time', 'pending')}`, 15000, 'pending card')
  const chatId = await app.eval(`document.querySelector('[data-testid="chat-item"]').dataset.chatId`)
  const [first] = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)
  // Through the bound method the card's "Always allow → in this chat" calls.
  await app.eval(`window.go.main.App.AlwaysAllowCall(${JSON.stringify(first.id)}, false)`)
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /returned/.test(m.text) })()`, 20000, 'first loop done')
  await ask(app, 'And what time is it now?', { newChat: false })
  await app.waitFor(`${cards('get_current_time')}.length === 2 && ${cards('get_current_time')}[1] === 'done'`, 20000, 'second call ran by itself')
  const calls = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)
  assert.match(calls[1].decidedBy, /^rule:\d+$/)
  await stop(app)
})

test('killed while a card is pending: after restart it is still pending, and Run completes the loop', async () => {
  const dataDir = newDataDir()
  let app = await launch({ dataDir })
  await ask(app, 'calculate 12*12')
  await app.waitFor(`!!${card('calculate', 'pending')}`, 15000, 'pending card')
  await stop(app, 'kill')

  app = await launch({ dataDir })
  await app.click('[data-testid="chat-item"]')
  await app.waitFor(`!!${card('calculate', 'pending')}`, 5000, 'still pending after restart')
  await clickIn(app, card('calculate'), 'approve')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /144/.test(m.text) })()`, 20000, 'loop completed after restart')
  await stop(app)
})

test('Tool lab playground: real outputs of several families, each card names its family; reasoning finds none', async () => {
  const app = await launch()
  await app.click('tool-lab-open')
  await app.click('lab-tab-playground')
  await app.eval(`(() => {
    const sel = document.querySelector('[data-testid="lab-paradigm"]')
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(sel, 'auto')
    sel.dispatchEvent(new Event('change', { bubbles: true }))
  })()`)
  const text = [
    '<think>Maybe <tool_call>{"name":"calculate","arguments":{"expression":"9*9"}}</tool_call>?</think>',
    'Let me do both.',
    '<tool_call>\n<function=calculate>\n<parameter=expression>\n17*23\n</parameter>\n</function>\n</tool_call>',
    '<<<[TOOL_REQUEST]>>>\ntool_name:「始」get_current_time「末」,\ntimezone:「始ESCAPE」Europe/Paris 「末」「末ESCAPE」\n<<<[END_TOOL_REQUEST]>>>',
    '[TOOL_CALLS]calculate[ARGS]{"expression": "2+2"}',
  ].join('\n')
  await app.type('lab-input', text)
  const lab = `document.querySelector('[data-testid="lab-calls"]')`
  await app.waitFor(`${lab}?.querySelectorAll('[data-testid="tool-card"]').length === 3`, 10000, 'three cards')
  const families = await app.eval(`[...${lab}.querySelectorAll('[data-testid="tool-card"]')].map(c => c.dataset.tool + ':' + c.querySelector('[data-testid="call-family"]')?.textContent)`)
  assert.deepEqual(families, ['calculate:Qwen3-Coder XML', 'get_current_time:VCP', 'calculate:Mistral'])
  assert.match(await app.eval(`document.querySelector('[data-testid="lab-ignored"]').innerText`), /reasoning/)
  await app.eval(`${lab}.scrollIntoView({ block: 'end' })`)
  await new Promise((r) => setTimeout(r, 300))
  app.screenshot('lab-playground-families')
  await app.click('lab-tab-formats')
  const rows = await app.eval(`document.querySelectorAll('[data-testid="lab-formats"] tbody tr').length`)
  assert.ok(rows >= 30, `${rows} formats listed`)
  app.screenshot('lab-formats')
  await stop(app)
})
