// End-to-end: rules and the audit trail from the UI, on the real app. A tiny
// scripted model (an OpenAI-compatible server here, in text mode) proposes
// read_file and write_file calls on chosen paths and records every request,
// so the test reads what the model was told. A path rule made from a card,
// for this chat, runs the next call under the folder by itself ("rule #1")
// while one elsewhere waits; Never allow with a message denies a call and
// the model's next request carries the message; Activity names who decided
// each call; Settings → Permissions revokes the rule. Screenshots of the
// menu, the rule dialog, Activity and Permissions in English, Chinese, dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { startApp, newDataDir } from './harness.mjs'

const running = new Set()
let server, baseURL
/** Every chat request the app sent: its messages. */
const requests = []

// What the scripted model answers to the user's words: one call each.
const SCRIPT = [
  [/^read (\S+)/, (m) => ({ name: 'read_file', arguments: { path: m[1] } })],
  [/^write (\S+)/, (m) => ({ name: 'write_file', arguments: { path: m[1], content: 'hello\n' } })],
]

function reply(messages) {
  const last = messages.at(-1)
  const text = typeof last?.content === 'string' ? last.content.trim() : ''
  for (const [re, make] of SCRIPT) {
    const m = re.exec(text)
    if (last?.role === 'user' && m) {
      const call = { id: 'call_1', ...make(m) }
      return `On it.\n\n\`\`\`json\n${JSON.stringify({ tool_calls: [call] })}\n\`\`\``
    }
  }
  return 'Noted. (scripted model)'
}

before(async () => {
  server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model' }] }))
        return
      }
      const body = JSON.parse(String(Buffer.concat(chunks)))
      requests.push(body.messages)
      const text = reply(body.messages)
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
      res.write(chunk({ role: 'assistant', content: text }))
      res.write(chunk({}, 'stop'))
      res.end('data: [DONE]\n\n')
    })
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  baseURL = `http://127.0.0.1:${server.address().port}/v1`
})
after(async () => {
  for (const a of running) await a.kill()
  server?.close()
})

