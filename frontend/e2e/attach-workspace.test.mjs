// End-to-end: a server that says its model has no vision, and a workspace
// file attached from the Files panel. An Ollama-like server (its /api/show
// capabilities without "vision", as Ollama 0.6+ answers) serves llama3.2; a
// chat works on a folder holding notes.md and photo.png. From the Files
// panel both are attached to the message; the composer warns, naming the
// server, that the image will be left out; the gauge counts the waiting
// files; the request sent holds the text file's block and no image
// (English and Chinese, light and dark screenshots).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { look, startApp } from './harness.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const running = new Set()
const bodies = []
const asked = []
let server, baseURL

// A 48×32 PNG (a gradient, so its thumbnail shows).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAADAAAAAgCAIAAADbtmxLAAAARklEQVR4nOzOQQ2AQBDAwE04MUhEIrJOQr/7mEkF9Lzff2Y29cwqhoqhYqgYKoaKoWKoGCqGiqFiqBgqhoqhYqjcAAAA//+enAMCY6lggAAAAABJRU5ErkJggg=='

before(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      asked.push(`${req.method} ${req.url}`)
      const json = (v) => (res.writeHead(200, { 'content-type': 'application/json' }), res.end(JSON.stringify(v)))
      if (req.url === '/v1/models') return json({ object: 'list', data: [{ id: 'llama3.2', object: 'model', created: 1745348226, owned_by: 'library' }] })
      if (req.url === '/api/show')
        return json({ details: { format: 'gguf', family: 'llama' }, model_info: { 'llama.context_length': 131072 }, capabilities: ['completion', 'tools'] })
      if (req.url === '/v1/chat/completions') {
        bodies.push(JSON.parse(body))
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'llama3.2', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
        res.end(chunk({ role: 'assistant', content: 'Read your notes.' }) + chunk({}, 'stop') + 'data: [DONE]\n\n')
        return
      }
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"error":"404 page not found"}')
    })
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  baseURL = `http://127.0.0.1:${server.address().port}/v1`
})
after(async () => {
  for (const a of running) await a.kill()
  server?.close()
})

/** A bound call from the page. Just after start the inspector may lose an awaited promise ("Missing injected
 * script", the page's context being replaced); the call is made again then, once (a second empty chat, should
 * CreateChat have run, does no harm: the test works on the one returned). */
async function call(app, expr) {
  try {
    return await app.eval(expr)
  } catch (e) {
    if (!/Missing injected script/.test(e.message)) throw e
    await app.waitFor(`!!document.querySelector('[data-testid="composer"]')`, 20000, 'UI again')
    return app.eval(expr)
  }
}

/** Opens a file of the Files panel and presses its Attach to message. */
async function attachFromPanel(app, path, count) {
  await app.waitFor(`(() => { const e = [...document.querySelectorAll('[data-testid="file-entry"]')].find((e) => e.dataset.path === ${JSON.stringify(path)}); e?.click(); return !!e })()`, 10000, `${path} in the panel`)
  await app.waitFor(`document.querySelector('[data-testid="file-viewer"]')?.dataset.path === ${JSON.stringify(path)} && !!document.querySelector('[data-testid="attach-file"]')`, 10000, `${path} open`)
  await app.click('attach-file')
  await app.waitFor(`document.querySelectorAll('[data-testid="pending-attachment"]').length === ${count}`, 10000, `${path} waiting in the composer`)
}

test('Files panel → Attach to message; the server says the model has no vision; the gauge counts the files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-attach-ws-'))
  writeFileSync(join(dir, 'notes.md'), '# Plan\n\n- ship it\n')
  writeFileSync(join(dir, 'photo.png'), Buffer.from(PNG, 'base64'))
  const app = await startApp({ env: { AIRLOCK_BASE_URL: baseURL, AIRLOCK_MODEL: 'llama3.2', AIRLOCK_TOOL_MODE: 'text' } })
  running.add(app)
  const chat = await call(app, `window.go.main.App.CreateChat()`)
  await call(app, `window.go.main.App.SetWorkspace(${JSON.stringify(chat.id)}, 'folder', ${JSON.stringify(dir)})`)
  const vision = await call(app, `window.go.main.App.ModelVision('', '')`)
  assert.deepEqual([vision.sees, vision.source, vision.server], ['no', 'server', 'no'], 'the server’s word on vision')

  let first = true
  for (const [language, theme] of [['en', 'light'], ['en', 'dark'], ['zh', 'light'], ['zh', 'dark']]) {
    await look(app, language, theme)
    await app.click(`[data-testid="chat-item"][data-chat-id="${chat.id}"]`)
    if (!(await app.eval(`!!document.querySelector('[data-testid="files-panel"]')`))) await app.click('files-toggle')
    await attachFromPanel(app, 'notes.md', 1)
    await sleep(300)
    app.screenshot(`attach-ws-panel-${language}-${theme}`)
    await attachFromPanel(app, 'photo.png', 2)
    const warn = await app.waitFor(`document.querySelector('[data-testid="attach-warning"]')?.innerText`, 10000, 'the composer warning')
    assert.match(warn, language === 'en' ? /The server says llama3\.2 does not take images/ : /服务器表示 llama3\.2 不接受图片/)
    await sleep(400)
    app.screenshot(`attach-ws-warning-${language}-${theme}`)
    // The chat's options follow the server by default, and say so.
    await app.click('chat-options')
    const opt = await app.waitFor(`(() => { const s = document.querySelector('[data-testid="model-vision"]'); return s && { value: s.value, first: s.options[0].textContent, unseen: document.querySelector('[data-testid="tool-images-unseen"]')?.innerText } })()`, 10000, 'the image options')
    assert.equal(opt.value, '')
    assert.match(opt.first, language === 'en' ? /As the server says: no/ : /按服务器所说：否/)
    assert.ok(opt.unseen, 'the tools’ images switch says they are not sent')
    await app.eval(`(document.querySelector('[data-testid="image-options"]').scrollIntoView(), true)`)
    await sleep(300)
    app.screenshot(`attach-ws-options-${language}-${theme}`)
    await app.click('chat-options')
    if (first) {
      // The gauge counts the waiting files (the image only as its note: it is not sent).
      await app.click('context-gauge')
      const tokens = await app.waitFor(`Number(document.querySelector('[data-testid="context-part-attachments"]')?.dataset.tokens || 0)`, 10000, 'the attachments in the gauge')
      assert.ok(tokens > 5, `attachments part ${tokens}`)
      await sleep(300)
      app.screenshot('attach-ws-gauge-en-light')
      await app.click('context-gauge')
      first = false
    }
  }

  // Sent: the text file's block goes, the image is left out and the model told.
  await app.type('composer', 'Summarise')
  await app.click('send')
  await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop()?.dataset.status === 'complete'`, 20000, 'the answer')
  const sent = JSON.stringify(bodies.at(-1).messages.at(-1))
  assert.match(sent, /File: notes\.md\\n```\\n# Plan\\n\\n- ship it\\n```/, 'the workspace file as a text block')
  assert.ok(!sent.includes('image_url'), 'no image to a model its server says has no vision')
  assert.match(sent, /photo\.png \(48×32\) attached: this model does not take images/)
  assert.ok(asked.includes('POST /api/show'), 'the server was asked')
  running.delete(app)
  await app.close()
})
