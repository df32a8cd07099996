// End-to-end: attachments on the real app. A PNG set on the paperclip's
// input, a screenshot pasted and a text file dropped on the composer go with
// one message; the request the demo model (its own server, behind a
// recording proxy) receives holds the image as an image_url data URL and the
// file as a text block with its name; the demo model describes the image;
// the attachments are shown in the message and survive a restart (English
// and Chinese, light and dark screenshots).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startApp } from './harness.mjs'
import { startRecordingDemo } from './recorder.mjs'

const running = new Set()
let demo, proxyURL, bodies

before(async () => {
  demo = await startRecordingDemo('20ms')
  ;({ url: proxyURL, bodies } = demo)
})
after(async () => {
  for (const a of running) await a.kill()
  demo?.close()
})

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
// A 1×1 PNG (the paperclip) and a 2×2 one (the paste), made in the page as File objects.
const PNG1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const PNG2 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR42mP8z8DwnwEJMDHgEEDgAwC9CQMCwB4tPQAAAABJRU5ErkJggg=='
const file = (b64, name, type) => `new File([Uint8Array.from(atob(${JSON.stringify(b64)}), c => c.charCodeAt(0))], ${JSON.stringify(name)}, { type: ${JSON.stringify(type)} })`
const attachedInMessage = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="user"]')].pop(); if (!m) return null
  const imgs = [...m.querySelectorAll('[data-testid="message-attachment"] img')]
  return { count: m.querySelectorAll('[data-testid="message-attachment"]').length, loaded: imgs.filter(i => i.complete && i.naturalWidth > 0 && i.src.startsWith('blob:')).length, text: m.innerText } })()`

test('attach by paperclip, paste and drop; the request holds them; they survive a restart', async () => {
  let app = await startApp({ env: { AIRLOCK_BASE_URL: proxyURL, AIRLOCK_MODEL: 'airlock-demo' } })
  running.add(app)
  const dataDir = app.dataDir
  await app.click('new-chat')
  // The paperclip's input.
  await app.eval(`(() => { const dt = new DataTransfer(); dt.items.add(${file(PNG1, 'dot.png', 'image/png')})
    const input = document.querySelector('[data-testid="attach-input"]'); input.files = dt.files
    input.dispatchEvent(new Event('change', { bubbles: true })); return true })()`)
  // A pasted screenshot.
  await app.eval(`(() => { const dt = new DataTransfer(); dt.items.add(${file(PNG2, 'image.png', 'image/png')})
    const ev = new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })
    document.querySelector('[data-testid="composer"]').dispatchEvent(ev); return true })()`)
  // A text file dropped on the composer.
  await app.eval(`(() => { const dt = new DataTransfer(); dt.items.add(new File(['name,qty\\napples,3\\n'], 'fruit.csv', { type: 'text/csv' }))
    const target = document.querySelector('[data-testid="composer"]')
    for (const type of ['dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }))
    return true })()`)
  await app.waitFor(`document.querySelectorAll('[data-testid="pending-attachment"]').length === 3`, 10000, 'three files waiting')
  await app.type('composer', 'What do you see?')
  await sleep(300)
  app.screenshot('attach-pending')
  await app.click('send')
  const answer = await app.waitFor(`(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m?.dataset.status === 'complete' && m.innerText })()`, 20000, 'the answer')
  assert.match(answer, /I see 2 images/)
  assert.match(answer, /1×1 PNG/)
  assert.match(answer, /2×2 PNG/)

  const req = bodies.at(-1)
  const user = req.messages.at(-1)
  assert.equal(user.role, 'user')
  assert.ok(Array.isArray(user.content), 'the message is sent as content parts')
  const images = user.content.filter((p) => p.type === 'image_url').map((p) => p.image_url.url)
  assert.deepEqual(images, [`data:image/png;base64,${PNG1}`, `data:image/png;base64,${PNG2}`], 'both images, byte for byte')
  const text = user.content.filter((p) => p.type === 'text').map((p) => p.text).join('\n')
  assert.match(text, /What do you see\?/)
  assert.match(text, /File: fruit\.csv\n```\nname,qty\napples,3\n```/)

  const shown = await app.waitFor(`(() => { const a = ${attachedInMessage}; return a && a.count === 3 && a.loaded === 2 && a })()`, 10000, 'the attachments in the message')
  assert.match(shown.text, /fruit\.csv/)
  assert.equal(await app.eval(`document.querySelectorAll('[data-testid="pending-attachment"]').length`), 0, 'the composer is cleared')
  await sleep(300)
  app.screenshot('attach-sent-en')

  // Restart on the same data, in Chinese, then dark: the attachments are still there.
  for (const [language, theme, tag] of [['zh', 'light', 'zh'], ['en', 'dark', 'dark']]) {
    const s = await app.eval(`window.go.main.App.GetSettings()`)
    await app.eval(`window.go.main.App.SaveSettings(${JSON.stringify({ ...s, language, theme })})`)
    running.delete(app)
    await app.close()
    app = await startApp({ dataDir, env: { AIRLOCK_BASE_URL: proxyURL, AIRLOCK_MODEL: 'airlock-demo' } })
    running.add(app)
    await app.click('[data-testid="chat-item"]')
    await app.waitFor(`(() => { const a = ${attachedInMessage}; return a && a.count === 3 && a.loaded === 2 })()`, 15000, `attachments after restart (${tag})`)
    // A file waiting, for the screenshot of the composer.
    await app.eval(`(() => { const dt = new DataTransfer(); dt.items.add(${file(PNG2, 'shot.png', 'image/png')}); dt.items.add(new File(['x'], 'notes.md'))
      const input = document.querySelector('[data-testid="attach-input"]'); input.files = dt.files
      input.dispatchEvent(new Event('change', { bubbles: true })); return true })()`)
    await app.waitFor(`document.querySelectorAll('[data-testid="pending-attachment"]').length === 2`, 10000, 'files waiting')
    await sleep(400)
    app.screenshot(`attach-${tag}`)
  }
  running.delete(app)
  await app.close()
})

test('a file the app refuses is said, with the reason, and nothing is sent', async () => {
  const app = await startApp({ env: { AIRLOCK_BASE_URL: proxyURL, AIRLOCK_MODEL: 'airlock-demo' } })
  running.add(app)
  await app.click('new-chat')
  const before = bodies.length
  await app.eval(`(() => { const dt = new DataTransfer(); dt.items.add(new File(['<svg onload="alert(1)"/>'], 'cat.png', { type: 'image/png' }))
    const input = document.querySelector('[data-testid="attach-input"]'); input.files = dt.files
    input.dispatchEvent(new Event('change', { bubbles: true })); return true })()`)
  await app.waitFor(`document.querySelectorAll('[data-testid="pending-attachment"]').length === 1`, 10000, 'the file waiting')
  await app.click('send')
  const toast = await app.waitFor(`[...document.querySelectorAll('[data-testid="toast"]')].map(t => t.innerText).join(' ').match(/cat\\.png is named like an image/)?.[0]`, 10000, 'the refusal')
  assert.ok(toast)
  assert.equal(bodies.length, before, 'nothing reached the model')
  assert.equal(await app.eval(`document.querySelectorAll('[data-testid="pending-attachment"]').length`), 1, 'the file stays in the composer')
  await sleep(300)
  app.screenshot('attach-refused')
  running.delete(app)
  await app.close()
})

test('a model that refuses images: learned, the answer asked again without them, said; the composer warns next time', async () => {
  const app = await startApp({ env: { AIRLOCK_BASE_URL: proxyURL, AIRLOCK_MODEL: 'airlock-demo-text-only', AIRLOCK_TOOL_MODE: 'text' } })
  running.add(app)
  await app.click('new-chat')
  const before = bodies.length
  await app.eval(`(() => { const dt = new DataTransfer(); dt.items.add(${file(PNG1, 'dot.png', 'image/png')})
    const input = document.querySelector('[data-testid="attach-input"]'); input.files = dt.files
    input.dispatchEvent(new Event('change', { bubbles: true })); return true })()`)
  await app.waitFor(`document.querySelectorAll('[data-testid="pending-attachment"]').length === 1`, 10000, 'the file waiting')
  await app.type('composer', 'hello')
  await app.click('send')
  await app.waitFor(`[...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop()?.dataset.status === 'complete'`, 20000, 'the answer')
  await app.waitFor(`document.body.innerText.includes('does not take images')`, 10000, 'the notice')
  const sent = bodies.slice(before)
  assert.ok(JSON.stringify(sent[0]).includes('image_url'), 'the first request carried the image')
  const last = JSON.stringify(sent.at(-1))
  assert.ok(!last.includes('image_url'), 'the request after the refusal carries no image')
  assert.match(last, /this model does not take images/, 'the model is told a file was there')
  // Next time, the composer says so before sending.
  await app.eval(`(() => { const dt = new DataTransfer(); dt.items.add(${file(PNG2, 'again.png', 'image/png')})
    const input = document.querySelector('[data-testid="attach-input"]'); input.files = dt.files
    input.dispatchEvent(new Event('change', { bubbles: true })); return true })()`)
  const warn = await app.waitFor(`document.querySelector('[data-testid="attach-warning"]')?.innerText`, 10000, 'the composer warning')
  assert.match(warn, /airlock-demo-text-only is known not to take images.*Tools menu/s)
  await sleep(300)
  app.screenshot('attach-no-vision')
  // The chat's options say what was learned, and offer the switch for tools' images.
  await app.click('chat-options')
  const opts = await app.waitFor(`(() => { const s = document.querySelector('[data-testid="model-vision"]'); const t = document.querySelector('[data-testid="tool-images"]'); return s && t && { sees: s.value, toolImages: t.getAttribute('aria-checked') } })()`, 10000, 'the image options')
  assert.deepEqual(opts, { sees: 'no', toolImages: 'true' })
  await app.eval(`(document.querySelector('[data-testid="image-options"]').scrollIntoView(), true)`)
  await sleep(300)
  app.screenshot('attach-options')
  running.delete(app)
  await app.close()
})
