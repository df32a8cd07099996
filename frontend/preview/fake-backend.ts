// A fake Go backend for looking at the UI without Wails. Test/preview only:
// never part of the production bundle. Installs window.go.main.App and
// window.runtime with sample data and simulated streaming.
import { createFakeAgents } from './fake-agents'
import type { AppInfo, AuditFormat, AuditQuery, RuleDraft, Call, Chat, ChatOptions, Message, Provider, Settings } from '../src/api'
import { FORMATS, PARADIGMS, TOOLS, formatResults, readBack, runTool, scan, toolScript, validate, type ResultSpec } from './fake-tools'
import { createFakeWorkspaces, FILE_TOOL_SPECS } from './fake-workspace'
import { createFakeMcp, type FakeMcpSetup } from './fake-mcp'
import { createFakePolicy } from './fake-policy'
import { createFakeNative, nativeCards, nativeScript, NativeWriter, type NativeCall } from './fake-native'
import type { WorkspaceKind } from '../src/api'

type Listener = (...data: unknown[]) => void

export type FakeOptions = {
  theme?: Settings['theme']
  language?: Settings['language']
  /** Start with no chats at all. */
  empty?: boolean
  /** Make the demo provider inactive (use "Work OpenAI"). */
  realProvider?: boolean
  /** Drop some deltas on the wire to exercise gap recovery. */
  dropDeltas?: boolean
  /** Milliseconds between deltas. */
  tick?: number
  /** Milliseconds a tool takes to run (default 250; "long calc" in a prompt takes 4 s). */
  runMs?: number
  /** Send tool results back by itself (default true). */
  autoContinue?: boolean
  /** Model turns per user message before the loop pauses (default 25). */
  maxTurns?: number
  /** MCP servers: two (one ready, one failed; the default), none, or also one from AIRLOCK_MCP_CONFIG. */
  mcp?: FakeMcpSetup
  /** Milliseconds an MCP server takes to start (default 700). */
  mcpStartMs?: number
}

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

let idn = 0
const newId = () => `${Date.now().toString(16)}${(++idn).toString(16).padStart(4, '0')}`

const apiErr = (code: string, message: string) => JSON.stringify({ code, message })

const MARKDOWN_SAMPLE = `Here's a quick comparison for building **command-line tools**:

| | Rust | Go |
|---|---|---|
| Startup time | ~1 ms | ~2 ms |
| Binary size | small (with \`strip\`) | medium |
| Learning curve | steep | gentle |
| Cross-compiling | good | excellent |

### A tiny CLI in Rust

\`\`\`rust
use std::env;

fn main() {
    let name = env::args().nth(1).unwrap_or_else(|| "world".into());
    println!("Hello, {name}!"); // prints a greeting
}
\`\`\`

### The same in Go

\`\`\`go
package main

import (
	"fmt"
	"os"
)

func main() {
	name := "world"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	fmt.Printf("Hello, %s!\\n", name)
}
\`\`\`

**My take:**

1. Pick **Go** if you want to ship quickly and your team is new to systems languages.
2. Pick **Rust** when you need tight control over memory or the fastest cold start.
   - Try [clap](https://docs.rs/clap) for argument parsing.
   - Read the [Rust CLI book](https://rust-cli.github.io/book/).

> Either way, keep the binary self-contained — your users will thank you.

This link is inert: [click me](javascript:alert(1)) and this image is blocked: ![tracker](https://example.com/pixel.png)
`

const REASONING_SAMPLE = `The user is choosing between Rust and Go for CLI tools. Key axes: startup time, binary size, ergonomics, ecosystem.

Both compile to native code, so startup is fast for both. Rust has no GC; Go's runtime adds a little. I'll give a table, two small examples and a recommendation.`

const STORY = `# The Lighthouse Keeper's Daughter

The fog came in the way it always did in late October — not rolling, but *settling*, as if the sea had exhaled and forgotten to breathe back in. Mara watched it from the lamp room, her breath fogging the glass in small, patient circles.

Her father had kept the light for thirty-one years. He used to say that a lighthouse was not a warning but a promise: *you are not alone out there*. She had not understood that until the winter he died, when she climbed the hundred and twelve steps every night because no one else would.

The ships didn't know who lit the lamp. That was the point.

On the ninth night of the fog, a bell rang out over the water — three slow strokes, then silence. Mara counted the seconds the way her father had taught her. *One, two, three…* At eleven, the bell rang again, closer.

She wound the clockwork, trimmed the wick, and wiped the great lens until it shone like a second moon. Then she did something her father had never done: she opened the gallery door and stepped out into the cold, holding a hand lantern high, as if one more small light could make a difference.

It did.

The boat that came out of the fog was a fishing skiff, its mast snapped, two boys at the oars and an old man bailing with a tin cup. They had followed the beam for an hour, they said, and then — when they lost it in the thickest of the fog — they had followed the little light on the gallery, swinging like a heartbeat.

Mara made them tea. She did not tell them that she had almost stayed inside.

In the spring, the harbour council offered to automate the lighthouse. Mara thanked them, and said no, and climbed the stairs that night the way she always did: one step at a time, counting, keeping the promise.
`

function chunk(text: string, size = 6): string[] {
  const out: string[] = []
  const words = text.split(/(\s+)/)
  let cur = ''
  for (const w of words) {
    cur += w
    if (cur.length >= size) {
      out.push(cur)
      cur = ''
    }
  }
  if (cur) out.push(cur)
  return out
}

type Stream = { chatId: string; messageId: string; timer: number; seq: number }

