// End-to-end: history features (search, edit & versions, export through the
// native dialog) on the real built app with the demo model.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fillSaveDialog, hasXdotool, startApp } from './harness.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })

async function launch(opts) {
  const app = await startApp(opts)
  running.add(app)
  return app
}
async function stop(app) {
  running.delete(app)
  return app.close()
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText, id: m.dataset.messageId } : null })()`
const activeChatId = `document.querySelector('[data-testid="chat-item"][data-active="true"]')?.dataset.chatId`

async function newChatWith(app, text) {
  await app.click('new-chat')
  await app.type('composer', text)
  await app.click('send')
  await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="user"]')].some(m => m.innerText.includes(${JSON.stringify(text)}))`, 5000, 'user message shown')
  await app.waitFor(`${lastAssistant}?.status === 'complete'`, 20000, 'answer complete')
  return app.waitFor(activeChatId, 5000, 'chat active')
}

test('search finds a message in another chat and opens it there', async () => {
  const app = await launch()
  const first = await newChatWith(app, 'Tell me about the zebra protocol')
  const second = await newChatWith(app, 'hello')
  assert.notEqual(first, second)
  assert.equal(await app.eval(activeChatId), second)

  await app.type('search', 'zebra')
  await app.waitFor(`!!document.querySelector('[data-testid="search-result"][data-chat-id="${first}"]')`, 5000, 'a result for the first chat')
  const hit = await app.eval(`(() => { const r = document.querySelector('[data-testid="search-result"][data-chat-id="${first}"]'); return { text: r.innerText, marks: [...r.querySelectorAll('mark')].map(m => m.textContent) } })()`)
  assert.ok(hit.marks.some((m) => /zebra/i.test(m)), `highlighted: ${JSON.stringify(hit)}`)
  await sleep(1000)
  app.screenshot('history-search')

  await app.click(`[data-testid="search-result"][data-chat-id="${first}"]`)
  await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="user"]')].some(m => m.innerText.includes('zebra protocol'))`, 5000, 'first chat messages on screen')
  await app.waitFor(`!!document.querySelector('[data-testid="message"][data-highlight="true"]')`, 3000, 'message flashed')
  const inView = await app.eval(`(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="user"]')].find(m => m.innerText.includes('zebra protocol')); const r = m.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight })()`)
  assert.ok(inView, 'the message is on screen')
  await sleep(300)
  app.screenshot('history-search-opened')

  // Esc clears the search: the chat list is back, with the first chat active.
  await app.eval(`document.querySelector('[data-testid="search"]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
  await app.waitFor(`${activeChatId} === ${JSON.stringify(first)}`, 3000, 'first chat active in the list')

  // Find in chat (Ctrl+F): "1 of n".
  await app.eval(`window.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', code: 'KeyF', ctrlKey: true, bubbles: true }))`)
  await app.waitFor(`!!document.querySelector('[data-testid="find-in-chat"]')`, 3000, 'find bar')
  await app.type('find-in-chat', 'zebra')
  const count = await app.waitFor(`(() => { const t = document.querySelector('[data-testid="find-count"]')?.textContent; return /^1 of \\d+$/.test(t ?? '') && t })()`, 5000, 'find count')
  assert.match(count, /^1 of [1-9]/)
  await sleep(1000)
  app.screenshot('history-find')

  // Delete moves to the Trash: gone from the list at once, back with Undo.
  await app.click(`[data-testid="chat-item"][data-chat-id="${second}"]`)
  await app.eval(`document.querySelector('[data-testid="chat-item"][data-chat-id="${second}"]').closest('li').querySelector('[data-testid="chat-delete"]').click()`)
  await app.waitFor(`!document.querySelector('[data-testid="chat-item"][data-chat-id="${second}"]')`, 3000, 'chat hidden')
  await app.waitFor(`!!document.querySelector('[data-testid="undo-delete"]')`, 3000, 'undo offered')
  assert.ok((await app.eval(`window.go.main.App.ListTrash()`)).some((c) => c.id === second), 'in the Trash')
  await sleep(500)
  app.screenshot('history-undo')
  await app.click('undo-delete')
  await app.waitFor(`!!document.querySelector('[data-testid="chat-item"][data-chat-id="${second}"]')`, 3000, 'chat back')
  const ids = (await app.eval(`window.go.main.App.ListChats()`)).map((c) => c.id)
  assert.ok(ids.includes(second), 'back in the list after Undo')
  assert.equal((await app.eval(`window.go.main.App.ListTrash()`)).length, 0, 'Trash empty after Undo')

  // Deleted again, then restored from Settings ▸ Trash.
  await app.eval(`document.querySelector('[data-testid="chat-item"][data-chat-id="${second}"]').closest('li').querySelector('[data-testid="chat-delete"]').click()`)
  await app.waitFor(`!document.querySelector('[data-testid="chat-item"][data-chat-id="${second}"]')`, 3000, 'chat hidden again')
  await app.click('trash-open')
  await app.waitFor(`!!document.querySelector('[data-testid="trash-item"][data-chat-id="${second}"]')`, 3000, 'listed in the Trash')
  await sleep(500)
  app.screenshot('history-trash')
  await app.eval(`document.querySelector('[data-testid="trash-item"][data-chat-id="${second}"] [data-testid="trash-restore"]').click()`)
  await app.waitFor(`!document.querySelector('[data-testid="trash-item"]') && !!document.querySelector('[data-testid="trash-none"]')`, 3000, 'Trash empty')
  await app.waitFor(`!!document.querySelector('[data-testid="chat-item"][data-chat-id="${second}"]')`, 3000, 'restored to the list')

  // Settings ▸ Data (Settings is open on the Trash).
  await app.click('settings-tab-data')
  await app.waitFor(`!!document.querySelector('[data-testid="export-all"]') && !!document.querySelector('[data-testid="import-file"]')`, 3000, 'data tab')
  await sleep(800)
  app.screenshot('history-data-tab')
  await stop(app)
})

