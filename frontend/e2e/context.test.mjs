// End-to-end: a conversation that never outgrows the model. A scripted
// OpenAI-compatible server enforces a context window the way vLLM does (HTTP
// 400, "This model's maximum context length is … tokens", counting a token
// per four characters); the model writes a 20 KB file and reads it back 30
// times. The loop must finish without an overflow error and with no user
// action (always-allow rules), every request must carry the tools, the
// stored results stay whole, and a compaction shows in the chat. Screenshots
// of the gauge and the compaction in English and Chinese, light and dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { newDataDir, startApp } from './harness.mjs'

const WINDOW = 8192
const READS = 30
const FILE = Array.from({ length: 400 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog; notes about the plan.`).join('\n').slice(0, 20 << 10)
const running = new Set()
let server, baseURL
const seen = { bodies: [], refused: 0, answers: 0, summaries: 0 }

const tokens = (body) => {
  let chars = JSON.stringify(body.tools ?? []).length
  for (const m of body.messages ?? []) {
    chars += (m.content ?? '').length
    for (const tc of m.tool_calls ?? []) chars += tc.function.name.length + tc.function.arguments.length
  }
  return Math.ceil(chars / 4)
}

function stream(res, delta, finish, prompt) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' })
  const chunk = (d, f) => res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'window-model', choices: [{ index: 0, delta: d, finish_reason: f }] })}\n\n`)
  chunk(delta, null)
  chunk({}, finish)
  res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'window-model', choices: [], usage: { prompt_tokens: prompt, completion_tokens: 9, total_tokens: prompt + 9 } })}\n\n`)
  res.end('data: [DONE]\n\n')
}

function call(n, name, args) {
  return { role: 'assistant', tool_calls: [{ index: 0, id: `call_${n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }
}

before(async () => {
  server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      if (req.method === 'POST' && !req.url.endsWith('/chat/completions')) {
        // Window discovery asks other servers' endpoints (Ollama's /api/show…): this one has none.
        res.writeHead(404, { 'Content-Type': 'application/json' })
        return res.end('{"error":"not found"}')
      }
      if (req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        return res.end(JSON.stringify({ object: 'list', data: [{ id: 'window-model', object: 'model' }] }))
      }
      const body = JSON.parse(String(Buffer.concat(chunks)))
      const size = tokens(body)
      seen.bodies.push({ body, size })
      if (size > WINDOW) {
        seen.refused++
        res.writeHead(400, { 'Content-Type': 'application/json' })
        return res.end(JSON.stringify({ object: 'error', type: 'BadRequestError', code: 400,
          message: `This model's maximum context length is ${WINDOW} tokens. However, you requested ${size} tokens in the messages, Please reduce the length of the messages.` }))
      }
      if (!body.tools && /^You summarise/.test(body.messages?.[0]?.content ?? '')) {
        seen.summaries++
        return stream(res, { role: 'assistant', content: `The user asked to write notes.txt (20 KB) and read it back ${READS} times; ${seen.answers - 1} reads are done, each returned the whole file.` }, 'stop', size)
      }
      const n = ++seen.answers
      if (n === 1) return stream(res, call(n, 'write_file', { path: 'notes.txt', content: FILE }), 'tool_calls', size)
      // A different offset each time: the same call three times in a row would wait for a person (loop guard).
      if (n <= READS + 1) return stream(res, call(n, 'read_file', { path: 'notes.txt', offset: n - 1 }), 'tool_calls', size)
      return stream(res, { role: 'assistant', content: `All ${READS} reads are done.` }, 'stop', size)
    })
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  baseURL = `http://127.0.0.1:${server.address().port}/v1`
})
after(async () => {
  for (const a of running) await a.kill()
  server?.close()
})

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
// The message list is virtualized and stops following the end while it measures large cards: scroll it there.
const toBottom = `(() => { const sc = document.querySelector('[data-virtuoso-scroller]'); if (sc) sc.scrollTop = sc.scrollHeight })()`