export function installFakeBackend(opts: FakeOptions = {}) {
  const listeners = new Map<string, Set<Listener>>()
  const emit = (name: string, data: unknown) => listeners.get(name)?.forEach((cb) => cb(data))
  const tick = opts.tick ?? 35

  const now = Date.now()
  // No Secret Service in a preview either: Settings shows the fallback note.
  const info: AppInfo = { version: '0.1.0-preview', dataDir: '/home/mara/.local/share/airlock', envProvider: false, keyStorage: 'database' }
  let settings: Settings = {
    activeProviderId: opts.realProvider ? 'p-openai' : 'demo',
    systemPrompt: '',
    temperature: -1,
    language: opts.language ?? 'en',
    theme: opts.theme ?? 'light',
    autoContinue: opts.autoContinue ?? true,
    maxTurns: opts.maxTurns ?? 25,
    toolTimeoutSeconds: 30,
    toolMode: 'auto',
  }
  const providers: Provider[] = [
    { id: 'demo', name: 'Airlock Demo', baseUrl: 'http://127.0.0.1:41817/v1', apiKey: '', model: 'airlock-demo', demo: true },
    { id: 'p-openai', name: 'Work OpenAI', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-proj-abc123', model: 'gpt-4o-mini', demo: false },
    { id: 'p-ollama', name: 'Ollama (laptop)', baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'qwen2.5:14b', demo: false },
  ]
  const chats: Chat[] = []
  const mcp = createFakeMcp({ emit, chats, setup: opts.mcp, startMs: opts.mcpStartMs })
  const native = createFakeNative({ emit, settings: () => settings, providers })
  /** The native calls of answers still streaming, by message id. */
  const nativeOf = new Map<string, NativeCall[]>()
  const messages: Message[] = []
  const streams = new Map<string, Stream>()
  const calls: Call[] = []
  const policy = createFakePolicy({ apiErr })
  const rules = policy.rules
  const running = new Map<string, number>()
  const runMs = opts.runMs ?? 250

  const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c })
  const mk = (chatId: string, role: Message['role'], content: string, at: number, extra: Partial<Message> = {}): Message => ({
    id: newId(),
    chatId,
    role,
    kind: 'text',
    content,
    reasoning: '',
    status: 'complete',
    usage: usage(0, 0),
    createdAt: at,
    updatedAt: at,
    ...extra,
  })
  const addChat = (title: string, at: number) => {
    // Seeded chats are from before the choice of tool mode: text.
    const c: Chat = { id: newId(), title, createdAt: at - 5 * MIN, updatedAt: at, paradigm: 'json', recognizeOthers: true, toolMode: 'text' }
    chats.push(c)
    return c
  }

  if (!opts.empty) {
    const c1 = addChat('Rust vs Go for CLI tools', now - 4 * MIN)
    messages.push(mk(c1.id, 'user', 'Should I write my next command-line tool in Rust or Go?', now - 5 * MIN))
    messages.push(
      mk(c1.id, 'assistant', MARKDOWN_SAMPLE, now - 4 * MIN, {
        reasoning: REASONING_SAMPLE,
        model: 'airlock-demo',
        usage: usage(40, 412),
      }),
    )
    messages.push(mk(c1.id, 'user', 'Thanks! Can you summarise that in one line?\nKeep it short.', now - 4 * MIN + 1000))
    messages.push(
      mk(c1.id, 'assistant', 'Go for speed of shipping; **Rust** for speed of running.', now - 4 * MIN + 2000, {
        model: 'airlock-demo',
        usage: usage(470, 14),
      }),
    )

    const c2 = addChat('Quarterly report summary', now - 2 * HOUR)
    messages.push(mk(c2.id, 'user', 'Summarise the attached quarterly numbers in three bullet points.', now - 2 * HOUR - MIN))
    messages.push(
      mk(c2.id, 'assistant', '', now - 2 * HOUR, {
        status: 'error',
        errorCode: 'http_500',
        errorMessage: 'The provider returned HTTP 500 Internal Server Error: upstream model overloaded, try again later.',
        model: 'gpt-4o-mini',
      }),
    )

    seedToolChat(now - 3 * HOUR)

    const c3 = addChat('Trip ideas for Kyoto in autumn', now - 26 * HOUR)
    messages.push(mk(c3.id, 'user', 'Plan three relaxed days in Kyoto in November.', now - 26 * HOUR - MIN))
    messages.push(
      mk(
        c3.id,
        'assistant',
        '**Day 1 — Higashiyama.** Start early at Kiyomizu-dera before the crowds, then wander down Sannenzaka and Ninenzaka…',
        now - 26 * HOUR,
        { status: 'interrupted', model: 'qwen2.5:14b', usage: usage(22, 31) },
      ),
    )

    addChat('Regex for ISO dates', now - 3 * DAY)
    addChat('解释一下量子纠缠', now - 4 * DAY)
    addChat('SQL window functions cheat sheet', now - 12 * DAY)
    addChat('Cover letter draft', now - 45 * DAY)
  }

  const find = (id: string) => messages.find((m) => m.id === id)
  const touch = (chatId: string) => {
    const c = chats.find((x) => x.id === chatId)
    if (c) c.updatedAt = Date.now()
  }

  function startStream(chatId: string, prompt: string, scripted?: string): Message {
    const lower = prompt.toLowerCase()
    const active = providers.find((p) => p.id === settings.activeProviderId)!
    const msg = mk(chatId, 'assistant', '', Date.now() + 1, { status: 'streaming', model: active.model })
    messages.push(msg)
    const chat = chats.find((c) => c.id === chatId)
    const tools = scripted === undefined ? toolScript(prompt, chat?.paradigm ?? 'json') : null
    // Native: the same script, its calls made through the API (arguments arrive in pieces as calls:forming).
    const nat = chat && native.plan(chat) === 'native' && tools ? nativeScript(toolScript(prompt, 'json') ?? '') : null
    const writer = nat ? new NativeWriter(emit, chatId, msg.id, nat.calls) : null
    if (nat) nativeOf.set(msg.id, nat.calls)
    let reasoning = ''
    let content: string
    let fail: null | { code: string; message: string; after: number } = null
    let speed = tick
    if (scripted !== undefined) {
      content = scripted
    } else if (tools) {
      content = nat ? nat.intro : tools
    } else if (lower.includes('error') || prompt.includes('错误')) {
      content = 'Let me look into that for you. First, I'
      fail = { code: 'http_500', message: 'Provider returned HTTP 500: Internal Server Error (simulated).', after: 6 }
    } else if (lower.includes('story') || prompt.includes('故事')) {
      content = STORY
      speed = tick * 3
    } else if (lower.includes('step') || prompt.includes('一步')) {
      reasoning =
        'Sunlight contains all visible wavelengths. Air molecules are much smaller than those wavelengths, so Rayleigh scattering applies: intensity ∝ 1/λ⁴. Blue (~450 nm) scatters about 5.5× more than red (~700 nm). Violet scatters even more, but the Sun emits less of it and our eyes are less sensitive to it.'
      content =
        'The sky looks blue because of **Rayleigh scattering**:\n\n1. Sunlight is a mix of all colours.\n2. Tiny air molecules scatter short wavelengths far more strongly (∝ 1/λ⁴).\n3. Blue light gets bounced around the whole sky, so it reaches your eyes from every direction.\n\nAt sunset the light travels through more air, most blue is scattered away, and the reds and oranges remain.'
    } else if (lower.includes('markdown')) {
      content = MARKDOWN_SAMPLE
    } else {
      content =
        '**Airlock** is a desktop chat client for many models — hosted APIs or local servers like Ollama and LM Studio.\n\nWhen a model wants to *do* something (run a command, edit a file), it proposes a **tool call** and you approve or deny it on a card. Nothing happens without you.'
    }
    const pieces: { c: string; r: string }[] = [
      ...chunk(reasoning, 10).map((r) => ({ c: '', r })),
      ...chunk(content, 8).map((c) => ({ c, r: '' })),
    ]
    let i = 0
    const st: Stream = { chatId, messageId: msg.id, seq: 0, timer: 0 }
    st.timer = window.setInterval(() => {
      if (fail && i >= Math.min(fail.after, pieces.length)) {
        end(st, 'error', fail.code, fail.message)
        return
      }
      if (i >= pieces.length) {
        if (writer?.tick()) return
        end(st, 'complete')
        return
      }
      const p = pieces[i++]
      msg.content += p.c
      msg.reasoning += p.r
      msg.updatedAt = Date.now()
      st.seq++
      if (opts.dropDeltas && st.seq % 17 === 0) return // lost on the wire
      emit('stream:delta', { chatId, messageId: msg.id, seq: st.seq, content: p.c, reasoning: p.r })
    }, speed)
    streams.set(chatId, st)
    return msg
  }

  function end(st: Stream, status: Message['status'], code?: string, message?: string) {
    window.clearInterval(st.timer)
    streams.delete(st.chatId)
    const msg = find(st.messageId)!
    msg.status = status
    if (code) msg.errorCode = code
    if (message) msg.errorMessage = message
    msg.usage = usage(120, Math.round(msg.content.length / 4))
    msg.updatedAt = Date.now()
    touch(st.chatId)
    emit('stream:end', { chatId: st.chatId, messageId: st.messageId, seq: st.seq + 1, message: { ...msg } })
    if (status === 'complete') afterAnswer(msg)
  }

  // ─── the tool loop (mirrors backend/engine/loop.go) ───

  const callClone = (c: Call): Call => JSON.parse(JSON.stringify(c))
  // A tool that may change files ran: the real backend says so with an event.
  const changedFiles = (chatId: string, name: string) => {
    if (FILE_TOOL_SPECS.find((t) => t.name === name)?.changes) emit('workspace:changed', { chatId })
  }
  const saveCall = (c: Call) => {
    c.updatedAt = Date.now()
    emit('call:updated', callClone(c))
  }
  const settled = (c: Call) =>
    c.state === 'done' || c.state === 'error' || c.state === 'denied' || (c.state === 'problem' && !!c.resultStatus)

  function seedToolChat(at: number) {
    const c = addChat('Tool calls: time, maths and a broken call', at)
    const u1 = mk(c.id, 'user', 'What time is it, and what is 17 * 23?', at - 9 * MIN)
    const a1 = mk(
      c.id,
      'assistant',
      'I\'ll check the time and do the sum.\n\n```json\n{"tool_calls":[{"id":"call_1","name":"get_current_time","arguments":{"timezone":"UTC"}},{"id":"call_2","name":"calculate","arguments":{"expression":"17 * 23"}}]}\n```',
      at - 9 * MIN + 1000,
      { model: 'airlock-demo', usage: usage(480, 52) },
    )
    const res: ResultSpec[] = [
      { callId: 'call_1', name: 'get_current_time', status: 'success', content: '2026-11-22T14:02:11Z (UTC)' },
      { callId: 'call_2', name: 'calculate', status: 'success', content: '392' },
    ]
    const r1 = mk(c.id, 'user', formatResults(res, 'json'), at - 8 * MIN, { kind: 'tool_results' })
    const a2 = mk(c.id, 'assistant', readBack(res), at - 8 * MIN + 1000, { model: 'airlock-demo', usage: usage(620, 58) })
    const u2 = mk(c.id, 'user', 'Now calculate 2^10 — and also try something broken.', at - 5 * MIN)
    const a3 = mk(
      c.id,
      'assistant',
      'Here you go: one call that works, one that can\'t.\n\n```json\n{"tool_calls":[{"id":"call_1","name":"calculate","arguments":{"expression":"2^10"}},{"id":"call_2","name":"teleport","arguments":{"to":"Mars"}}]}\n```',
      at - 5 * MIN + 1000,
      { model: 'airlock-demo', usage: usage(700, 60) },
    )
    const u3 = mk(c.id, 'user', 'And what is the time in Tokyo and in Paris?', at - 2 * MIN)
    const a4 = mk(
      c.id,
      'assistant',
      'Two clocks coming up.\n\n```json\n{"tool_calls":[{"id":"call_1","name":"get_current_time","arguments":{"timezone":"Asia/Tokyo"}},{"id":"call_2","name":"get_current_time","arguments":{"timezone":"Europe/Paris"}}]}\n```',
      at - 2 * MIN + 1000,
      { model: 'airlock-demo', usage: usage(760, 61) },
    )
    messages.push(u1, a1, r1, a2, u2, a3, u3, a4)
    const base = (m: Message, index: number, name: string, args: unknown, raw: string): Call => ({
      id: newId(),
      modelCallId: `call_${index + 1}`,
      chatId: c.id,
      messageId: m.id,
      index,
      name,
      arguments: args,
      raw,
      format: 'json',
      state: 'pending',
      createdAt: m.createdAt,
      updatedAt: m.createdAt,
    })
    const raw1 = a1.content.slice(a1.content.indexOf('{'), a1.content.lastIndexOf('}') + 1) + '\n'
    calls.push(
      {
        ...base(a1, 0, 'get_current_time', { timezone: 'UTC' }, raw1),
        state: 'done',
        decidedBy: 'user',
        decidedAt: at - 9 * MIN + 4000,
        startedAt: at - 9 * MIN + 4000,
        finishedAt: at - 9 * MIN + 4003,
        result: res[0].content,
        resultStatus: 'success',
      },
      {
        ...base(a1, 1, 'calculate', { expression: '17 * 23' }, raw1),
        edited: { expression: '17 * 23 + 1' },
        state: 'done',
        decidedBy: 'user',
        decidedAt: at - 9 * MIN + 9000,
        startedAt: at - 9 * MIN + 9000,
        finishedAt: at - 9 * MIN + 9012,
        result: '392',
        resultStatus: 'success',
      },
    )
    const raw3 = a3.content.slice(a3.content.indexOf('{'), a3.content.lastIndexOf('}') + 1) + '\n'
    calls.push(
      {
        ...base(a3, 0, 'calculate', { expression: '2^10' }, raw3),
        state: 'denied',
        decidedBy: 'user',
        decidedAt: at - 4 * MIN,
        reason: 'I can do that one in my head',
        result: 'The user denied this call. Reason: I can do that one in my head',
        resultStatus: 'denied',
      },
      {
        ...base(a3, 1, 'teleport', null, raw3),
        state: 'problem',
        problem: 'There is no tool named "teleport". Available tools: get_current_time, calculate.',
      },
    )
    const raw4 = a4.content.slice(a4.content.indexOf('{'), a4.content.lastIndexOf('}') + 1) + '\n'
    calls.push(
      base(a4, 0, 'get_current_time', { timezone: 'Asia/Tokyo' }, raw4),
      { ...base(a4, 1, 'get_current_time', { timezone: 'Europe/Paris' }, raw4), guard: 'Loop guard: the model made this exact call 3 times in a row, so it waits for you even if the tool is always allowed.' },
    )
  }

  function afterAnswer(msg: Message) {
    const chat = chats.find((c) => c.id === msg.chatId)
    if (!chat) return
    const known = [...FILE_TOOL_SPECS, ...mcp.toolsFor(chat)] // the workspace tools are real tools too
    const res = scan(msg.content, chat.paradigm, chat.recognizeOthers, known)
    const natives = nativeOf.get(msg.id)
    nativeOf.delete(msg.id)
    if (natives) native.worked(chat)
    const found = natives ? nativeCards(natives, known).map((c, at) => ({ at, c })) : [
      ...res.calls.map((c) => ({ at: c.start, c: { modelCallId: c.id, name: c.name, arguments: c.arguments, raw: c.raw ?? '', format: c.format ?? '', state: 'pending' as const } })),
      ...res.problems.map((p) => ({ at: p.start, c: { modelCallId: p.id ?? '', name: p.name ?? '', arguments: null, raw: p.raw, format: p.format ?? '', state: 'problem' as const, problem: p.message } })),
    ].sort((a, b) => a.at - b.at)
    if (found.length === 0) return
    const previous = calls.filter((c) => c.chatId === msg.chatId)
    const stored: Call[] = found.map((f, index) => ({
      ...f.c,
      id: newId(),
      modelCallId: f.c.modelCallId || `call_${index + 1}`,
      chatId: msg.chatId,
      messageId: msg.id,
      index,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    }))
    calls.push(...stored)
    for (const c of stored) emit('call:updated', callClone(c))
    for (const c of stored) {
      if (c.state !== 'pending') continue
      const same = previous.filter((p) => p.name === c.name && JSON.stringify(p.arguments) === JSON.stringify(c.arguments))
      const rule = policy.decide(c)
      if (same.length >= 2 && rule?.effect !== 'deny') {
        c.guard = `Loop guard: the model made this exact call (${c.name} with the same arguments) ${same.length + 1} times in a row, so it waits for you even if the tool is always allowed.`
        saveCall(c)
        if (rule) policy.record(c, 'held', 'loop_guard', { detail: c.guard, ruleId: rule.id })
        continue
      }
      if (rule) byRule(c, rule)
    }
    finish(msg.id)
  }

  /** A rule decides a waiting call: an allow rule runs it, a never rule denies it (the model is told its message). */
  function byRule(c: Call, rule: (typeof rules)[number]) {
    policy.used(rule)
    if (rule.effect === 'deny') deny(c, '', `rule:${rule.id}`, policy.neverText(rule), rule.message)
    else approve(c, null, `rule:${rule.id}`)
    emit('rules:changed', null)
  }

  function approve(c: Call, edited: Record<string, unknown> | null, by: Call['decidedBy']) {
    if (c.state !== 'pending' && c.state !== 'interrupted' && c.state !== 'problem')
      throw apiErr('bad_state', `This ${c.name} call is already ${c.state}.`)
    if (edited) {
      const err = validate(c.name, edited, mcp.tools())
      if (err) throw apiErr('invalid_arguments', err)
      if (JSON.stringify(edited) !== JSON.stringify(c.arguments)) c.edited = edited
    }
    c.state = 'approved'
    c.decidedBy = by
    c.decidedAt = Date.now()
    c.result = undefined
    c.resultStatus = undefined
    saveCall(c)
    policy.record(c, c.edited ? 'edited' : 'approved', by ?? 'user')
    const slow = messages.some((m) => m.chatId === c.chatId && m.role === 'user' && /long calc/i.test(m.content))
    setTimeout(() => {
      c.state = 'running'
      c.startedAt = Date.now()
      saveCall(c)
      const timer = window.setTimeout(() => {
        running.delete(c.id)
        c.finishedAt = Date.now()
        try {
          const args = (c.edited ?? c.arguments) as Record<string, unknown>
          if (mcp.isMcp(c.name)) {
            const out = mcp.run(c.name, args)
            c.result = out.text
            c.images = out.images.length ? out.images : undefined
            c.state = out.isError ? 'error' : 'done'
            c.resultStatus = out.isError ? 'error' : 'success'
          } else {
            c.result = runTool(c.name, args)
            c.state = 'done'
            c.resultStatus = 'success'
          }
        } catch (e) {
          c.result = (e as Error).message
          c.state = 'error'
          c.resultStatus = 'error'
        }
        saveCall(c)
        policy.record(c, 'ran', by ?? 'user')
        changedFiles(c.chatId, c.name)
        finish(c.messageId)
      }, slow ? 4000 : runMs)
      running.set(c.id, timer)
    }, 20)
  }

  function deny(c: Call, reason: string, by: Call['decidedBy'] = 'user', told?: string, detail?: string) {
    if (c.state !== 'pending' && c.state !== 'interrupted') throw apiErr('bad_state', `This ${c.name} call is ${c.state}; it cannot become denied.`)
    c.state = 'denied'
    c.decidedBy = by
    c.decidedAt = Date.now()
    c.reason = reason.trim() || undefined
    c.result = told ?? (reason.trim() ? `The user denied this call. Reason: ${reason.trim()}` : 'The user denied this call.')
    c.resultStatus = 'denied'
    saveCall(c)
    policy.record(c, 'denied', by ?? 'user', { detail: detail ?? (reason.trim() || undefined) })
  }

  function finish(messageId: string) {
    const mine = calls.filter((c) => c.messageId === messageId).sort((a, b) => a.index - b.index)
    if (mine.length === 0 || !mine.every(settled)) return
    const msg = find(messageId)
    if (!msg) return
    const history = messages.filter((m) => m.chatId === msg.chatId)
    if (history.indexOf(msg) < history.length - 1) return // results already sent
    const chat = chats.find((c) => c.id === msg.chatId)
    const results: ResultSpec[] = mine.map((c) => ({ callId: c.modelCallId, name: c.name, status: c.resultStatus!, content: c.result ?? '' }))
    const um = mk(msg.chatId, 'user', formatResults(results, chat?.paradigm ?? 'json'), Date.now(), { kind: 'tool_results' })
    messages.push(um)
    emit('message:added', clone(um))
    if (!settings.autoContinue) return
    let turns = 0
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i].role === 'user' && history[i].kind !== 'tool_results') break
      if (history[i].role === 'assistant') turns++
    }
    if (turns >= settings.maxTurns) {
      emit('chat:notice', {
        chatId: msg.chatId,
        code: 'turn_cap',
        message: `Paused after ${turns} model turns for one message (the limit in Settings). Press Continue to let the model go on.`,
      })
      return
    }
    const next = continueWith(msg.chatId, results)
    emit('message:added', clone({ ...next, content: '', reasoning: '' }))
  }

  function continueWith(chatId: string, results: ResultSpec[]): Message {
    const history = messages.filter((m) => m.chatId === chatId)
    const original = [...history].reverse().find((m) => m.role === 'user' && m.kind !== 'tool_results')?.content ?? ''
    const chat = chats.find((c) => c.id === chatId)
    const again = /loop/i.test(original) && results[0]?.status === 'success'
    const text = again ? `Once more, to be sure.\n\n${toolScript('loop', chat?.paradigm ?? 'json')!.split('\n\n').slice(1).join('\n\n')}` : readBack(results)
    return startStream(chatId, '', text)
  }

  function lastResults(chatId: string): ResultSpec[] | null {
    const history = messages.filter((m) => m.chatId === chatId)
    const last = history[history.length - 1]
    if (!last || last.kind !== 'tool_results') return null
    const prev = [...history].reverse().find((m) => m.role === 'assistant')
    return calls
      .filter((c) => c.messageId === prev?.id)
      .sort((a, b) => a.index - b.index)
      .map((c) => ({ callId: c.modelCallId, name: c.name, status: c.resultStatus ?? 'error', content: c.result ?? '' }))
  }

  /** A new rule decides, at once, its card and the waiting calls of the same answer it covers. */
  function applyRule(c: Call, rule: (typeof rules)[number]) {
    for (const s of calls.filter((x) => x.messageId === c.messageId)) {
      const waiting = s.state === 'pending' || (s.id === c.id && s.state === 'interrupted')
      if (!waiting || (s.id !== c.id && s.guard) || !policy.active(rule, s) || !policy.matches(rule, s)) continue
      byRule(s, rule)
    }
    finish(c.messageId)
  }

  const getCall = (id: string) => {
    const c = calls.find((x) => x.id === id)
    if (!c) throw apiErr('not_found', 'Tool call not found.')
    return c
  }

  const wait = (ms = 60) => new Promise((r) => setTimeout(r, ms))
  const clone = <T,>(v: T): T => JSON.parse(JSON.stringify(v))
  const workspaces = createFakeWorkspaces()
  const chatOf = (id: string) => {
    const c = chats.find((x) => x.id === id)
    if (!c) throw apiErr('not_found', 'Chat not found.')
    return c
  }

  const App = {
    Info: async () => clone(info),
    ListChats: async () => clone([...chats].sort((a, b) => b.updatedAt - a.updatedAt)),
    CreateChat: async () => {
      const c = addChat('', Date.now())
      c.toolMode = settings.toolMode
      emit('chats:changed', null)
      return clone(c)
    },
    RenameChat: async (id: string, title: string) => {
      const c = chats.find((x) => x.id === id)
      if (!c) throw apiErr('not_found', 'Chat not found.')
      c.title = title
      return clone(c)
    },
    DeleteChat: async (id: string) => {
      const i = chats.findIndex((x) => x.id === id)
      if (i < 0) throw apiErr('not_found', 'Chat not found.')
      chats.splice(i, 1)
    },
    ListMessages: async (chatId: string) => clone(messages.filter((m) => m.chatId === chatId)),
    GetMessage: async (id: string) => {
      await wait(30)
      const m = find(id)
      if (!m) throw apiErr('not_found', 'Message not found.')
      return clone(m)
    },
    Send: async (chatId: string, text: string) => {
      await wait(40)
      if (streams.has(chatId)) throw apiErr('busy', 'This chat is already answering.')
      const c = chats.find((x) => x.id === chatId)
      if (!c) throw apiErr('not_found', 'Chat not found.')
      // A new message settles the calls still waiting: denied, never run.
      for (const cl of calls.filter((x) => x.chatId === chatId)) {
        if (cl.state === 'pending' || cl.state === 'interrupted') deny(cl, 'the user sent a new message instead of deciding')
        else if (cl.state === 'problem' && !cl.resultStatus) {
          cl.decidedBy = 'user'
          cl.decidedAt = Date.now()
          cl.reason = 'the user sent a new message instead of deciding'
          cl.result = cl.problem
          cl.resultStatus = 'error'
          saveCall(cl)
        }
      }
      const user = mk(chatId, 'user', text, Date.now())
      messages.push(user)
      const asst = startStream(chatId, text)
      touch(chatId)
      if (!c.title) {
        setTimeout(() => {
          c.title = text.length > 40 ? `${text.slice(0, 40)}…` : text
          emit('chats:changed', null)
        }, 600)
      }
      return clone([user, { ...asst, content: '', reasoning: '' }])
    },
    Stop: async (chatId: string) => {
      const st = streams.get(chatId)
      if (st) end(st, 'interrupted')
    },
    Retry: async (chatId: string) => {
      const list = messages.filter((m) => m.chatId === chatId)
      const last = list[list.length - 1]
      if (!last || last.role !== 'assistant' || (last.status !== 'error' && last.status !== 'interrupted'))
        throw apiErr('invalid', 'Nothing to retry.')
      messages.splice(messages.indexOf(last), 1)
      const prompt = [...list].reverse().find((m) => m.role === 'user')?.content ?? ''
      const next = startStream(chatId, prompt.replace(/error|错误/gi, 'again'))
      return clone({ ...next, content: '', reasoning: '' })
    },
    ActiveStreams: async () => [...streams.keys()],
    GetSettings: async () => clone(settings),
    SaveSettings: async (s: Settings) => {
      await wait()
      if (s.temperature > 2) throw apiErr('invalid', 'Temperature must be between 0 and 2.')
      settings = clone(s)
      return clone(settings)
    },
    ListProviders: async () => clone(providers),
    SaveProvider: async (p: Provider) => {
      await wait()
      if (!/^https?:\/\//.test(p.baseUrl)) throw apiErr('invalid', 'Base URL must start with http:// or https://.')
      if (p.id === 'demo' || p.id === 'env') throw apiErr('invalid', 'This provider is read-only.')
      if (!p.id) {
        const saved = { ...p, id: `p-${newId()}` }
        providers.push(saved)
        return clone(saved)
      }
      const i = providers.findIndex((x) => x.id === p.id)
      providers[i] = clone(p)
      return clone(p)
    },
    DeleteProvider: async (id: string) => {
      if (id === 'demo') throw apiErr('invalid', 'The demo provider cannot be deleted.')
      providers.splice(
        providers.findIndex((x) => x.id === id),
        1,
      )
      if (settings.activeProviderId === id) settings.activeProviderId = 'demo'
    },
    ListModels: async (p: Provider) => {
      await wait(400)
      if (p.baseUrl.includes('localhost:1234')) throw apiErr('unreachable', 'Could not connect to http://localhost:1234/v1 — is LM Studio running?')
      if (p.baseUrl.includes('openai')) return ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o3-mini', 'o4-mini']
      return ['qwen2.5:14b', 'llama3.1:8b', 'mistral-nemo:12b', 'deepseek-r1:14b', 'phi4:14b']
    },
    About: async () => ({
      name: 'Airlock',
      version: info.version,
      dataDir: info.dataDir,
      logFile: `${info.dataDir}/logs/airlock.log`,
      platform: 'linux/amd64',
      goVersion: 'go1.24.0',
    }),
    OpenDataDir: async () => {
      await wait(100)
      if (opts.realProvider) throw apiErr('open_failed', 'no file manager opener (xdg-open) was found; the folder is ' + info.dataDir)
    },
    SetChatOptions: async (chatId: string, o: ChatOptions) => {
      const c = chats.find((x) => x.id === chatId)
      if (!c) throw apiErr('not_found', 'Chat not found.')
      if (!['json', 'xml', 'vcp'].includes(o.paradigm)) throw apiErr('invalid_paradigm', `Unknown paradigm "${o.paradigm}".`)
      if (o.toolMode !== undefined && !['text', 'native', 'auto'].includes(o.toolMode)) throw apiErr('invalid', `unknown tool mode "${o.toolMode}"`)
      c.paradigm = o.paradigm
      c.recognizeOthers = o.recognizeOthers
      if (o.toolMode) c.toolMode = o.toolMode // omitted: kept
      return clone(c)
    },
    ListCalls: async (chatId: string) => clone(calls.filter((c) => c.chatId === chatId)),
    ApproveCall: async (id: string, edited: Record<string, unknown> | null) => {
      await wait(10)
      const c = getCall(id)
      if (c.state === 'problem') throw apiErr('bad_state', 'This call could not be read as a valid call; fix it first or tell the model.')
      if (edited === null) throw apiErr('invalid_arguments', `Tool "${c.name}": arguments must be a JSON object.`) // as the real binding does
      approve(c, edited, 'user')
      return callClone(c)
    },
    DenyCall: async (id: string, reason: string) => {
      await wait(10)
      const c = getCall(id)
      deny(c, reason)
      finish(c.messageId)
      return callClone(c)
    },
    AlwaysAllowCall: async (id: string, everywhere: boolean) => {
      await wait(10)
      const c = getCall(id)
      if (c.state === 'problem') throw apiErr('bad_state', 'A problem card cannot be always allowed; fix it first.')
      const rule = policy.store(policy.newRule({ effect: 'allow', match: 'any', scope: everywhere ? 'always' : 'chat' }, c))
      applyRule(c, rule)
      return callClone(c)
    },
    TellModel: async (id: string) => {
      const c = getCall(id)
      if (c.state !== 'problem' || c.resultStatus) throw apiErr('bad_state', 'Only an unsettled problem card can be sent to the model.')
      c.decidedBy = 'user'
      c.decidedAt = Date.now()
      c.result = c.problem
      c.resultStatus = 'error'
      saveCall(c)
      finish(c.messageId)
      return callClone(c)
    },
    FixAndRun: async (id: string, name: string, args: Record<string, unknown>) => {
      await wait(10)
      const c = getCall(id)
      if (c.state !== 'problem' || c.resultStatus) throw apiErr('bad_state', 'Only an unsettled problem card can be fixed.')
      const err = validate(name, args, mcp.tools())
      if (err) throw apiErr('invalid_arguments', err)
      c.name = name
      c.arguments = args
      approve(c, null, 'user')
      return callClone(c)
    },
    CancelCall: async (id: string) => {
      const c = getCall(id)
      const timer = running.get(id)
      if (timer === undefined) return
      window.clearTimeout(timer)
      running.delete(id)
      c.finishedAt = Date.now()
      c.state = 'error'
      c.result = `the user cancelled this call after ${((c.finishedAt - (c.startedAt ?? c.finishedAt)) / 1000).toFixed(1)}s`
      c.resultStatus = 'error'
      saveCall(c)
      finish(c.messageId)
    },
    RunAll: async (messageId: string) => {
      for (const c of calls.filter((x) => x.messageId === messageId && (x.state === 'pending' || x.state === 'interrupted'))) approve(c, null, 'user')
    },
    DenyAll: async (messageId: string, reason: string) => {
      for (const c of calls.filter((x) => x.messageId === messageId && (x.state === 'pending' || x.state === 'interrupted'))) deny(c, reason)
      finish(messageId)
    },
    Continue: async (chatId: string) => {
      await wait(20)
      const results = lastResults(chatId)
      if (!results) throw apiErr('nothing_to_continue', 'There are no tool results waiting to be sent.')
      const next = continueWith(chatId, results)
      return clone({ ...next, content: '', reasoning: '' })
    },
    ListRules: async () => clone(rules),
    DeleteRule: async (id: number) => {
      const i = rules.findIndex((r) => r.id === id)
      if (i >= 0) rules.splice(i, 1)
      emit('rules:changed', null)
    },
    RuleOptions: async (id: string) => {
      const c = getCall(id)
      return clone(policy.ruleOptions(c, rules.filter((r) => policy.active(r, c) && policy.matches(r, c))))
    },
    AddRuleFromCall: async (id: string, d: RuleDraft) => {
      await wait(10)
      const c = getCall(id)
      if (c.state === 'problem') throw apiErr('bad_state', 'A problem card cannot make a rule; fix it first.')
      const rule = policy.store(policy.newRule(d, c))
      applyRule(c, rule)
      return clone({ rule, call: c })
    },
    AddRule: async (d: RuleDraft) => {
      const rule = policy.store(policy.newRule(d, null))
      emit('rules:changed', null)
      return clone(rule)
    },
    TestRule: async (id: string, d: RuleDraft, chatId: string) => {
      const from = getCall(id)
      const rule = policy.newRule(d, from)
      const mine = calls.filter((x) => x.chatId === (chatId || from.chatId))
      const matched = mine.filter((x) => x.state !== 'problem' && policy.matches(rule, x) && (rule.scope !== 'call' || x.messageId === from.messageId))
      const summary = `${rule.effect === 'deny' ? 'never allow' : 'allow'} ${rule.tool}`
      return clone({ rule, summary, matched, total: mine.length })
    },
    ListAudit: async (q: AuditQuery) => clone(policy.listAudit(q)),
    ExportAudit: async (chatId: string, format: AuditFormat) => {
      await wait(10)
      if (format !== 'jsonl' && format !== 'csv') throw apiErr('invalid', `unknown format "${format}"`)
      return `/home/you/Downloads/${chatId ? 'chat' : 'airlock'}-activity.${format}`
    },
    Tools: async () => clone([...FILE_TOOL_SPECS, ...TOOLS, ...mcp.tools()]),
    ToolLab: async () => clone({ tools: [...FILE_TOOL_SPECS, ...TOOLS, ...mcp.tools()], paradigms: PARADIGMS, formats: FORMATS }),
    GetWorkspace: async (chatId: string) => {
      chatOf(chatId)
      await wait(10)
      return clone(workspaces.get(chatId))
    },
    ReadWorkspaceFile: async (chatId: string, path: string) => {
      chatOf(chatId)
      await wait(10)
      return clone(workspaces.read(chatId, path))
    },
    SetWorkspace: async (chatId: string, kind: WorkspaceKind, dir: string) => {
      const c = chatOf(chatId)
      if (!['scratch', 'folder', 'overlay'].includes(kind)) throw apiErr('invalid', `unknown workspace kind "${kind}"`)
      workspaces.set(chatId, kind, dir)
      c.workspaceKind = kind
      c.workspaceDir = kind === 'scratch' ? '' : dir
      return clone(c)
    },
    PickFolder: async () => '/home/you/projects/site',
    WorkspaceChanges: async (chatId: string) => clone(workspaces.changes(chatId)),
    ApplyChanges: async (chatId: string, paths: string[]) => {
      await wait(20)
      workspaces.apply(chatId, paths ?? [])
    },
    DiscardChanges: async (chatId: string, paths: string[]) => workspaces.discard(chatId, paths ?? []),
    ResetScratch: async (chatId: string) => workspaces.reset(chatId),
    // The preview keeps no checkpoints (its folders are not real): an empty History.
    ListCheckpoints: async () => ({ checkpoints: [], bytes: 0, limit: 200 << 20, fileLimit: 10 << 20, dropped: 0 }),
    RunTool: async (chatId: string, name: string, args: Record<string, unknown>) => {
      chatOf(chatId)
      await wait(20)
      const text = (t: string) => ({ text: t, images: [], isError: false })
      const out = workspaces.run(chatId, name, args ?? {})
      changedFiles(chatId, name)
      if (out !== undefined) return text(out)
      const err = validate(name, args ?? {}, mcp.tools())
      if (err) throw apiErr('invalid_arguments', err)
      try {
        return mcp.isMcp(name) ? mcp.run(name, args ?? {}) : text(runTool(name, args ?? {}))
      } catch (e) {
        throw apiErr('tool_error', (e as Error).message)
      }
    },
    ScanText: async (text: string, paradigm: string, recognizeOthers: boolean) => clone(scan(text, paradigm, recognizeOthers, mcp.tools())),
    ...mcp.bindings,
    ...native.bindings,
    TestConnection: async (p: Provider) => {
      await wait(500)
      if (p.baseUrl.includes('localhost:1234')) throw apiErr('unreachable', 'Could not connect to http://localhost:1234/v1 — is LM Studio running?')
      if (p.baseUrl.includes('openai') && !p.apiKey) throw apiErr('unauthorized', 'The server rejected the API key (HTTP 401).')
      return `Connected to ${p.name || p.baseUrl}: ${p.model || 'model'} answered in 412 ms.`
    },
  }

  const agents = createFakeAgents({
    chats,
    providers,
    tools: () => [...FILE_TOOL_SPECS, ...TOOLS, ...mcp.tools()],
    createChat: () => {
      const c = addChat('', Date.now())
      c.toolMode = settings.toolMode
      emit('chats:changed', null)
      return c
    },
    defaultToolMode: () => settings.toolMode,
    regenerate: async () => {
      throw apiErr('unavailable', 'The preview keeps no versions.')
    },
    messageChat: (id) => find(id)?.chatId ?? '',
  })
  Object.assign(App, agents.bindings)

  window.go = { main: { App: App as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
  window.runtime = {
    EventsOn: (name, cb) => {
      if (!listeners.has(name)) listeners.set(name, new Set())
      listeners.get(name)!.add(cb)
      return () => listeners.get(name)?.delete(cb)
    },
    BrowserOpenURL: (url) => console.info('[fake] BrowserOpenURL', url),
    ClipboardSetText: async () => true,
  }

  return {
    emit,
    settings: () => settings,
    /** Begin a stream in a chat without going through the UI. */
    startStream,
    /** The fake's tool calls and rules (tests look inside). */
    calls,
    rules,
    /** The fake workspaces (tests seed files and conflicts). */
    workspaces,
    /** The fake MCP servers. */
    mcp,
    /** The fake's audit trail. */
    audit: policy.audit,
    /** Seeds an always-allow rule. */
    addRule: (tool: string, chatId = '') => policy.anyRule(tool, chatId),
  }
}
