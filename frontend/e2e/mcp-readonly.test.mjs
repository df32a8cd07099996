// End-to-end: a rule on a server's read-only tools, made from the card of a
// tool that server-everything annotates readOnlyHint: true (echo). The rule
// dialog says the claim is the server's; afterwards echo runs by the rule,
// and a tool of the same server that does not say it is read-only waits.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { startApp, newDataDir, look } from './harness.mjs'

const SERVER = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url))
const running = new Set()
after(async () => { for (const a of running) await a.kill() })

const card = (tool, state) => `[...document.querySelectorAll('[data-testid="tool-card"][data-tool="mcp__everything__${tool}"]${state ? `[data-state="${state}"]` : ''}')].pop()`

async function ask(app, tool, args) {
  await app.type('composer', `mcp call ${tool} ${args}`)
  await app.click('send')
}

test('MCP: "read-only tools of everything" runs echo by the rule; a tool that does not say read-only waits', async () => {
  const dataDir = newDataDir()
  const config = join(dataDir, 'mcp.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [SERVER, 'stdio'] } } }))
  const app = await startApp({ dataDir, env: { AIRLOCK_MCP_CONFIG: config } })
  running.add(app)
  await app.waitFor(`window.go.main.App.ListMCPServers().then(l => l.servers[0]?.state === 'ready')`, 30000, 'server ready')

  for (const [lang, theme] of [['zh', 'dark'], ['en', 'light']]) {
    await look(app, lang, theme)
    await app.click('new-chat')
    await ask(app, 'echo', '{"message":"hi"}')
    await app.waitFor(`!!${card('echo', 'pending')}`, 20000, 'pending echo card')
    await app.eval(`${card('echo')}.querySelector('[data-testid="always-allow"]').click()`)
    await app.waitFor(`!!document.querySelector('[data-testid="always-allow-readonly"]')`, 5000, 'the read-only item')
    await sleep(200)
    app.screenshot(`mcp-readonly-menu-${lang}-${theme}`)
    await app.click('always-allow-readonly')
    await app.waitFor(`!!document.querySelector('[data-testid="rule-readonly-claim"]')`, 5000, 'the claim sentence')
    await sleep(200)
    app.screenshot(`mcp-readonly-dialog-${lang}-${theme}`)
    if (lang === 'zh') {
      await app.eval(`document.querySelector('[data-testid="rule-dialog"]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
      await app.waitFor(`!document.querySelector('[data-testid="rule-dialog"]')`, 5000, 'dialog closed')
    }
  }
  await app.click('rule-scope-always')
  await app.click('rule-save')
  await app.waitFor(`!!${card('echo', 'done')}`, 20000, 'echo ran by the rule')
  const rules = await app.eval(`window.go.main.App.ListRules()`)
  assert.equal(rules.length, 1)
  assert.equal(rules[0].match.kind, 'readonly')
  assert.equal(rules[0].tool, 'mcp__everything__*')

  // A new chat: echo runs by itself; toggle-subscriber-updates (readOnlyHint: false) waits.
  await app.click('new-chat')
  await ask(app, 'echo', '{"message":"again"}')
  await app.waitFor(`!!${card('echo', 'done')}`, 20000, 'echo ran by itself')
  const audit = (await app.eval(`window.go.main.App.ListAudit({ chatId: '', callId: '', tool: 'mcp__everything__echo', decision: 'approved', before: 0, limit: 10 })`)).entries
  assert.ok(audit.some((e) => e.decidedBy === `rule:${rules[0].id}` && /that the server says are read-only/.test(e.rule)), JSON.stringify(audit))
  await app.click('new-chat')
  await ask(app, 'toggle-subscriber-updates', '{}')
  await app.waitFor(`!!${card('toggle-subscriber-updates', 'pending')}`, 20000, 'the write tool waits')
  await sleep(500)
  assert.equal(await app.eval(`${card('toggle-subscriber-updates')}.dataset.state`), 'pending')
  await app.close()
  running.delete(app)
})
