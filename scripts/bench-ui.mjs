// bench-ui: Airlock next to an empty Wails v2 react-ts app (same template,
// same WebKitGTK), both run under Xvfb and measured in one run:
//   idle PSS of all processes, CPU over 10 s idle, start to inspector answering
//   and to a usable window, JavaScript loaded at start, delta-to-DOM latency
//   while streaming, opening a 10,000-message chat, reopening a chat holding a
//   3,000-line (232 KB) user message.
// Usage: make bench-ui [RUNS=3]. Not part of `make test` (numbers, no asserts).
// The empty app is built once into ~/.cache/airlock-bench (wails init + npm + go).
import { execFileSync, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'

const require = createRequire(new URL('../frontend/package.json', import.meta.url))
const WebSocket = require('ws')
const root = new URL('..', import.meta.url).pathname
const RUNS = Number(process.env.RUNS ?? 1)
const IDLE_S = Number(process.env.IDLE_SECONDS ?? 10)
const AIRLOCK = process.env.AIRLOCK_BIN ?? join(root, 'build/bin/airlock')
const CACHE = process.env.BENCH_CACHE ?? join(homedir(), '.cache/airlock-bench')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const log = (...a) => console.error('#', ...a)

// ─── the empty app, built once ───
function emptyApp() {
  const dir = join(CACHE, 'empty')
  const bin = join(dir, 'build/bin/empty')
  if (existsSync(bin)) return bin
  mkdirSync(CACHE, { recursive: true })
  const wails = process.env.WAILS ?? join(execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim(), 'bin/wails')
  log('building the empty Wails react-ts app in', dir, '(once)')
  execFileSync('rm', ['-rf', dir])
  execFileSync(wails, ['init', '-n', 'empty', '-t', 'react-ts', '-d', dir], { stdio: 'inherit', cwd: CACHE })
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: join(dir, 'frontend') })
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit', cwd: join(dir, 'frontend') })
  execFileSync('go', ['build', '-tags', 'desktop,production,webkit2_41', '-o', bin, '.'], { stdio: 'inherit', cwd: dir })
  return bin
}

// ─── processes ───
function children(pid) {
  const out = []
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === pid) out.push(Number(d), ...children(Number(d)))
    } catch {}
  }
  return out
}
const tree = (pid) => [pid, ...children(pid)]
const comm = (pid) => { try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() } catch { return '?' } }
function pssKiB(pid) {
  try { return Number(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)/m)[1]) } catch { return 0 }
}
function cpuTicks(pid) {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ')
    return Number(f[11]) + Number(f[12]) // utime + stime (fields 14, 15)
  } catch { return 0 }
}
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100)

// ─── one app under the inspector ───
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
    s.on('error', reject)
  })
}

