// End-to-end, issue 30 item 7: the sentences the backend writes for people
// reach the Chinese UI in Chinese (MCP status, a card's preview, a path that
// leaves the workspace, overlay Changes, a vanished folder), in light and
// dark; what the model reads stays English.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, newDataDir, look } from './harness.mjs'
import { ask, card, chooseFolder, lastAssistant, openFiles } from './files-script.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// English a Chinese screen must not show (the backend's own sentences).
const ENGLISH = /exited during start-up|cannot start|no such file|leaves the workspace|does not exist|Nothing was sent to the model|Create notes\.md|Edit notes\.md|use a path relative/

async function launch(env = {}) {
  const dataDir = newDataDir()
  const app = await startApp({ dataDir, env: typeof env === 'function' ? env(dataDir) : env })
  running.add(app)
  return app
}
async function stop(app) {
  running.delete(app)
  await app.close()
}
/** Chinese in the given theme (the harness's look), once the page says it is Chinese. */
async function lookZh(app, theme) {
  await look(app, 'zh', theme)
  await app.waitFor(`document.documentElement.lang.startsWith('zh')`, 5000, 'Chinese')
}

test('MCP: a server that cannot start and one that exits during start-up say so in Chinese', async () => {
  const app = await launch((dataDir) => {
    const config = join(dataDir, 'mcp.json')
    writeFileSync(config, JSON.stringify({ mcpServers: {
      missing: { command: '/nonexistent/mcp-server' },
      grumpy: { command: '/bin/sh', args: ['-c', 'echo "fatal: no config" >&2; exit 3'] },
    } }))
    return { AIRLOCK_MCP_CONFIG: config }
  })
  await app.waitFor(`window.go.main.App.ListMCPServers().then(l => l.servers.length === 2 && l.servers.every(s => s.state === 'failed'))`, 20000, 'both fail')
  for (const theme of ['light', 'dark']) {
    await lookZh(app, theme)
    await app.click('settings-open')
    await app.click('settings-tab-tools')
    const reason = (name) => `document.querySelector('[data-testid="mcp-server"][data-name="${name}"] [data-testid="mcp-reason"]')?.innerText`
    await app.waitFor(`${reason('missing')} && ${reason('grumpy')}`, 10000, 'both reasons')
    await app.eval(`document.querySelector('[data-testid="mcp-server"][data-name="grumpy"]').scrollIntoView({ block: 'center' })`)
    await sleep(400)
    app.screenshot(`backend-text-mcp-zh-${theme}`)
    const missing = await app.eval(reason('missing'))
    const grumpy = await app.eval(reason('grumpy'))
    console.log('# reasons', JSON.stringify({ missing, grumpy }))
    assert.match(missing, /无法启动 "\/nonexistent\/mcp-server"：没有该文件或目录/)
    assert.match(grumpy, /启动过程中退出（退出码 3）|握手/)
    assert.doesNotMatch(await app.eval(`document.querySelector('[data-testid="settings-dialog"]').innerText`), ENGLISH)
    await app.eval(`document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
    await sleep(300)
  }
  await stop(app)
})

test('overlay chat: a card\'s preview, a path leaving the workspace and the Changes are in Chinese; the model still reads English', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-zh-overlay-'))
  writeFileSync(join(dir, 'existing.md'), '# Existing\n')
  const app = await launch()
  await lookZh(app, 'light')
  await app.click('new-chat')
  await openFiles(app)
  await chooseFolder(app, dir, 'overlay')
  await ask(app, 'work with files', { newChat: false })

  // A path that leaves the workspace: said before Run, then the error after Run, both in Chinese.
  await app.waitFor(`!!${card('list_directory', 'pending')}`, 20000, 'the first card')
  await app.eval(`${card('list_directory', 'pending')}.querySelector('[data-testid="edit"]').click()`)
  await app.waitFor(`!!document.querySelector('[data-testid="edit-args"]')`, 5000, 'the edit form')
  await app.type('edit-args', '{"path": "../../etc"}')
  const before = await app.waitFor(`document.querySelector('[data-testid="call-refusal"]')?.innerText`, 8000, 'the refusal on the card')
  assert.match(before, /路径 "\.\.\/\.\.\/etc" 离开了工作区/)
  await sleep(300)
  app.screenshot('backend-text-refused-before-run-zh-light')
  await app.click('run-edited')
  await app.waitFor(`${card('list_directory')}?.dataset.state === 'error'`, 10000, 'the call failed')
  const result = await app.eval(`${card('list_directory')}.querySelector('[data-testid="call-result"]')?.innerText ?? ''`)
  assert.match(result, /路径 "\.\.\/\.\.\/etc" 离开了工作区/)
  await app.eval(`${card('list_directory')}.scrollIntoView({ block: 'center' })`)
  await sleep(300)
  app.screenshot('backend-text-refused-after-run-zh-light')
  const stored = (await app.eval(`window.go.main.App.ListCalls(document.querySelector('[data-testid="chat-item"][data-active="true"]').dataset.chatId)`))
    .find((c) => c.name === 'list_directory')
  assert.match(stored.result, /leaves the workspace/, 'the model reads English')
  assert.equal(stored.resultText.code, 'path_leaves')

  // The next card's preview summary, then the overlay's Changes.
  await app.waitFor(`!!${card('write_file', 'pending')}`, 20000, 'the write card')
  const summary = await app.waitFor(`${card('write_file', 'pending')}.querySelector('.tool-card__preview-summary')?.innerText`, 8000, 'the preview summary')
  assert.match(summary, /^创建 notes\.md（\d+ 行，/)
  await sleep(300)
  app.screenshot('backend-text-preview-zh-light')
  await app.eval(`${card('write_file', 'pending')}.querySelector('[data-testid="approve"]').click()`)
  await app.waitFor(`!!${card('edit_file', 'pending')}`, 20000, 'the edit card')
  const edit = await app.waitFor(`${card('edit_file', 'pending')}.querySelector('.tool-card__preview-summary')?.innerText`, 8000, 'the edit summary')
  assert.match(edit, /^编辑 notes\.md：替换 1 处/)
  await app.click('changes-tab')
  await app.waitFor(`!!document.querySelector('[data-testid="change"][data-path="notes.md"]')`, 5000, 'notes.md in Changes')
  for (const theme of ['light', 'dark']) {
    if (theme === 'dark') {
      await lookZh(app, 'dark')
      await openFiles(app)
      await app.click('changes-tab')
      await app.waitFor(`!!document.querySelector('[data-testid="change"][data-path="notes.md"]')`, 5000, 'Changes again')
    }
    await sleep(500)
    app.screenshot(`backend-text-overlay-zh-${theme}`)
    assert.doesNotMatch(await app.eval(`document.body.innerText`), ENGLISH)
  }
  await stop(app)
  rmSync(dir, { recursive: true, force: true })
})

test('a folder gone since: the stopped turn says so in Chinese', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-zh-vanish-'))
  const app = await launch()
  await lookZh(app, 'light')
  await app.click('new-chat')
  await openFiles(app)
  await chooseFolder(app, dir)
  await app.type('composer', 'hello')
  await app.click('send')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' })()`, 20000, 'first answer')
  rmSync(dir, { recursive: true, force: true })
  await app.type('composer', 'work with files')
  await app.click('send')
  await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'error' })()`, 20000, 'the stopped turn')
  for (const theme of ['light', 'dark']) {
    await lookZh(app, theme)
    await app.waitFor(`!!document.querySelector('[data-testid="message-error"]')`, 10000, 'the error again')
    await sleep(400)
    app.screenshot(`backend-text-vanished-zh-${theme}`)
    const text = await app.eval(`[...document.querySelectorAll('[data-testid="message-error"]')].pop().innerText`)
    assert.match(text, /没有向模型发送任何内容：此对话的工作区无法打开（文件夹 .* 不存在）/)
    assert.doesNotMatch(text, ENGLISH)
  }
  // Opening the folder again: the workspace error (a toast or the panel) is in Chinese too.
  await openFiles(app)
  await sleep(800)
  app.screenshot('backend-text-vanished-files-zh-dark')
  assert.doesNotMatch(await app.eval(`document.body.innerText`), ENGLISH)
  await stop(app)
})

test('a problem card (the demo\'s broken call) says why in Chinese; the model is told the English', async () => {
  const app = await launch()
  await lookZh(app, 'light')
  await ask(app, 'broken')
  const problem = `document.querySelector('[data-testid="tool-card"][data-state="problem"] [data-testid="call-problem"]')`
  await app.waitFor(`!!${problem}`, 20000, 'the problem card')
  for (const theme of ['light', 'dark']) {
    if (theme === 'dark') await lookZh(app, 'dark')
    const text = await app.waitFor(`${problem}?.innerText`, 10000, 'the problem again')
    await app.eval(`${problem}.scrollIntoView({ block: 'center' })`)
    await sleep(400)
    app.screenshot(`backend-text-problem-zh-${theme}`)
    console.log('# problem', JSON.stringify(text))
    // Natively: arguments that are not JSON; as text: a tool that does not exist.
    assert.match(text, /参数不是有效的 JSON，因此调用未运行|没有名为 "teleport" 的工具/)
    assert.doesNotMatch(text, /so the call was not run|There is no tool named/)
  }
  const chatId = await app.eval(`document.querySelector('[data-testid="chat-item"][data-active="true"]').dataset.chatId`)
  const stored = (await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)).find((c) => c.state === 'problem')
  assert.match(stored.problem, /not valid JSON|There is no tool named/, 'the model reads English')
  assert.match(stored.problemText.code, /^(problem_native_bad_json|unknown_tool.*)$/)
  await stop(app)
})
