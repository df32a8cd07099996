// End-to-end: a model served by an Ollama-like server that runs it with less
// than it can take. Settings ▸ Providers shows the window, where it came
// from and how to raise it (English and Chinese, light and dark); the user
// sets a window and an answer budget that the next request carries; an
// answer the budget cut off says so and Continue asks the model to go on.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { startApp, newDataDir } from './harness.mjs'

const running = new Set()
const servers = []
after(async () => {
  for (const a of running) await a.kill()
  for (const s of servers) s.close()
})
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// An Ollama-like server: /api/show says 131072, /api/ps that the loaded
// model runs with 4096; answers stop at their budget ("length").
function ollama() {
  const requests = []
  const srv = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const json = (v) => {
        res.setHeader('Content-Type', 'application/json')
        res.end(JSON.stringify(v))
      }
      if (req.url === '/v1/models') return json({ object: 'list', data: [{ id: 'llama3.2:latest', object: 'model', owned_by: 'library' }] })
      if (req.url === '/api/show') return json({ parameters: '', model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 } })
      if (req.url === '/api/ps') return json({ models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', context_length: 4096 }] })
      if (req.url === '/v1/chat/completions') {
        requests.push(JSON.parse(body))
        res.setHeader('Content-Type', 'text/event-stream')
        const chunk = (c) => `data: ${JSON.stringify(c)}\n\n`
        res.end(
          chunk({ choices: [{ delta: { content: 'Here is the first part of a long answer, and then' }, finish_reason: null }] }) +
            chunk({ choices: [{ delta: {}, finish_reason: 'length' }], usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 } }) +
            'data: [DONE]\n\n',
        )
        return
      }
      res.statusCode = 404
      res.end('404 page not found')
    })
  })
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({ srv, url: `http://127.0.0.1:${srv.address().port}/v1`, requests })))
}

async function openWindowSettings(app) {
  await app.click('settings-open')
  await app.click('settings-tab-providers')
  await app.click('[data-testid="provider-row"][data-provider-id]:not([data-provider-id="demo"])')
  const shown = await app.waitFor(`document.querySelector('[data-testid="model-window-tokens"]')?.innerText`, 15000, 'the window shown')
  await app.eval(`document.querySelector('[data-testid="model-window"]').scrollIntoView({ block: 'end' })`)
  return shown
}

test('a model’s context window: shown with its source and the fix, set by the user, and a cut-off answer continued', async () => {
  const { srv, url, requests } = await ollama()
  servers.push(srv)
  const dataDir = newDataDir()
  let app = await startApp({ dataDir })
  running.add(app)
  await app.eval(`(async () => {
    const p = await window.go.main.App.SaveProvider({ id: '', name: 'Local Ollama', baseUrl: ${JSON.stringify(url)}, apiKey: '', model: 'llama3.2:latest', demo: false })
    const s = await window.go.main.App.GetSettings()
    await window.go.main.App.SaveSettings({ ...s, activeProviderId: p.id })
  })()`)

  const shown = await openWindowSettings(app)
  assert.match(shown, /4,?096/)
  const note = await app.eval(`document.querySelector('[data-testid="model-window-note"]').innerText`)
  assert.match(note, /131072/)
  assert.match(note, /OLLAMA_CONTEXT_LENGTH/)
  await sleep(400)
  app.screenshot('context-window-settings-en')

  // The user's window and answer budget; the next request carries the budget.
  await app.type('model-window-input', '8192')
  await app.type('model-window-max-output', '512')
  await app.click('model-window-save')
  await app.waitFor(`document.querySelector('[data-testid="model-window"]')?.dataset.source === 'user'`, 5000, 'the user’s window saved')
  assert.equal(await app.eval(`document.querySelector('[data-testid="model-window"]').dataset.tokens`), '8192')
  await app.eval(`document.querySelector('[data-testid="settings-dialog"]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`)
  await app.waitFor(`!document.querySelector('[data-testid="settings-dialog"]')`, 5000, 'settings closed')

  await app.click('new-chat')
  await app.type('composer', 'Write a long essay about windows.')
  await app.click('send')
  await app.waitFor(`!!document.querySelector('[data-testid="message-cut-off"]')`, 20000, 'the cut-off note')
  assert.equal(requests.at(-1).max_tokens, 512)
  await sleep(400)
  app.screenshot('context-window-cut-off-en')
  await app.click('continue-answer')
  await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="user"]')].pop()?.innerText.includes('Continue exactly where you stopped')`, 10000, 'Continue sent')
  await app.waitFor(`document.querySelectorAll('[data-testid="message"][data-role="assistant"]').length >= 2`, 20000, 'the continued answer')
  assert.equal(requests.length, 2)

  // Chinese, then dark: relaunched on the same data.
  for (const [language, theme, tag] of [['zh', 'light', 'zh'], ['en', 'dark', 'dark']]) {
    const s = await app.eval(`window.go.main.App.GetSettings()`)
    await app.eval(`window.go.main.App.SaveSettings(${JSON.stringify({ ...s, language, theme })})`)
    running.delete(app)
    await app.close()
    app = await startApp({ dataDir })
    running.add(app)
    const again = await openWindowSettings(app)
    assert.match(again, /8,192|8192/)
    await sleep(400)
    app.screenshot(`context-window-settings-${tag}`)
  }
  running.delete(app)
  await app.close()
})