async function launch(bin, { env = {}, ready }) {
  const port = await freePort()
  const t0 = performance.now()
  const proc = spawn(bin, [], { env: { ...process.env, WEBKIT_INSPECTOR_HTTP_SERVER: `127.0.0.1:${port}`, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  proc.stderr.on('data', (d) => { stderr += d })
  const app = { proc, pending: new Map(), nextId: 1 }
  let page
  const deadline = Date.now() + 30000
  while (!page) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`${bin} did not answer: ${stderr.slice(-2000)}`)
    try { page = (await (await fetch(`http://127.0.0.1:${port}/`)).text()).match(/\/socket\/\d+\/\d+\/WebPage/)?.[0] } catch {}
    if (!page) await sleep(10)
  }
  app.inspectorMs = performance.now() - t0
  app.ws = new WebSocket(`ws://127.0.0.1:${port}${page}`)
  await new Promise((resolve, reject) => {
    app.ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw))
      if (msg.method === 'Target.targetCreated') { app.target = msg.params.targetInfo.targetId; resolve() }
      else if (msg.method === 'Target.dispatchMessageFromTarget') {
        const inner = JSON.parse(msg.params.message)
        const p = app.pending.get(inner.id)
        if (p) { app.pending.delete(inner.id); inner.error ? p.reject(new Error(JSON.stringify(inner.error))) : p.resolve(inner.result) }
      }
    })
    app.ws.once('error', reject)
  })
  app.send = (method, params = {}) => {
    const id = app.nextId++
    return new Promise((resolve, reject) => {
      app.pending.set(id, { resolve, reject })
      app.ws.send(JSON.stringify({ id, method: 'Target.sendMessageToTarget', params: { targetId: app.target, message: JSON.stringify({ id, method, params }) } }))
    })
  }
  app.eval = async (expr) => {
    const r = await app.send('Runtime.evaluate', { expression: `(async () => (\n${expr}\n))()` })
    if (r.wasThrown) throw new Error(`page threw: ${JSON.stringify(r.result)}`)
    const a = await app.send('Runtime.awaitPromise', { promiseObjectId: r.result.objectId, returnByValue: true })
    if (a.wasThrown) throw new Error(`page threw: ${a.result?.description ?? JSON.stringify(a.result)}`)
    return a.result?.value
  }
  app.waitFor = async (expr, timeout = 20000) => {
    const end = Date.now() + timeout
    while (Date.now() < end) {
      try { const v = await app.eval(expr); if (v) return v } catch {}
      await sleep(5)
    }
    throw new Error(`timed out waiting for ${expr}`)
  }
  // Usable: the app's main input is in the DOM and a frame was painted after it.
  await app.waitFor(`!!document.querySelector(${JSON.stringify(ready)})`)
  await app.eval('new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))')
  app.usableMs = performance.now() - t0
  app.close = async () => {
    try { app.ws.close() } catch {}
    const exited = new Promise((r) => proc.exitCode !== null ? r() : proc.on('exit', r))
    proc.kill('SIGTERM')
    const t = setTimeout(() => proc.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(t)
  }
  return app
}

// The two apps as the bench starts them. Airlock gets a new data folder (a new
// database) unless given one, and by default the WebKit data folder of the
// warm-up (as after a first run; the empty app keeps its own in ~/.local/share).
const newDataDir = () => mkdtempSync(join(tmpdir(), 'airlock-bench-'))
const startEmpty = (bin) => launch(bin, { ready: 'input' })
const startAirlock = (dataDir = newDataDir(), webkitData = warmWebKit) =>
  launch(AIRLOCK, { env: { AIRLOCK_DATA_DIR: dataDir, XDG_DATA_HOME: webkitData, NO_AT_BRIDGE: '1' }, ready: '[data-testid="composer"]' })
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)]

// JavaScript the page loaded by the time it was usable: every script resource, by its bytes.
// Before first paint: the page's own <script> tags and modulepreloads (a Vite
// entry and what it imports statically; lazy chunks come later), plus any
// other script that started before first-contentful-paint if the engine reports it.
const JS_AT_START = `(async () => {
  const fcp = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint')?.startTime ?? -1
  const js = performance.getEntriesByType('resource').filter(e => /\\.m?js(\\?|$)/.test(e.name))
  const early = new Set(js.filter(e => e.startTime < fcp).map(e => e.name))
  for (const s of document.querySelectorAll('script[src], link[rel=modulepreload]')) early.add(s.src || s.href)
  const all = new Set([...early, ...js.map(e => e.name)])
  const size = async (set) => { let b = 0; for (const u of set) b += (await (await fetch(u)).arrayBuffer()).byteLength; return b }
  const files = [...early].map(u => u.split('/').pop()).join(', ')
  return { bytes: await size(early), all: await size(all), fcp: fcp >= 0, files }
})()`

