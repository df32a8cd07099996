// Drives the real, built Airlock binary through WebKit's remote inspector
// (WEBKIT_INSPECTOR_HTTP_SERVER). WebKit speaks its own protocol, not
// Chrome's: page commands are wrapped in Target.sendMessageToTarget and the
// answers come back in Target.dispatchMessageFromTarget.
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'

export const BIN = process.env.AIRLOCK_BIN ?? new URL('../../build/bin/airlock', import.meta.url).pathname
export const ARTIFACTS = process.env.AIRLOCK_ARTIFACTS ?? join(tmpdir(), 'airlock-artifacts')

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

// xdotool drives native windows (GTK dialogs, typed keys); tests that need it skip without it.
export const hasXdotool = (() => {
  try {
    execFileSync('xdotool', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

export function newDataDir() {
  return mkdtempSync(join(tmpdir(), 'airlock-e2e-'))
}

// startApp launches the binary on dataDir and resolves once the UI is ready.
// Under a loaded Xvfb, GTK occasionally fails to open the display on the
// first try ("failed to init GTK"); that launch is retried, nothing else is.
export async function startApp(opts = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchOnce(opts)
    } catch (e) {
      if (attempt >= 3 || !/failed to init GTK/.test(e.message)) throw e
      console.error(`# GTK could not open the display (attempt ${attempt}); retrying`)
      await sleep(1000)
    }
  }
}

async function launchOnce({ dataDir = newDataDir(), env = {} } = {}) {
  const port = await freePort()
  const log = []
  const proc = spawn(BIN, [], {
    // XDG_DATA_HOME: WebKit keeps the page's localStorage there (e.g. the files panel's
    // open/closed state); one per data dir keeps runs from leaking UI state into each other.
    env: {
      ...process.env,
      AIRLOCK_DATA_DIR: dataDir,
      XDG_DATA_HOME: join(dataDir, '.webkit-data'),
      WEBKIT_INSPECTOR_HTTP_SERVER: `127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  proc.stdout.on('data', (d) => log.push(String(d)))
  proc.stderr.on('data', (d) => log.push(String(d)))
  const exited = new Promise((r) => proc.on('exit', (code, signal) => r({ code, signal })))
  const app = new App(proc, port, dataDir, log, exited)
  try {
    await app.connect()
    await app.waitFor(`!!document.querySelector('[data-testid="composer"]')`, 20000, 'UI ready')
  } catch (e) {
    app.kill()
    throw new Error(`${e.message}\n--- app output ---\n${log.join('')}`)
  }
  return app
}

class App {
  constructor(proc, port, dataDir, log, exited) {
    Object.assign(this, { proc, port, dataDir, log, exited })
    this.nextId = 1
    this.pending = new Map()
  }

  async connect() {
    const deadline = Date.now() + 20000
    let page
    while (Date.now() < deadline) {
      try {
        const html = await (await fetch(`http://127.0.0.1:${this.port}/`)).text()
        page = html.match(/\/socket\/\d+\/\d+\/WebPage/)?.[0]
        if (page) break
      } catch {}
      if (this.proc.exitCode !== null) throw new Error(`app exited with ${this.proc.exitCode}`)
      await sleep(100)
    }
    if (!page) throw new Error('inspector never listed the page')
    this.ws = new WebSocket(`ws://127.0.0.1:${this.port}${page}`)
    const targetReady = new Promise((resolve) => {
      this.ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw))
        if (msg.method === 'Target.targetCreated') {
          this.target = msg.params.targetInfo.targetId
          resolve()
        } else if (msg.method === 'Target.dispatchMessageFromTarget') {
          const inner = JSON.parse(msg.params.message)
          const p = this.pending.get(inner.id)
          if (p) {
            this.pending.delete(inner.id)
            inner.error ? p.reject(new Error(JSON.stringify(inner.error))) : p.resolve(inner.result)
          }
        }
      })
    })
    await new Promise((resolve, reject) => {
      this.ws.once('open', resolve)
      this.ws.once('error', reject)
    })
    await targetReady
  }

  send(method, params = {}) {
    const id = this.nextId++
    const message = JSON.stringify({ id, method, params })
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.ws.send(JSON.stringify({ id, method: 'Target.sendMessageToTarget', params: { targetId: this.target, message } }))
    })
  }

  // eval runs an expression in the page and returns its value; a promise is
  // awaited. (WebKit serialises a promise as {} with returnByValue, so every
  // expression is wrapped in an async function and its promise awaited.)
  async eval(expression) {
    const r = await this.send('Runtime.evaluate', { expression: `(async () => (\n${expression}\n))()` })
    if (r.wasThrown) throw new Error(`page threw: ${JSON.stringify(r.result)}`)
    const a = await this.send('Runtime.awaitPromise', { promiseObjectId: r.result.objectId, returnByValue: true })
    if (a.wasThrown) throw new Error(`page threw: ${a.result?.description ?? JSON.stringify(a.result)}`)
    return a.result?.value
  }

  async waitFor(expression, timeout = 10000, what = expression) {
    const deadline = Date.now() + timeout
    let last
    while (Date.now() < deadline) {
      try {
        last = await this.eval(expression)
        if (last) return last
      } catch (e) {
        last = e.message
      }
      await sleep(50)
    }
    throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(last)})`)
  }

  // Helpers that act like a user: fill the composer the way React sees typing.
  async type(testid, text) {
    await this.eval(`(() => {
      const el = document.querySelector('[data-testid="${testid}"]')
      const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype
      Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, ${JSON.stringify(text)})
      el.dispatchEvent(new Event('input', { bubbles: true }))
      el.focus()
    })()`)
  }

  async click(selector) {
    const sel = selector.startsWith('[') ? selector : `[data-testid="${selector}"]`
    await this.waitFor(`!!document.querySelector(${JSON.stringify(sel)})`, 10000, `element ${sel}`)
    await this.eval(`document.querySelector(${JSON.stringify(sel)}).click()`)
  }

  // messages returns what the message list shows.
  messages() {
    return this.eval(`[...document.querySelectorAll('[data-testid="message"]')].map(m => ({
      role: m.dataset.role, status: m.dataset.status, id: m.dataset.messageId, text: m.innerText }))`)
  }

  screenshot(name) {
    const file = join(ARTIFACTS, `${name}.png`)
    execFileSync('mkdir', ['-p', ARTIFACTS])
    execFileSync('import', ['-window', 'root', file])
    return file
  }

  kill() {
    try { this.ws?.terminate() } catch {}
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL')
    return this.exited
  }

  async close() {
    try { this.ws?.close() } catch {}
    if (this.proc.exitCode === null) this.proc.kill('SIGTERM')
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 5000)
    const r = await this.exited
    clearTimeout(t)
    return r
  }
}

/** Language and theme as Settings saves them; the page is loaded again to take them. */
export async function look(app, language, theme) {
  await app.eval(`(async () => { const a = window.go.main.App; const s = await a.GetSettings(); await a.SaveSettings({ ...s, language: ${JSON.stringify(language)}, theme: ${JSON.stringify(theme)} }) })()`)
  // The reload may come before this eval's answer does (a loaded machine): the page it ran in is gone then.
  await app.eval(`(setTimeout(() => location.reload(), 50), true)`).catch(() => {})
  await sleep(800)
  await app.waitFor(`!!document.querySelector('[data-testid="composer"]')`, 20000, 'UI again')
  await sleep(600)
}

/**
 * Types file into the native GTK save dialog titled like title (opened by
 * the app meanwhile) and presses Return, with xdotool. shot(name) may take a
 * screenshot while the dialog shows.
 */
export async function fillSaveDialog(title, file, shot = () => {}) {
  const win = execFileSync('xdotool', ['search', '--sync', '--name', title], { timeout: 15000 }).toString().trim().split('\n')[0]
  if (!win) throw new Error(`no save dialog titled ${title}`)
  await sleep(800)
  shot()
  // There is no window manager under Xvfb (no _NET_ACTIVE_WINDOW): focus the dialog directly.
  try {
    execFileSync('xdotool', ['windowfocus', '--sync', win], { timeout: 5000 })
  } catch {}
  execFileSync('xdotool', ['key', '--window', win, '--clearmodifiers', 'ctrl+a'])
  execFileSync('xdotool', ['type', '--window', win, '--delay', '20', file])
  await sleep(300)
  execFileSync('xdotool', ['key', '--window', win, 'Return'])
}
