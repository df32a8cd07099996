// Benchmark: cold start to a painted, usable window, and idle memory (RSS of
// the app and its WebKit helper processes). Run under Xvfb: `make bench-startup`.
import { readFileSync, readdirSync } from 'node:fs'
import { startApp } from './harness.mjs'

const runs = Number(process.env.RUNS ?? 5)

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

function rssKiB(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1])
  } catch {
    return 0
  }
}

function name(pid) {
  try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() } catch { return '?' }
}

const starts = []
let memory
for (let i = 0; i < runs; i++) {
  const t0 = performance.now()
  const app = await startApp()
  // Ready = the composer is in the DOM and a frame has been painted after it.
  await app.eval('new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))')
  starts.push(performance.now() - t0)
  if (i === runs - 1) {
    await new Promise((r) => setTimeout(r, 5000)) // settle to idle
    const pids = [app.proc.pid, ...children(app.proc.pid)]
    memory = pids.map((p) => ({ pid: p, name: name(p), rssMiB: +(rssKiB(p) / 1024).toFixed(1) }))
  }
  await app.close()
}
starts.sort((a, b) => a - b)
const median = starts[Math.floor(starts.length / 2)]
const total = memory.reduce((s, m) => s + m.rssMiB, 0)
console.log(JSON.stringify({ runs, startMs: { min: +starts[0].toFixed(0), median: +median.toFixed(0), max: +starts.at(-1).toFixed(0) }, idleRss: memory, idleRssTotalMiB: +total.toFixed(1) }, null, 2))