// Idle CPU in two windows of IDLE_S: the first starts 5 s after the window is
// usable; the second follows it, after the desktop's caret blink timeout (10 s
// by default) when a focused field's caret rests, as GTK's own fields do
// (Airlock's composer has focus at start; the empty app's input has not).
async function idleFigures(app, label) {
  await sleep(5000) // settle
  const pids = tree(app.proc.pid)
  const cpuOver = async () => {
    const ticks0 = pids.map(cpuTicks)
    await sleep(IDLE_S * 1000)
    return pids.reduce((s, p, i) => s + (cpuTicks(p) - ticks0[i]) * TICK_MS, 0)
  }
  const cpuFirstMs = await cpuOver()
  const cpuMs = await cpuOver()
  const procs = tree(app.proc.pid).map((p) => ({ name: comm(p), pssMiB: pssKiB(p) / 1024 }))
  const pss = procs.reduce((s, p) => s + p.pssMiB, 0)
  log(label, procs.filter((p) => p.pssMiB > 1).map((p) => `${p.name} ${p.pssMiB.toFixed(1)} MiB`).join(', '), `; idle CPU ${cpuFirstMs.toFixed(0)} then ${cpuMs.toFixed(0)} ms / ${IDLE_S} s`)
  return { pss, cpuMs, cpuFirstMs, web: procs.filter((p) => /^WebKitWeb/.test(p.name)).reduce((s, p) => s + p.pssMiB, 0) }
}

// ─── seeded chats (a real SQLite db, through airlockctl import) ───
function seed() {
  const dataDir = newDataDir()
  const t0 = Date.UTC(2026, 0, 1)
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 }
  const msg = (id, parentId, role, content, at) => ({ id, parentId, role, kind: 'text', content, reasoning: '', status: 'complete', errorCode: '', errorMessage: '', model: role === 'user' ? '' : 'bench', usage, createdAt: at, updatedAt: at })
  const opts = { paradigm: 'json', recognizeOthers: true, workspaceKind: 'scratch', workspaceDir: '' }
  const N = 10000
  const long = []
  for (let i = 0; i < N; i++) {
    long.push(msg(`m${i}`, i ? `m${i - 1}` : '', i % 2 ? 'assistant' : 'user',
      i % 2 ? `Answer ${i}.\n\n- point one about item ${i}\n- point two, with \`code\`\n\nA closing sentence for answer ${i}.` : `Question ${i}: what about item ${i}?`, t0 + i * 1000))
  }
  const lines = []
  for (let i = 0; i < 3000; i++) lines.push(`line ${String(i).padStart(4, '0')}: ${'pasted log text, the kind of thing people paste into a chat window, '.repeat(2).slice(0, 66)}`)
  const huge = lines.join('\n')
  const big = [msg('h0', '', 'user', huge, t0), msg('h1', 'h0', 'assistant', 'That is a long paste. The **first** line says `line 0000`.', t0 + 1000)]
  const bundle = {
    format: 'airlock-export', version: 1, exportedAt: t0,
    chats: [
      { id: 'bench-long', title: 'Long chat', createdAt: t0, updatedAt: t0 + 2, pinned: false, leafId: `m${N - 1}`, options: opts, messages: long, calls: [], scratchFiles: [] },
      { id: 'bench-huge', title: 'Huge message', createdAt: t0, updatedAt: t0 + 1, pinned: false, leafId: 'h1', options: opts, messages: big, calls: [], scratchFiles: [] },
    ],
  }
  const file = join(dataDir, 'seed.json')
  writeFileSync(file, JSON.stringify(bundle))
  const ctl = join(CACHE, 'airlockctl')
  execFileSync('go', ['build', '-o', ctl, './cmd/airlockctl'], { cwd: root, stdio: 'inherit' })
  execFileSync(ctl, ['import', '--data-dir', dataDir, file], { stdio: 'ignore' })
  return { dataDir, hugeBytes: Buffer.byteLength(huge) }
}