test('edit a message: the new answer streams, 2/2, and the old version comes back', async () => {
  const app = await launch()
  await newChatWith(app, 'hello')
  const oldAnswer = (await app.eval(lastAssistant)).text
  const userId = await app.eval(`document.querySelector('[data-testid="message"][data-role="user"]').dataset.messageId`)

  await app.click(`[data-testid="message"][data-message-id="${userId}"] [data-testid="edit-message"]`)
  await app.waitFor(`!!document.querySelector('[data-testid="edit-input"]')`, 3000, 'editor open')
  await app.type('edit-input', 'markdown please')
  await app.eval(`document.querySelector('[data-testid="message-editor"]').scrollIntoView({ block: 'center' })`)
  await sleep(300)
  app.screenshot('history-edit')
  await app.click('edit-send')
  await app.waitFor(`${lastAssistant}?.status === 'streaming'`, 5000, 'new answer streaming')
  const done = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && m })()`, 20000, 'new answer complete')
  assert.notEqual(done.text, oldAnswer)
  const label = await app.waitFor(`document.querySelector('[data-testid="message"][data-role="user"] [data-testid="version-label"]')?.textContent`, 3000, 'version label')
  assert.equal(label, '2/2')
  const userText = await app.eval(`document.querySelector('[data-testid="message"][data-role="user"]').innerText`)
  assert.match(userText, /markdown please/)
  await app.eval(`document.querySelector('[data-testid="message"][data-role="user"]').scrollIntoView({ block: 'start' })`)
  await sleep(800)
  app.screenshot('history-edited')

  await app.click('[data-testid="message"][data-role="user"] [data-testid="version-prev"]')
  await app.waitFor(`document.querySelector('[data-testid="message"][data-role="user"] [data-testid="version-label"]')?.textContent === '1/2'`, 5000, 'version 1/2')
  const back = await app.messages()
  assert.match(back.find((m) => m.role === 'user').text, /hello/)
  assert.equal(back.filter((m) => m.role === 'assistant').pop().text, oldAnswer)
  await stop(app)
})

// The native GTK save dialog, driven with xdotool.
test('export a chat as JSON through the native save dialog', { skip: !hasXdotool && 'xdotool is not installed' }, async () => {
  const app = await launch()
  const chatId = await newChatWith(app, 'hello')
  const dir = mkdtempSync(join(tmpdir(), 'airlock-export-'))
  const file = join(dir, 'export.json')

  // Start the export without waiting on it: the call returns when the dialog closes.
  await app.eval(`(() => { const row = document.querySelector('[data-testid="chat-item"][data-chat-id="${chatId}"]').closest('li'); row.querySelector('[data-testid="chat-menu"]').click() })()`)
  await app.waitFor(`!!document.querySelector('[data-testid="chat-menu-list"]')`, 3000, 'menu open')
  await sleep(400)
  app.screenshot('history-menu')
  await app.eval(`(setTimeout(() => document.querySelector('[data-testid="export-json"]').click(), 0), true)`)

  await fillSaveDialog('Export', file, () => app.screenshot('history-export-dialog'))

  await app.waitFor(`[...document.querySelectorAll('[data-testid="toast"]')].some(t => t.innerText.includes(${JSON.stringify(file)}))`, 10000, 'exported toast')
  assert.ok(existsSync(file), 'the file was written')
  const data = JSON.parse(readFileSync(file, 'utf8'))
  assert.equal(data.format, 'airlock-export')
  const chat = data.chats.find((c) => c.id === chatId) ?? data.chats[0]
  assert.ok(chat, 'the chat is in the export')
  const text = JSON.stringify(chat.messages)
  assert.match(text, /hello/)
  await stop(app)
})
