// End-to-end: with the UI in Chinese, the demo model understands its own
// translated starters (the time starter's card comes; error 500 fails as
// promised) instead of answering with its generic intro.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { startApp, newDataDir } from './harness.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText } : null })()`

async function pick(app, key) {
  await app.click('new-chat')
  await app.click(`[data-testid="suggestion"][data-key="${key}"]`)
}

test('Chinese starters: the time starter brings its card, error 500 its error', async () => {
  const dataDir = newDataDir()
  let app = await startApp({ dataDir })
  running.add(app)
  await app.eval(`(async () => { const s = await window.go.main.App.GetSettings(); s.language = 'zh'; await window.go.main.App.SaveSettings(s) })()`)
  running.delete(app)
  await app.close()

  app = await startApp({ dataDir })
  running.add(app)
  await app.waitFor(`document.documentElement.lang.startsWith('zh') || document.querySelector('[data-testid="new-chat"]')?.innerText.includes('新')`, 5000, 'the UI in Chinese')

  await pick(app, 'tools')
  const sent = await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="user"]')].pop()?.innerText`, 5000, 'the starter sent')
  assert.match(sent, /几点/)
  await app.waitFor(`!!document.querySelector('[data-testid="tool-card"][data-tool="get_current_time"]')`, 20000, 'the time card')
  await sleep(800)
  app.screenshot('starters-zh-time-card')

  await pick(app, 'error')
  await app.waitFor(`${lastAssistant}?.status === 'error'`, 20000, 'the simulated error')
  // The virtualized list shows a new item once measured: wait for its text.
  const failed = await app.waitFor(`${lastAssistant}?.text`, 5000, 'the error shown')
  assert.match(failed, /500|server error|服务器/i)

  await pick(app, 'think')
  const think = await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && m })()`, 20000, 'the thinking answer')
  assert.doesNotMatch(think.text, /Things to try|offline demo model built into Airlock/, 'not the generic intro')
  running.delete(app)
  await app.close()
})