// Leaves the chat, opens it again by its title; ms from the click to `done` true and painted.
function reopen(app, title, done) {
  return app.eval(`(async () => {
    document.querySelector('[data-testid="new-chat"]').click()
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))
    const item = [...document.querySelectorAll('[data-testid="chat-item"]')].find(e => e.innerText.includes(${JSON.stringify(title)}))
    const t = performance.now()
    item.click()
    return await new Promise((resolve, reject) => {
      const tick = () => (${done}) ? requestAnimationFrame(() => resolve(performance.now() - t))
        : performance.now() - t > 30000 ? reject(new Error('chat not shown after 30 s: ' + ${JSON.stringify(title)})) : requestAnimationFrame(tick)
      tick()
    })
  })()`)
}

// Streams the demo's markdown answer into the open chat: for every stream:delta
// the time from its arrival in the page to the answer's next DOM change, and
// the longest main-thread task seen meanwhile (a delta arriving then waits for it).
async function streamLatency(app, prompt) {
  await app.eval(`(() => {
    const lat = [], pending = []
    let longest = 0, last = performance.now(), on = true
    const notify = window.wails.EventsNotify
    window.wails.EventsNotify = (m) => { if (m.includes('"stream:delta"')) pending.push(performance.now()); return notify(m) }
    const mo = new MutationObserver(() => {
      const now = performance.now()
      if (!document.querySelector('[data-testid="message"][data-status="streaming"]')) return
      while (pending.length) lat.push(now - pending.shift())
    })
    mo.observe(document.querySelector('.messages') || document.body, { subtree: true, childList: true, characterData: true })
    const ch = new MessageChannel()
    ch.port1.onmessage = () => { const n = performance.now(); longest = Math.max(longest, n - last); last = n; if (on) setTimeout(() => ch.port2.postMessage(0), 0) }
    ch.port2.postMessage(0)
    window.__bench = { lat, stop: () => { on = false; mo.disconnect(); window.wails.EventsNotify = notify; return { lat, longest } } }
  })()`)
  await app.eval(`(() => {
    const el = document.querySelector('[data-testid="composer"]')
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(el, ${JSON.stringify(prompt)})
    el.dispatchEvent(new Event('input', { bubbles: true }))
  })()`)
  await app.eval(`document.querySelector('[data-testid="send"]').click()`)
  await app.waitFor(`!!document.querySelector('[data-testid="message"][data-status="streaming"]')`, 10000)
  await app.waitFor(`!document.querySelector('[data-testid="message"][data-status="streaming"]') && !!document.querySelector('[data-testid="send"]')`, 60000)
  const { lat, longest } = await app.eval('window.__bench.stop()')
  lat.sort((a, b) => a - b)
  return { median: lat[Math.floor(lat.length / 2)] ?? NaN, max: lat.at(-1) ?? NaN, n: lat.length, longestTask: longest }
}

// ─── one run ───
// Start-up: both apps launched under the same conditions, one after the
// other after the same pause, in alternating order. On this kind of machine
// (a VM) a process started after ~20 s of idle reaches main() 50–250 ms later
// than one started while busy, so a launch right after the other app's idle
// figures would be measured slow for that reason alone. A launch varies by
// ±40 ms from one to the next: each run takes the median of three pairs, as
// the chat figures below take the best of three.
const STARTS = 3
async function startUp(i, emptyBin) {
  const apps = { empty: () => startEmpty(emptyBin), airlock: () => startAirlock() }
  const times = { empty: [], airlock: [] }
  const r = {}
  for (let k = 0; k < STARTS; k++) {
    for (const name of (i + k) % 2 ? ['airlock', 'empty'] : ['empty', 'airlock']) {
      await sleep(1000)
      const app = await apps[name]()
      times[name].push({ inspector: app.inspectorMs, usable: app.usableMs })
      if (k === 0) {
        const js = await app.eval(JS_AT_START)
        r[`${name}Js`] = js.bytes
        if (name === 'airlock') {
          r.airlockJsAll = js.all
          if (!js.fcp) log('no paint timing in this WebKit: counting the page\'s own scripts')
          log(`run ${i} airlock JS before first paint: ${js.files}`)
        }
      }
      await app.close()
    }
  }
  for (const name of ['empty', 'airlock']) {
    r[`${name}Inspector`] = median(times[name].map((t) => t.inspector))
    r[`${name}Usable`] = median(times[name].map((t) => t.usable))
    log(`run ${i} ${name} start to usable (ms):`, times[name].map((t) => Math.round(t.usable)).join(', '))
  }
  return r
}

