// End-to-end: a real MCP server (@modelcontextprotocol/server-everything) asks
// a question while its tool runs (elicitation) and reports progress; both show
// on the running card, and the answer reaches the server and the audit trail.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { startApp, newDataDir } from './harness.mjs'

const SERVER = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url))
const running = new Set()
after(async () => { for (const a of running) await a.kill() })

const launch = () => launchIn(newDataDir())

const card = (tool, state) => `[...document.querySelectorAll('[data-testid="tool-card"][data-tool="mcp__everything__${tool}"]${state ? `[data-state="${state}"]` : ''}')].pop()`
const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText } : null })()`

async function callTool(app, tool, args = '') {
  await app.click('new-chat')
  await app.type('composer', `mcp call ${tool} ${args}`)
  await app.click('send')
  await app.waitFor(`!!${card(tool, 'pending')}`, 20000, `pending ${tool} card`)
  await app.eval(`${card(tool)}.querySelector('[data-testid="approve"]').click()`)
}

test('MCP: a server question shows on the running card, naming the server; the answer reaches the server and the audit trail', async () => {
  const app = await launch()
  await callTool(app, 'trigger-elicitation-request')
  const q = `${card('trigger-elicitation-request', 'running')}?.querySelector('[data-testid="mcp-question"]')`
  await app.waitFor(`!!${q}`, 20000, 'the question on the card')
  assert.match(await app.eval(`${q}.innerText`), /everything asks/)
  assert.match(await app.eval(`${q}.innerText`), /Please provide inputs/)
  assert.equal(await app.eval(`${q}.querySelector('[data-testid="mcp-answer-firstLine"]').value`), 'It was a dark and stormy night.', 'defaults filled in')
  app.screenshot('mcp-question')
  // Type a name (React needs the native setter and an input event).
  await app.eval(`(() => { const el = ${q}.querySelector('[data-testid="mcp-answer-name"]'); const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(el, 'Ada Lovelace'); el.dispatchEvent(new Event('input', { bubbles: true })) })()`)
  await app.eval(`${q}.querySelector('[data-testid="mcp-question-accept"]').click()`)
  await app.waitFor(`!!${card('trigger-elicitation-request', 'done')}`, 20000, 'card done')
  const final = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && m })()`, 20000, 'final answer')
  assert.match(final.text, /Ada Lovelace/, 'the server got the answer and the model read it')
  const audit = (await app.eval(`window.go.main.App.ListAudit({ chatId: '', callId: '', tool: '', decision: 'answered', before: 0, limit: 10 })`)).entries
  assert.equal(audit.length, 1)
  assert.match(audit[0].detail, /everything asked "Please provide inputs for the following fields:": accept/)
  assert.match(JSON.stringify(audit[0].arguments), /Ada Lovelace/)
  await app.close()
  running.delete(app)
})

test('MCP: progress of a long operation shows as a bar on the running card', async () => {
  const app = await launch()
  await callTool(app, 'trigger-long-running-operation', '{"duration": 4, "steps": 4}')
  const bar = `${card('trigger-long-running-operation', 'running')}?.querySelector('[data-testid="mcp-progress-bar"]')`
  await app.waitFor(`!!${bar} && Number(${bar}.value) > 0`, 20000, 'a progress bar with progress')
  assert.match(await app.eval(`${card('trigger-long-running-operation')}.querySelector('[data-testid="mcp-progress-text"]').innerText`), /of 4/)
  app.screenshot('mcp-progress')
  await app.waitFor(`!!${card('trigger-long-running-operation', 'done')}`, 30000, 'card done')
  await app.close()
  running.delete(app)
})

// Prompts and resources: "/" lists server-everything's prompts, a prompt with
// arguments is filled and its text sent; a resource and a filled template are
// attached from the server. Screenshots in English and Chinese, light and dark.
const setInput = (sel, text) => `(() => { const el = document.querySelector(${JSON.stringify(sel)}); const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, ${JSON.stringify(text)}); el.dispatchEvent(new Event('input', { bubbles: true })); el.focus(); return true })()`
const options = `[...document.querySelectorAll('[data-testid="prompt-option"]')].map(o => o.dataset.name)`
const pending = `document.querySelectorAll('[data-testid="pending-attachment"]').length`