async function launch(dataDir) {
  const app = await startApp({ dataDir, env: { AIRLOCK_BASE_URL: baseURL, AIRLOCK_MODEL: 'window-model', AIRLOCK_TOOL_MODE: 'native', AIRLOCK_CONTEXT_WINDOW: String(WINDOW) } })
  running.add(app)
  return app
}
async function stop(app) {
  running.delete(app)
  return app.close()
}
const gauge = (app) => app.waitFor(`(() => { const g = document.querySelector('[data-testid="context-gauge"]'); return g && { used: +g.dataset.used, window: +g.dataset.window, level: g.dataset.level } })()`, 10000, 'the gauge')

test('a 30-call tool loop with 20 KB results at an 8k window finishes, carries its tools, and compacts visibly', async () => {
  const dataDir = newDataDir()
  let app = await launch(dataDir)
  const s = await app.eval(`window.go.main.App.GetSettings()`)
  await app.eval(`window.go.main.App.SaveSettings(${JSON.stringify({ ...s, maxTurns: 100, language: 'en', theme: 'light' })})`)
  for (const tool of ['write_file', 'read_file']) {
    await app.eval(`window.go.main.App.AddRule(${JSON.stringify({ effect: 'allow', tool, match: 'any', scope: 'always' })})`)
  }
  await app.click('new-chat')
  await app.type('composer', 'Write notes.txt, then read it back 30 times.')
  await app.click('send')
  try {
    // Read from the store: the list is virtualized, and the end is what counts.
    await app.waitFor(`(async () => { const id = document.querySelector('[data-testid="chat-item"]')?.dataset.chatId; if (!id) return false
      const m = (await window.go.main.App.ListMessages(id)).pop(); return m.role === 'assistant' && m.status === 'complete' && /All 30 reads/.test(m.content) })()`, 180000, 'the loop to finish')
    await app.waitFor(`(() => { ${toBottom}; return /All 30 reads/.test(document.querySelector('main')?.innerText ?? '') })()`, 10000, 'the last answer shown')
  } catch (e) {
    const id = await app.eval(`document.querySelector('[data-testid="chat-item"]')?.dataset.chatId`)
    const msgs = id ? await app.eval(`window.go.main.App.ListMessages(${JSON.stringify(id)})`) : []
    console.error(`# answers ${seen.answers}, refused ${seen.refused}, summaries ${seen.summaries}, sizes ${seen.bodies.map((b) => b.size)}`)
    console.error(`# last messages: ${JSON.stringify(msgs.slice(-3).map((m) => [m.role, m.kind, m.status, m.errorCode, m.errorMessage, m.content.slice(0, 80)]))}`)
    console.error(`# page: ${(await app.eval('document.body.innerText')).slice(-600)}`)
    throw e
  }

  assert.equal(seen.refused, 0, `no request over the window (sizes ${seen.bodies.map((b) => b.size)})`)
  const work = seen.bodies.filter((b) => b.body.tools)
  assert.equal(work.length, READS + 2, `requests: ${JSON.stringify(seen.bodies.map((b) => [b.size, !!b.body.tools, b.body.messages?.[0]?.content?.slice(0, 40)]))}`)
  for (const { body, size } of work) {
    assert.equal(body.tools.length, work[0].body.tools.length, 'every request offers the tools')
    assert.ok(size <= WINDOW)
  }
  const chatId = await app.eval(`document.querySelector('[data-testid="chat-item"]').dataset.chatId`)
  const calls = await app.eval(`window.go.main.App.ListCalls(${JSON.stringify(chatId)})`)
  assert.equal(calls.length, READS + 1)
  assert.ok(calls.every((c) => c.state === 'done'), 'every call ran without a click')
  assert.ok(calls.slice(1).every((c) => c.result.length > 15000 && c.result.includes('Line 250:')), 'the stored results are whole')
  const last = seen.bodies.at(-1).body.messages
  assert.ok(last.some((m) => /elided to fit the context window/.test(m.content ?? '')), 'old results went as stubs')

  const g = await gauge(app)
  assert.equal(g.window, WINDOW)
  assert.ok(g.used > 0 && g.used <= WINDOW, `used ${g.used}`)

  // Compact now (the gauge's button): the summary shows where it folds the chat.
  await app.click('context-gauge')
  await app.waitFor(`!!document.querySelector('[data-testid="context-details"]')`, 5000, 'the gauge details')
  await app.click('compact-now')
  await app.waitFor(`(() => {
    ${toBottom}
    return !!document.querySelector('[data-testid="compaction"][data-state="active"]')
  })()`, 30000, 'the compaction in the chat').catch(async (e) => {
    console.error(`# page: ${(await app.eval('document.body.innerText')).slice(-800)}`)
    throw e
  })
  assert.ok(seen.summaries >= 1)
  const sums = await app.eval(`window.go.main.App.ListSummaries(${JSON.stringify(chatId)})`)
  assert.equal(sums.at(-1).state, 'active')
  const msgs = await app.eval(`window.go.main.App.ListMessages(${JSON.stringify(chatId)})`)
  assert.equal(msgs[0].content, 'Write notes.txt, then read it back 30 times.', 'the messages stay')

  for (const [language, theme] of [['en', 'light'], ['en', 'dark'], ['zh', 'light'], ['zh', 'dark']]) {
    const cur = await app.eval(`window.go.main.App.GetSettings()`)
    await app.eval(`window.go.main.App.SaveSettings(${JSON.stringify({ ...cur, language, theme })})`)
    await stop(app)
    app = await launch(dataDir)
    await app.click(`[data-testid="chat-item"][data-chat-id="${chatId}"]`)
    await gauge(app)
    try {
      await app.waitFor(`!!document.querySelector('[data-testid="compaction"]')`, 10000, 'the compaction mark')
    } catch (e) {
      const sums = await app.eval(`window.go.main.App.ListSummaries(${JSON.stringify(chatId)})`)
      const ids = await app.eval(`[...document.querySelectorAll('[data-testid="message"]')].map((m) => m.dataset.messageId)`)
      console.error(`# summaries ${JSON.stringify(sums.map((x) => [x.throughId, x.state]))}; rendered ${JSON.stringify(ids)}`)
      app.screenshot('context-debug')
      throw e
    }
    await app.waitFor(`(() => {
      ${toBottom}
      const c = document.querySelector('[data-testid="compaction"]')
      const r = c?.getBoundingClientRect()
      return !!r && r.top > 60 && r.bottom < window.innerHeight - 80
    })()`, 10000, 'the compaction in view')
    // The list may remount its items while it settles (a click on a detached
    // button is lost): click again, at most every half second, until shown.
    await app.waitFor(`(() => {
      ${toBottom}
      if (document.querySelector('[data-testid="summary-text"]')) return true
      const b = document.querySelector('[data-testid="compaction"] [data-testid="summary-toggle"]')
      if (b && b.getAttribute('aria-expanded') !== 'true') b.click()
      return false
    })()`, 10000, 'the summary shown')
    await sleep(400)
    app.screenshot(`context-compaction-${language}-${theme}`)
    await app.click('context-gauge')
    await app.waitFor(`!!document.querySelector('[data-testid="context-details"]')`, 5000, 'the gauge details')
    await sleep(400)
    app.screenshot(`context-gauge-${language}-${theme}`)
    await app.click('context-gauge')
  }

  // Undo: the view goes back to elision; the mark says so.
  await app.waitFor(`(() => {
    ${toBottom}
    const b = document.querySelector('[data-testid="compaction"] [data-testid="summary-undo"]')
    b?.click()
    return !!b
  })()`, 10000, 'Undo on the compaction')
  await app.waitFor(`!!document.querySelector('[data-testid="compaction"][data-state="undone"]')`, 10000, 'the undone mark')
  const after = await app.eval(`window.go.main.App.ContextUsage(${JSON.stringify(chatId)}, '')`)
  assert.equal(after.summarized, 0)
  await stop(app)
})