async function run(i, emptyBin, seeded) {
  const r = await startUp(i, emptyBin)

  const e = await startEmpty(emptyBin)
  const ei = await idleFigures(e, `run ${i} empty:`)
  Object.assign(r, { emptyPss: ei.pss, emptyCpu: ei.cpuMs, emptyCpuFirst: ei.cpuFirstMs, emptyWeb: ei.web })
  await e.close()

  const a = await startAirlock()
  const ai = await idleFigures(a, `run ${i} airlock:`)
  Object.assign(r, { airlockPss: ai.pss, airlockCpu: ai.cpuMs, airlockCpuFirst: ai.cpuFirstMs, airlockWeb: ai.web })
  await a.close()

  // A fresh copy of the seeded db each run (streaming below adds to the long chat).
  const dir = newDataDir()
  execFileSync('cp', ['-a', `${seeded.dataDir}/.`, dir])
  const b = await startAirlock(dir, join(dir, '.webkit-data'))
  const long = []
  for (let k = 0; k < 3; k++) {
    long.push(await reopen(b, 'Long chat', `[...document.querySelectorAll('[data-testid="message"]')].pop()?.innerText.includes('Answer 9999.')`))
  }
  r.openLong = Math.min(...long) // best of three inside the run (warm caches, like a person switching back)
  r.openLongFirst = long[0]
  const huge = []
  for (let k = 0; k < 3; k++) {
    huge.push(await reopen(b, 'Huge message', `[...document.querySelectorAll('[data-testid="message"]')].pop()?.innerText.includes('long paste')`))
  }
  r.openHuge = Math.min(...huge)
  r.hugeBubblePx = await b.eval(`Math.round(document.querySelector('[data-testid="message"][data-role="user"]')?.getBoundingClientRect().height ?? 0)`)
  await reopen(b, 'Long chat', `[...document.querySelectorAll('[data-testid="message"]')].pop()?.innerText.includes('Answer 9999.')`)
  const s = await streamLatency(b, 'Show me some markdown')
  Object.assign(r, { deltaMedian: s.median, deltaMax: s.max, deltaN: s.n, longestTask: s.longestTask })
  r.mounted = await b.eval(`document.querySelectorAll('[data-testid="message"]').length`)
  await b.close()
  return r
}

const emptyBin = emptyApp()
if (!existsSync(AIRLOCK)) throw new Error(`no Airlock binary at ${AIRLOCK} (make build)`)
const seeded = seed()
// Warm-up: one launch of each before the runs, so that neither pays a first
// start (WebKit creating its data folder, caches) inside the figures.
const warmWebKit = mkdtempSync(join(tmpdir(), 'airlock-bench-webkit-'))
for (const start of [() => startEmpty(emptyBin), () => startAirlock()]) {
  const w = await start()
  await sleep(1000)
  await w.close()
}
const runs = []
for (let i = 1; i <= RUNS; i++) {
  runs.push(await run(i, emptyBin, seeded))
  log(`run ${i}:`, JSON.stringify(runs.at(-1), (k, v) => typeof v === 'number' ? Math.round(v * 10) / 10 : v))
}