async function launchIn(dataDir) {
  const config = join(dataDir, 'mcp.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [SERVER, 'stdio'] } } }))
  const app = await startApp({ dataDir, env: { AIRLOCK_MCP_CONFIG: config } })
  running.add(app)
  await app.waitFor(`window.go.main.App.ListMCPServers().then(l => l.servers[0]?.state === 'ready' && l.servers[0])`, 30000, 'server ready')
  return app
}

test('MCP: a prompt used from "/" and resources attached from the server', async () => {
  const dataDir = newDataDir()
  let app = await launchIn(dataDir)
  const row = await app.eval(`window.go.main.App.ListMCPServers().then(l => l.servers[0])`)
  assert.ok(row.instructions && row.instructionsOn, 'server-everything sends instructions, on by default')
  // Settings shows them, and turns them off (kept: checked after the restarts below).
  await app.click('settings-open')
  await app.click('settings-tab-tools')
  const instr = `document.querySelector('[data-testid="mcp-server"][data-name="everything"] [data-testid="mcp-instructions"]')`
  await app.waitFor(`!!${instr}`, 10000, 'the instructions in Settings')
  await app.eval(`${instr}.querySelector('[data-testid="mcp-instructions-toggle"]').click()`)
  await app.eval(`${instr}.querySelector('[data-testid="mcp-instructions-switch"]').click()`)
  await app.waitFor(`${instr}.querySelector('[data-testid="mcp-instructions-switch"]').getAttribute('aria-checked') === 'false'`, 5000, 'switched off')
  await app.eval(`${instr}.scrollIntoView({ block: 'center' })`)
  await sleep(300)
  app.screenshot('mcp-instructions-en')
  await app.eval(`document.querySelector('[data-testid="settings-dialog"]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
  await app.waitFor(`!document.querySelector('[data-testid="settings-dialog"]')`, 5000, 'Settings closed')

  await app.click('new-chat')
  await app.type('composer', '/')
  await app.waitFor(`${options}.length >= 3`, 15000, 'the prompts in the "/" menu')
  const all = await app.eval(options)
  for (const name of ['simple-prompt', 'args-prompt', 'completable-prompt']) assert.ok(all.includes(name), `${name} in ${all}`)
  await app.type('composer', '/args')
  await app.waitFor(`${options}.join() === 'args-prompt'`, 5000, 'filtered to args-prompt')
  await app.eval(`document.querySelector('[data-testid="prompt-option"]').click()`)
  await app.waitFor(`!!document.querySelector('[data-testid="prompt-form"]')`, 5000, 'the argument form')
  assert.match(await app.eval(`document.querySelector('[data-testid="offer-field"][data-name="city"]').innerText`), /required/)
  await app.eval(setInput('[data-testid="offer-field"][data-name="city"] input', 'Paris'))
  app.screenshot('mcp-prompt-form')
  await app.click('prompt-form-use')
  const filled = await app.waitFor(`document.querySelector('[data-testid="prompt-form-error"]')?.innerText || document.querySelector('[data-testid="composer"]').value`, 10000, 'the prompt text in the box')
  assert.equal(filled, "What's weather in Paris?")
  await app.click('send')
  await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="user"]')].some(m => m.innerText.includes("What's weather in Paris?"))`, 10000, 'sent as the user message')

  // Completion from the real server: the second argument's values depend on the first.
  await app.waitFor(`!!document.querySelector('[data-testid="send"]')`, 30000, 'the first answer finished')
  await app.type('composer', '/completable')
  await app.waitFor(`${options}.join() === 'completable-prompt'`, 5000, 'completable-prompt')
  await app.eval(`document.querySelector('[data-testid="prompt-option"]').click()`)
  const field = (name) => `document.querySelector('[data-testid="offer-field"][data-name="${name}"]')`
  const suggestions = (name) => `[...(${field(name)}?.querySelectorAll('[data-testid="offer-suggestion"]') ?? [])].map(b => b.textContent)`
  await app.waitFor(`!!${field('department')}`, 5000, 'the department field')
  await app.eval(setInput('[data-testid="offer-field"][data-name="department"] input', 'E'))
  await app.waitFor(`${suggestions('department')}.join() === 'Engineering'`, 10000, 'Engineering suggested')
  await app.eval(`${field('department')}.querySelector('[data-testid="offer-suggestion"]').click()`)
  await app.eval(setInput('[data-testid="offer-field"][data-name="name"] input', ''))
  await app.waitFor(`${suggestions('name')}.join() === 'Alice,Bob,Charlie'`, 10000, 'the team of Engineering suggested')
  app.screenshot('mcp-prompt-completion')
  await app.eval(`${field('name')}.querySelector('[data-testid="offer-suggestion"]').click()`)
  await app.click('prompt-form-use')
  await app.waitFor(`document.querySelector('[data-testid="composer"]').value === 'Please promote Alice to the head of the Engineering team.'`, 10000, 'the completed prompt in the box')
  await app.type('composer', '')

  // A static resource, then the dynamic text template filled with 2.
  await app.click('attach-from-server')
  await app.waitFor(`document.querySelectorAll('[data-testid="resource-option"]').length > 0`, 15000, 'the resources')
  const uri = await app.eval(`[...document.querySelectorAll('[data-testid="resource-option"]')].map(o => o.dataset.uri).find(u => u.endsWith('.md'))`)
  assert.ok(uri, 'a Markdown resource is listed')
  await app.eval(`document.querySelector('[data-testid="resource-option"][data-uri="${uri}"]').click()`)
  await app.waitFor(`${pending} === 1 && !document.querySelector('[data-testid="resource-picker"]')`, 10000, 'the resource attached')
  await app.click('attach-from-server')
  await app.click('[data-testid="resource-template"][data-template="demo://resource/dynamic/text/{resourceId}"]')
  await app.waitFor(`!!document.querySelector('[data-testid="resource-template-form"] input')`, 5000, 'the template form')
  await app.eval(setInput('[data-testid="resource-template-form"] input', '2'))
  app.screenshot('mcp-resource-template')
  await app.click('resource-template-attach')
  await app.waitFor(`${pending} === 2 && !document.querySelector('[data-testid="resource-picker"]')`, 10000, 'the template resource attached')
  await app.waitFor(`!!document.querySelector('[data-testid="send"]')`, 30000, 'the first answer finished')
  await app.type('composer', 'Read these')
  await app.click('send')
  await app.waitFor(`(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="user"]')].pop(); return m && m.innerText.includes('Read these') && m.querySelectorAll('[data-testid="message-attachment"]').length === 2 })()`, 15000, 'sent with two files')

  for (const [language, theme, tag] of [['en', 'light', 'en'], ['zh', 'light', 'zh'], ['en', 'dark', 'dark'], ['zh', 'dark', 'zh-dark']]) {
    if (tag !== 'en') {
      const s = await app.eval(`window.go.main.App.GetSettings()`)
      await app.eval(`window.go.main.App.SaveSettings(${JSON.stringify({ ...s, language, theme })})`)
      running.delete(app)
      await app.close()
      app = await launchIn(dataDir)
      assert.equal(await app.eval(`window.go.main.App.ListMCPServers().then(l => l.servers[0].instructionsOn)`), false, 'instructions still off after a restart')
      await app.click('new-chat')
    }
    await app.type('composer', '/')
    await app.waitFor(`${options}.length >= 3`, 15000, `the "/" menu (${tag})`)
    await sleep(300)
    app.screenshot(`mcp-slash-${tag}`)
    await app.type('composer', '')
    await app.click('attach-from-server')
    await app.waitFor(`document.querySelectorAll('[data-testid="resource-option"]').length > 0`, 15000, `the picker (${tag})`)
    await sleep(300)
    app.screenshot(`mcp-resources-${tag}`)
    await app.eval(`document.querySelector('[data-testid="resource-picker"] .dialog__header .icon-btn').click()`)
  }
  await app.close()
  running.delete(app)
})
