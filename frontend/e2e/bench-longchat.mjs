// Benchmark: opening a chat of 10,000 messages in the real app — time from
// the click on the chat to the newest message painted, and how many messages
// are mounted. The chat is imported with `airlockctl import` (the app's own
// importer) before the app starts. Run under Xvfb: `make bench-longchat`.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startApp, newDataDir } from './harness.mjs'

const N = Number(process.env.MESSAGES ?? 10000)
const dataDir = newDataDir()
const t0 = Date.UTC(2026, 0, 1)
const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 }
const messages = []
for (let i = 0; i < N; i++) {
  const user = i % 2 === 0
  messages.push({
    id: `m${i}`, parentId: i ? `m${i - 1}` : '', role: user ? 'user' : 'assistant', kind: 'text',
    content: user ? `Question ${i}: what about item ${i}?` : `Answer ${i}.\n\n- point one about item ${i}\n- point two, with \`code\`\n\nA closing sentence for answer ${i}.`,
    reasoning: '', status: 'complete', errorCode: '', errorMessage: '', model: user ? '' : 'bench', usage,
    createdAt: t0 + i * 1000, updatedAt: t0 + i * 1000,
  })
}
const bundle = {
  format: 'airlock-export', version: 1, exportedAt: t0,
  chats: [{ id: 'bench-chat', title: `Long chat (${N} messages)`, createdAt: t0, updatedAt: t0 + N * 1000, pinned: false, leafId: `m${N - 1}`,
    options: { paradigm: 'json', recognizeOthers: true, workspaceKind: 'scratch', workspaceDir: '' }, messages, calls: [], scratchFiles: [] }],
}
const file = join(dataDir, 'long.json')
writeFileSync(file, JSON.stringify(bundle))
const root = new URL('../..', import.meta.url).pathname
const tImport = performance.now()
execFileSync('go', ['run', './cmd/airlockctl', 'import', '--data-dir', dataDir, file], { cwd: root, stdio: 'inherit' })
const importMs = performance.now() - tImport

const app = await startApp({ dataDir })
const runs = []
let mounted = 0
for (let i = 0; i < 5; i++) {
  // Leave the chat (open a new empty one), then open it again and time it.
  await app.click('new-chat')
  const ms = await app.eval(`new Promise((resolve) => {
    const t = performance.now()
    document.querySelector('[data-testid="chat-item"]').click()
    const tick = () => {
      const last = [...document.querySelectorAll('[data-testid="message"]')].pop()
      if (last && last.innerText.includes('Answer ${N - 1}.')) requestAnimationFrame(() => resolve(performance.now() - t))
      else requestAnimationFrame(tick)
    }
    tick()
  })`)
  runs.push(ms)
  mounted = await app.eval(`document.querySelectorAll('[data-testid="message"]').length`)
}
await app.close()
runs.sort((a, b) => a - b)
console.log(JSON.stringify({ messages: N, importMs: Math.round(importMs), openToLastPaintedMs: { min: Math.round(runs[0]), median: Math.round(runs[2]), max: Math.round(runs[4]) }, mountedMessages: mounted }, null, 2))