// ─── report ───
const stat = (k) => {
  const v = runs.map((r) => r[k])
  return { min: Math.min(...v), med: median(v), max: Math.max(...v) }
}
const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '—')
const f3 = (k, d = 0) => { const s = stat(k); return RUNS === 1 ? fmt(s.med, d) : `${fmt(s.min, d)}/${fmt(s.med, d)}/${fmt(s.max, d)}` }
for (const r of runs) r.usableDiff = r.airlockUsable - r.emptyUsable
const rows = [
  ['figure', 'empty Wails', 'Airlock', 'difference (ratio)', 'goal'],
  ['idle PSS, all processes (MiB)', f3('emptyPss', 1), f3('airlockPss', 1), `${fmt(stat('airlockPss').med - stat('emptyPss').med, 1)} (${fmt(stat('airlockPss').med / stat('emptyPss').med, 2)}x)`, '≤ empty + 60'],
  ['  of which WebKitWebProcess (MiB)', f3('emptyWeb', 1), f3('airlockWeb', 1), `${fmt(stat('airlockWeb').med - stat('emptyWeb').med, 1)}`, ''],
  [`idle CPU over ${IDLE_S} s, after the caret's blink timeout (ms)`, f3('emptyCpu'), f3('airlockCpu'), `${fmt(stat('airlockCpu').med - stat('emptyCpu').med)}`, '≈ 0'],
  [`  the ${IDLE_S} s before it (a focused caret still blinks, ms)`, f3('emptyCpuFirst'), f3('airlockCpuFirst'), `${fmt(stat('airlockCpuFirst').med - stat('emptyCpuFirst').med)}`, ''],
  ['start to inspector answering (ms, median of 3 launches)', f3('emptyInspector'), f3('airlockInspector'), `${fmt(stat('airlockInspector').med - stat('emptyInspector').med)} (${fmt(stat('airlockInspector').med / stat('emptyInspector').med, 2)}x)`, ''],
  ['start to usable window (ms, median of 3 launches)', f3('emptyUsable'), f3('airlockUsable'), `${fmt(stat('airlockUsable').med - stat('emptyUsable').med)} (${fmt(stat('airlockUsable').med / stat('emptyUsable').med, 2)}x)`, '≤ empty + 150'],
  ['  Airlock minus empty within each run (ms; the pair ran back to back)', '', f3('usableDiff'), '', ''],
  ['JavaScript loaded at start (KB)', fmtKB('emptyJs'), fmtKB('airlockJs'), `${fmt((stat('airlockJs').med - stat('emptyJs').med) / 1000)} (${fmt(stat('airlockJs').med / stat('emptyJs').med, 2)}x)`, '≤ 300'],
  ['  all JavaScript loaded once usable (incl. idle preload, KB)', '', fmtKB('airlockJsAll'), '', ''],
  ['delta to DOM, median (ms)', '—', f3('deltaMedian', 1), '', ''],
  ['delta to DOM, max (ms)', '—', f3('deltaMax', 1), '', '≤ 50'],
  ['  longest gap between setTimeout(0) probes while streaming (ms)', '—', f3('longestTask', 1), '', ''],
  ['open a 10,000-message chat (ms, best of 3)', '—', f3('openLong'), '', '≤ 150'],
  ['  first open of it (ms)', '—', f3('openLongFirst'), '', ''],
  [`reopen a 3,000-line (${Math.round(seeded.hugeBytes / 1000)} KB) message chat (ms)`, '—', f3('openHuge'), '', '≤ 150'],
  ['  its user bubble height (px)', '—', f3('hugeBubblePx'), '', 'collapsed'],
  ['messages mounted after streaming in the long chat', '—', f3('mounted'), '', '≤ ~60'],
]
function fmtKB(k) { const s = stat(k); return RUNS === 1 ? fmt(s.med / 1000) : `${fmt(s.min / 1000)}/${fmt(s.med / 1000)}/${fmt(s.max / 1000)}` }
console.log(`bench-ui: ${RUNS} run(s)${RUNS > 1 ? ', each cell min/median/max' : ''}; ${new Date().toISOString()}`)
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)))
for (const r of rows) console.log(r.map((c, i) => String(c).padEnd(widths[i])).join('  '))