async function launch(dataDir = newDataDir()) {
  const app = await startApp({ dataDir, env: { AIRLOCK_BASE_URL: baseURL, AIRLOCK_MODEL: 'scripted', AIRLOCK_TOOL_MODE: 'text' } })
  running.add(app)
  return app
}
async function stop(app) {
  running.delete(app)
  return app.close()
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
/** A screenshot once the page has painted (WebKit under Xvfb paints a moment after the DOM changes). */
async function shot(app, name) {
  await app.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`)
  await sleep(900)
  app.screenshot(name)
}
const cardById = (id) => `document.querySelector('[data-testid="tool-card"][data-call-id="${id}"]')`
const lastCard = `[...document.querySelectorAll('[data-testid="tool-card"]')].pop()`
const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText } : null })()`

/** Sends text and waits for the card of the call it asks for (the count-th card of the chat); returns its id. */
// The card of the answer to `text`: the first call the backend did not have
// before (counting cards in the page would depend on how many the virtualized
// list has mounted), once its card is in the page.
const activeChat = `document.querySelector('[data-testid="chat-item"][data-active="true"]')?.dataset.chatId`
const callIds = (chatId) => `window.go.main.App.ListCalls(${JSON.stringify(chatId)}).then((cs) => cs.map((c) => c.id))`
async function ask(app, text) {
  const chat0 = await app.eval(activeChat)
  const before = chat0 ? await app.eval(callIds(chat0)) : []
  await app.type('composer', text)
  await app.click('send')
  const chatId = await app.waitFor(activeChat, 5000, 'the chat')
  const id = await app.waitFor(`${callIds(chatId)}.then((ids) => ids.find((id) => !${JSON.stringify(before)}.includes(id)))`, 20000, `the call for "${text}"`)
  await app.waitFor(`!!${cardById(id)}`, 10000, `the card for "${text}"`)
  return id
}
const callOf = async (app, chatId, id) => (await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)).find((c) => c.id === id)
const settled = (app) =>
  app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /Noted/.test(m.text) })()`, 20000, 'the model read the results')

async function openMenu(app, id) {
  await app.eval(`${cardById(id)}.scrollIntoView({ block: 'center' })`)
  await app.eval(`${cardById(id)}.querySelector('[data-testid="always-allow"]').click()`)
  await app.waitFor(`!!document.querySelector('[data-testid="always-allow-path"]')`, 5000, 'the path item (from RuleOptions)')
}

test('rules from a card, Never allow with a message, Activity and Permissions, on the real app', async () => {
  const dataDir = newDataDir()
  let app = await launch(dataDir)
  await app.click('new-chat')
  const first = await ask(app, 'read docs/guide/intro.md')
  const chatId = await app.waitFor(`document.querySelector('[data-testid="chat-item"][data-active="true"]')?.dataset.chatId`, 5000, 'chat id')

  // The menu: the folder is offered from the call's own path.
  await openMenu(app, first)
  const items = await app.eval(`[...document.querySelectorAll('[role="menu"] [role="menuitem"]')].map((b) => b.dataset.testid + ': ' + b.innerText.split('\\n')[0])`)
  assert.deepEqual(items, [
    'always-allow-chat: In this chat',
    'always-allow-everywhere: Everywhere',
    'always-allow-any: For any arguments…',
    'always-allow-path: For paths under docs/guide/…',
    'always-allow-exact: For this exact value…',
    'never-allow: Never allow…',
  ])
  await shot(app, 'policy-menu-en')

  // A path rule under docs/, for this chat, tested first.
  await app.click('always-allow-path')
  await app.waitFor(`!!document.querySelector('[data-testid="rule-dialog"]')`, 5000, 'rule dialog')
  const folders = await app.eval(`[...document.querySelectorAll('[data-testid="rule-folder"]')].map((r) => r.value)`)
  assert.deepEqual(folders, ['docs/guide', 'docs', '.'])
  await app.click('[data-testid="rule-folder"][value="docs"]')
  await app.click('rule-test')
  const tested = await app.waitFor(`document.querySelector('[data-testid="rule-test-result"]')?.innerText`, 5000, 'test result')
  assert.match(tested, /Would have allowed 1 of the 1 calls of this chat/)
  await shot(app, 'policy-rule-dialog-en')
  await app.click('rule-save')
  const decided = await app.waitFor(`${cardById(first)}?.querySelector('[data-testid="rule-decision"]')?.innerText`, 10000, 'the card names the rule')
  assert.match(decided, /Allowed by rule #1/)
  const line = await app.eval(`${cardById(first)}.querySelector('[data-testid="call-decision"]').innerText`)
  assert.match(line, /paths under docs · this chat/)
  const rules = await app.eval(`window.go.main.App.ListRules()`)
  assert.equal(rules.length, 1)
  assert.deepEqual([rules[0].id, rules[0].effect, rules[0].tool, rules[0].match.kind, rules[0].match.path, rules[0].scope, rules[0].chatId], [1, 'allow', 'read_file', 'path', 'docs', 'chat', chatId])
  await settled(app)

  // The next call under docs/ runs by itself, decided by rule #1.
  const second = await ask(app, 'read docs/api.md')
  await app.waitFor(`${cardById(second)}?.querySelector('[data-testid="rule-decision"]')?.innerText.includes('rule #1')`, 10000, 'second card run by rule #1')
  assert.equal((await callOf(app, chatId, second)).decidedBy, 'rule:1')
  await settled(app)

  // One outside it (and a traversal out of it) still waits for you.
  const third = await ask(app, 'read docs/../src/main.go')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' })()`, 10000, 'answer complete')
  const waiting = await callOf(app, chatId, third)
  assert.equal(waiting.state, 'pending')
  assert.equal(waiting.decidedBy ?? '', '')
  assert.equal(await app.eval(`!!${cardById(third)}.querySelector('[data-testid="approve"]')`), true)

  // Never allow write_file, with a message the model is told (the waiting read is settled by the new message).
  const fourth = await ask(app, 'write notes/todo.md')
  await app.eval(`${cardById(fourth)}.scrollIntoView({ block: 'center' })`)
  await app.eval(`${cardById(fourth)}.querySelector('[data-testid="always-allow"]').click()`)
  await app.click('never-allow')
  await app.waitFor(`!!document.querySelector('[data-testid="rule-message"]')`, 5000, 'message field')
  await app.type('rule-message', 'Keep notes in the chat; do not write files.')
  await app.click('rule-save')
  await app.waitFor(`${cardById(fourth)}?.dataset.state === 'denied'`, 10000, 'write denied by the rule')
  const told = await app.waitFor(`${cardById(fourth)}.querySelector('[data-testid="rule-told"]')?.innerText`, 5000, 'the card says what the model is told')
  assert.match(told, /Keep notes in the chat; do not write files\./)
  assert.match(await app.eval(`${cardById(fourth)}.querySelector('[data-testid="rule-decision"]').innerText`), /Denied by rule #2/)
  await settled(app)
  const results = requests.at(-1).filter((m) => m.role === 'user').at(-1).content
  assert.match(results, /The user says: Keep notes in the chat; do not write files\./, 'the model was told the rule’s message')
  assert.equal((await callOf(app, chatId, third)).decidedBy, 'new_message')

  // Activity names who decided each call.
  await app.click('chat-activity')
  await app.waitFor(`document.querySelectorAll('[data-testid="activity-row"]').length >= 5`, 10000, 'activity rows')
  const rows = await app.eval(`[...document.querySelectorAll('[data-testid="activity-row"]')].map((r) => ({ call: r.dataset.callId, decision: r.dataset.decision, by: r.dataset.decidedBy, who: r.querySelector('[data-testid="activity-who"]').innerText }))`)
  const row = (call, decision) => rows.find((r) => r.call === call && r.decision === decision)
  assert.equal(row(first, 'approved')?.by, 'rule:1')
  assert.equal(row(second, 'approved')?.who, 'by rule #1')
  assert.ok(row(second, 'ran'), 'the run is a row too')
  assert.equal(row(third, 'superseded')?.by, 'new_message')
  assert.equal(row(third, 'superseded')?.who, 'by your new message')
  assert.equal(row(fourth, 'denied')?.who, 'by rule #2')
  await shot(app, 'policy-activity-en')
  // A row opens its card.
  await app.eval(`document.querySelector('[data-testid="activity-row"][data-call-id="${second}"] [data-testid="activity-open"]').click()`)
  await app.waitFor(`document.activeElement === ${cardById(second)}`, 10000, 'the card focused in its chat')

  // Settings → Permissions: both rules, their uses; revoke the path rule.
  await app.eval(`${cardById(second)}.querySelector('[data-testid="rule-link"]').click()`)
  await app.waitFor(`document.querySelectorAll('[data-testid="rule-row"]').length === 2`, 5000, 'two rules listed')
  const listed = await app.eval(`[...document.querySelectorAll('[data-testid="rule-row"]')].map((r) => [r.dataset.ruleId, r.dataset.effect, r.querySelector('[data-testid="rule-uses"]').innerText])`)
  assert.deepEqual(listed, [['2', 'deny', '1 call'], ['1', 'allow', '2 calls']])
  await shot(app, 'policy-permissions-en')
  await app.click('[data-testid="rule-row"][data-rule-id="1"] [data-testid="revoke-rule"]')
  // Revoke asks first (a slip of the hand loses no rule).
  await app.waitFor(`!!document.querySelector('[data-testid="confirm-revoke"]')`, 5000, 'Revoke asks first')
  await app.click('[data-testid="confirm-revoke"]')
  await app.waitFor(`document.querySelectorAll('[data-testid="rule-row"]').length === 1`, 5000, 'rule 1 revoked')
  assert.deepEqual((await app.eval(`window.go.main.App.ListRules()`)).map((r) => r.id), [2])

  // The same views in Chinese, then dark: settings saved, the app relaunched on the same data.
  for (const [language, theme, tag] of [['zh', 'light', 'zh'], ['en', 'dark', 'dark']]) {
    const s = await app.eval(`window.go.main.App.GetSettings()`)
    await app.eval(`window.go.main.App.SaveSettings(${JSON.stringify({ ...s, language, theme })})`)
    await stop(app)
    app = await launch(dataDir)
    const id = await ask(app, 'read src/app.go')
    await openMenu(app, id)
    await shot(app, `policy-menu-${tag}`)
    await app.click('always-allow-path')
    await app.waitFor(`!!document.querySelector('[data-testid="rule-dialog"]')`, 5000, 'rule dialog')
    await app.click('rule-test')
    await app.waitFor(`!!document.querySelector('[data-testid="rule-test-result"]')`, 5000, 'test result')
    await shot(app, `policy-rule-dialog-${tag}`)
    await app.eval(`document.querySelector('[data-testid="rule-dialog"]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
    await app.waitFor(`!document.querySelector('[data-testid="rule-dialog"]')`, 5000, 'dialog closed by Escape')
    await app.click('chat-activity')
    await app.waitFor(`document.querySelectorAll('[data-testid="activity-row"]').length >= 5`, 10000, 'activity rows')
    await shot(app, `policy-activity-${tag}`)
    await app.click('settings-open')
    await app.click('settings-tab-permissions')
    await app.waitFor(`document.querySelectorAll('[data-testid="rule-row"]').length === 1`, 5000, 'the never rule listed')
    await shot(app, `policy-permissions-${tag}`)
  }
  await stop(app)
})
