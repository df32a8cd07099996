// End-to-end: an edited edit_file call on the real app with the demo model.
// The card's diff follows the edit before it runs, and once run the card
// shows the change that ran, which is what the file holds.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { startApp } from './harness.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const card = (tool, state) => `document.querySelector('[data-testid="tool-card"][data-tool="${tool}"]${state ? `[data-state="${state}"]` : ''}')`
const MODEL_LINE = '- Every call waits on a card, with a diff for file changes.'
const USER_LINE = '- Every call waits on a card; the user edited this line.'

async function approve(app, tool) {
  await app.waitFor(`!!${card(tool, 'pending')}`, 20000, `pending ${tool} card`)
  await app.eval(`${card(tool, 'pending')}.querySelector('[data-testid="approve"]').click()`)
  await app.waitFor(`(() => { const c = ${card(tool)}; return !!c && c.dataset.state !== 'pending' })()`, 10000, `${tool} decided`)
}

test('edit_file: the diff follows the edit; the finished card shows the change that ran', async () => {
  const app = await startApp()
  running.add(app)
  await app.click('new-chat')
  await app.type('composer', 'work with files')
  await app.click('send')
  await approve(app, 'list_directory')
  await approve(app, 'write_file')

  await app.waitFor(`!!${card('edit_file', 'pending')}`, 20000, 'pending edit_file card')
  const before = await app.waitFor(`${card('edit_file', 'pending')}.querySelector('[data-testid="call-diff"]')?.innerText`, 5000, 'the model’s diff')
  assert.ok(before.includes('+' + MODEL_LINE), before)

  await app.eval(`${card('edit_file', 'pending')}.querySelector('[data-testid="edit"]').click()`)
  await app.waitFor(`!!document.querySelector('[data-testid="edit-args"]')`, 5000, 'the edit form')
  const args = await app.eval(`JSON.parse(document.querySelector('[data-testid="edit-args"]').value)`)
  assert.equal(args.new_text, MODEL_LINE)
  await app.type('edit-args', JSON.stringify({ ...args, new_text: USER_LINE }, null, 2))

  // The diff follows the edit (computed by the backend), before anything runs.
  const draft = await app.waitFor(
    `(() => { const p = ${card('edit_file', 'pending')}.querySelector('[data-testid="call-preview"][data-draft="true"]'); return p && p.innerText.includes(${JSON.stringify('+' + USER_LINE)}) && p.innerText })()`,
    5000,
    'the diff of the edit',
  )
  assert.ok(!draft.includes('+' + MODEL_LINE), 'the model’s line is no longer the change')
  const marked = await app.eval(`[...document.querySelectorAll('[data-testid="edit-args-diff"] ins')].map((e) => e.innerText).join('')`)
  assert.match(marked, /user edited/, 'the changed words are marked while editing')
  await app.eval(`${card('edit_file')}.scrollIntoView({ block: 'center' })`)
  await sleep(800)
  app.screenshot('edited-diff-editing')

  await app.click('run-edited')
  await app.waitFor(`!!${card('edit_file', 'done')}`, 10000, 'the edited call ran')
  const ran = await app.eval(`${card('edit_file', 'done')}.querySelector('[data-testid="call-diff"]').innerText`)
  assert.ok(ran.includes('+' + USER_LINE), `finished diff: ${ran}`)
  assert.ok(!ran.includes('+' + MODEL_LINE), 'the finished card does not show the model’s change')
  const added = await app.eval(`[...${card('edit_file', 'done')}.querySelectorAll('[data-testid="call-args"] ins')].map((e) => e.innerText).join('')`)
  assert.match(added, /user edited/, 'proposed vs edited marks the words the user changed')

  // The file holds what the card says ran.
  const chatId = await app.waitFor(`document.querySelector('[data-testid="chat-item"][data-active="true"]')?.dataset.chatId`, 5000, 'the chat')
  const file = await app.eval(`window.go.main.App.ReadWorkspaceFile(${JSON.stringify(chatId)}, 'notes.md')`)
  assert.ok(file.content.includes(USER_LINE), file.content)
  assert.ok(!file.content.includes(MODEL_LINE))
  await app.eval(`${card('edit_file')}.scrollIntoView({ block: 'center' })`)
  await sleep(800)
  app.screenshot('edited-diff-ran')
  running.delete(app)
  await app.close()
})
