// End-to-end: the real app on a provider of the Anthropic Messages kind
// (AIRLOCK_API_KIND=anthropic + AIRLOCK_BASE_URL), against a scripted server
// that writes the events Anthropic's streaming documentation describes and
// records every request: a tool-use card forms while input_json_delta
// arrives, Run, and the next request carries the signed thinking and the
// tool_result.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { startApp } from './harness.mjs'

const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds'
const THINKING = 'The user wants 17*23; the calculate tool does that.'
const requests = []
let server, baseURL

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

// The first answer: thinking (with its signature), a sentence, then a
// tool_use whose input arrives in pieces slowly enough to watch it form.
// The second: text that uses the result.
async function answer(res, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const send = async (type, data, pause = 40) => {
    res.write(event(type, data))
    await sleep(pause)
  }
  const results = body.messages.at(-1).content.filter?.((b) => b.type === 'tool_result') ?? []
  await send('message_start', {
    message: { id: 'msg_e2e', type: 'message', role: 'assistant', content: [], model: body.model, stop_reason: null, stop_sequence: null, usage: { input_tokens: 120, cache_read_input_tokens: 80, cache_creation_input_tokens: 0, output_tokens: 1 } },
  })
  if (results.length > 0) {
    await send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
    await send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: `The result is ${results[0].content?.[0]?.text ?? '?'}.` } })
    await send('content_block_stop', { index: 0 })
    await send('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } })
    await send('message_stop', {})
    res.end()
    return
  }
  await send('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } })
  await send('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: THINKING.slice(0, 20) } })
  await send('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: THINKING.slice(20) } })
  await send('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } })
  await send('content_block_stop', { index: 0 })
  await send('content_block_start', { index: 1, content_block: { type: 'text', text: '' } })
  await send('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Let me calculate that.' } })
  await send('content_block_stop', { index: 1 })
  await send('ping', {})
  await send('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_e2e_01', name: 'calculate', input: {} } }, 300)
  for (const piece of ['{"expr', 'ession": "1', '7*2', '3"}']) await send('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: piece } }, 300)
  await send('content_block_stop', { index: 2 })
  await send('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 60 } })
  await send('message_stop', {})
  res.end()
}

before(async () => {
  server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/messages') {
        const body = JSON.parse(String(Buffer.concat(chunks)))
        requests.push({ headers: req.headers, body })
        void answer(res, body)
        return
      }
      if (req.url.startsWith('/v1/models')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ data: [{ id: 'claude-e2e', type: 'model' }], has_more: false, first_id: 'claude-e2e', last_id: 'claude-e2e' }))
        return
      }
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no ${req.url}` } }))
    })
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  baseURL = `http://127.0.0.1:${server.address().port}`
})
after(() => server?.close())

const card = (tool, state) => `document.querySelector('[data-testid="tool-card"][data-tool="${tool}"]${state ? `[data-state="${state}"]` : ''}')`
const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText } : null })()`

test('anthropic: a tool_use forms as a card, runs, and the next request carries the signed thinking and the tool_result', async () => {
  const app = await startApp({
    env: { AIRLOCK_API_KIND: 'anthropic', AIRLOCK_BASE_URL: baseURL, AIRLOCK_API_KEY: 'sk-ant-e2e', AIRLOCK_MODEL: 'claude-e2e', AIRLOCK_TOOL_MODE: 'native' },
  })
  try {
    await app.click('new-chat')
    await app.type('composer', 'please calculate 17*23')
    await app.click('send')

    const forming = await app.waitFor(
      `(() => { const f = document.querySelector('[data-testid="forming-card"][data-tool="calculate"]'); return f && { text: f.innerText, buttons: f.querySelectorAll('button[data-testid="approve"]').length } })()`,
      15000,
      'a forming card while input_json_delta arrives',
    )
    assert.equal(forming.buttons, 0, 'a forming card cannot be approved')
    app.screenshot('anthropic-forming')
    await app.waitFor(`!!${card('calculate', 'pending')}`, 15000, 'the pending card')
    const first = requests[0]
    assert.equal(first.headers['x-api-key'], 'sk-ant-e2e')
    assert.ok(first.body.tools.some((t) => t.name === 'calculate' && t.input_schema), 'the tools went as Anthropic tools')
    assert.ok(first.body.tools.at(-1).cache_control, 'the tool definitions are cacheable')
    assert.match(await app.eval(`document.body.innerText`), /17\*23/)

    await app.eval(`${card('calculate')}.querySelector('[data-testid="approve"]').click()`)
    await app.waitFor(`(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /The result is 391/.test(m.text) })()`, 20000, 'the answer using the result')
    const next = requests[1].body.messages
    const asst = next.find((m) => m.role === 'assistant' && m.content.some((b) => b.type === 'tool_use'))
    assert.deepEqual(
      asst.content.map((b) => b.type),
      ['thinking', 'text', 'tool_use'],
    )
    assert.equal(asst.content[0].signature, SIGNATURE, 'the thinking went back with its signature')
    assert.equal(asst.content[0].thinking, THINKING)
    assert.deepEqual(asst.content[2].input, { expression: '17*23' })
    const results = next.at(-1).content.filter((b) => b.type === 'tool_result')
    assert.equal(results.length, 1)
    assert.equal(results[0].tool_use_id, 'toolu_e2e_01')
    assert.equal(results[0].content[0].text, '391')
    assert.equal(results[0].is_error, undefined)
    // The thinking showed as reasoning, and the token line says the cache read.
    assert.match(await app.eval(`document.body.innerText`), /cache: 80 read/)
    app.screenshot('anthropic-done')
  } finally {
    await app.close()
  }
})
