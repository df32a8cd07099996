// The demo model run as its own server (cmd/mockllm) behind a proxy that
// records every request body the app sends, so a test reads what the model
// received. Shared by native.test.mjs and agents.test.mjs.
import { execFileSync, spawn } from 'node:child_process'
import { createServer, request } from 'node:http'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Starts mockllm (answers delayed by `delay`) and the recording proxy; `bodies` fills with each POST's JSON. */
export async function startRecordingDemo(delay = '60ms') {
  const bodies = []
  const bin = join(mkdtempSync(join(tmpdir(), 'airlock-mockllm-')), 'mockllm')
  execFileSync('go', ['build', '-o', bin, './cmd/mockllm'], { cwd: ROOT, stdio: 'inherit' })
  const demo = spawn(bin, ['-addr', '127.0.0.1:0', '-delay', delay], { stdio: ['ignore', 'pipe', 'inherit'] })
  const base = await new Promise((resolve, reject) => {
    demo.stdout.once('data', (d) => resolve(String(d).trim()))
    demo.once('exit', (code) => reject(new Error(`mockllm exited with ${code}`)))
  })
  const target = new URL(base)
  const proxy = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      // Chat requests only: Airlock also asks the server about the model's window (POST /api/show).
      if (req.method === 'POST' && req.url.endsWith('/chat/completions')) bodies.push(JSON.parse(String(body)))
      const out = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode, up.headers)
        up.pipe(res)
      })
      out.end(body)
    })
  })
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${proxy.address().port}/v1`,
    bodies,
    close: () => {
      proxy.close()
      demo.kill()
    },
  }
}
