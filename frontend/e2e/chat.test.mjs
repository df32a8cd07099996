// End-to-end: the real built app under Xvfb, the built-in demo model, driven
// like a user would through the DOM.
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

const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText, id: m.dataset.messageId } : null })()`

async function sendMessage(app, text) {
  await app.click('new-chat')
  await app.type('composer', text)
  await app.click('send')
  await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="user"]')].some(m => m.innerText.includes(${JSON.stringify(text)}))`, 5000, 'user message shown')
}

test('a message to the demo model streams and completes', async () => {
  const app = await launch()
  await sendMessage(app, 'Hello Airlock')
  // It is seen streaming first, then complete.
  await app.waitFor(`${lastAssistant}?.status === 'streaming'`, 5000, 'assistant streaming')
  const done = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && m })()`, 20000, 'assistant complete')
  assert.match(done.text, /demo/i)
  await app.waitFor(`!!document.querySelector('[data-testid="usage"]')`, 3000, 'token usage shown')
  const items = await app.eval(`document.querySelectorAll('[data-testid="chat-item"]').length`)
  assert.equal(items, 1)
  app.screenshot('chat-complete')
  await stop(app)
})

test('Stop mid-stream keeps the partial answer as interrupted', async () => {
  const app = await launch()
  await sendMessage(app, 'Write a long story, slowly')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'streaming' && m.text.length > 40 })()`, 10000, 'some text streamed')
  await app.click('stop')
  const m = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'interrupted' && m })()`, 5000, 'interrupted')
  assert.ok(m.text.length > 40, 'partial text kept')
  const stored = await app.eval(`window.go.main.App.GetMessage(${JSON.stringify(m.id)})`)
  assert.equal(stored.status, 'interrupted')
  assert.ok(stored.content.length > 20 && stored.content.length < 3000, `stored content ${stored.content.length} chars`)
  // Send is back.
  await app.waitFor(`!!document.querySelector('[data-testid="send"]')`, 3000, 'send button back')
  await stop(app)
})

test('killed mid-answer: after restart the partial answer is there, marked interrupted', async () => {
  const dataDir = newDataDir()
  let app = await launch({ dataDir })
  await sendMessage(app, 'Tell me a long story, slowly please')
  const seen = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'streaming' && m.text.length > 120 && m })()`, 15000, 'text streaming')
  await new Promise((r) => setTimeout(r, 600)) // let the periodic persist catch up
  const r = await stop(app, 'kill')
  assert.equal(r.signal, 'SIGKILL')

  app = await launch({ dataDir })
  await app.click('[data-testid="chat-item"]')
  const m = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'interrupted' && m })()`, 5000, 'interrupted after restart')
  assert.equal(m.id, seen.id)
  const stored = await app.eval(`window.go.main.App.GetMessage(${JSON.stringify(m.id)})`)
  assert.ok(stored.content.length >= 100, `kept ${stored.content.length} chars`)
  await app.waitFor(`!!document.querySelector('[data-testid="retry"]')`, 3000, 'retry offered')
  await stop(app)
})

test('HTTP 500 from the provider shows a clear error and keeps the user message', async () => {
  const app = await launch()
  await sendMessage(app, 'Simulate error 500')
  const m = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'error' && m })()`, 10000, 'error status')
  const err = await app.waitFor(`document.querySelector('[data-testid="message-error"]')?.innerText`, 3000, 'error panel')
  assert.match(err, /500/)
  const users = await app.eval(`[...document.querySelectorAll('[data-testid="message"][data-role="user"]')].map(m => m.innerText)`)
  assert.ok(users.some((t) => t.includes('Simulate error 500')))
  const chatId = await app.eval(`document.querySelector('[data-testid="chat-item"]').dataset.chatId`)
  const stored = await app.eval(`window.go.main.App.ListMessages(${JSON.stringify(chatId)})`)
  assert.equal(stored[0].role, 'user')
  assert.equal(stored[0].content, 'Simulate error 500')
  assert.equal(stored[1].status, 'error')
  assert.equal(stored[1].errorCode, 'server')
  app.screenshot('error-500')
  await stop(app)
})
