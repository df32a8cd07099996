// A fake Go backend for looking at the UI without Wails. Test/preview only:
// never part of the production bundle. Installs window.go.main.App and
// window.runtime with sample data and simulated streaming.
import { createFakeAgents } from './fake-agents'
import type { AppInfo, Call, Chat, ChatOptions, Message, Settings } from '../src/api'
import { FORMATS, PARADIGMS, TOOLS, formatResults, readBack, runTool, scan, toolScript, validate, type ResultSpec } from './fake-tools'
import { createFakeWorkspaces, FILE_TOOL_SPECS, workspaceBindings } from './fake-workspace'
import { createFakeMcp, type FakeMcpSetup } from './fake-mcp'
import { createFakePolicy, policyBindings } from './fake-policy'
import { createFakeNative, nativeCards, nativeScript, NativeWriter, type NativeCall } from './fake-native'
import { MARKDOWN_SAMPLE, MIN, STORY, apiErr, chunk, clone, newId, wait } from './fake-common'
import { seedSampleChats } from './fake-seed'
import { createFakeSettings } from './fake-settings'

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


type Stream = { chatId: string; messageId: string; timer: number; seq: number }

export function installFakeBackend(opts: FakeOptions = {}) {
  const listeners = new Map<string, Set<Listener>>()
  const emit = (name: string, data: unknown) => listeners.get(name)?.forEach((cb) => cb(data))
  const tick = opts.tick ?? 35

  const now = Date.now()
  // No Secret Service in a preview either: Settings shows the fallback note.
  const info: AppInfo = { version: '0.1.0-preview', dataDir: '/home/mara/.local/share/airlock', envProvider: false, keyStorage: 'database' }
  const prefs = createFakeSettings(opts, info)
  const providers = prefs.providers
  const chats: Chat[] = []
  const mcp = createFakeMcp({ emit, chats, setup: opts.mcp, startMs: opts.mcpStartMs })
  const native = createFakeNative({ emit, settings: prefs.get, providers, chats })
  /** The native calls of answers still streaming, by message id. */
  const nativeOf = new Map<string, NativeCall[]>()
  const messages: Message[] = []
  const streams = new Map<string, Stream>()
  const calls: Call[] = []
  const policy = createFakePolicy()
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

  if (!opts.empty) seedSampleChats({ messages, calls, mk, addChat, usage }, now)

  const find = (id: string) => messages.find((m) => m.id === id)
  const touch = (chatId: string) => {
    const c = chats.find((x) => x.id === chatId)
    if (c) c.updatedAt = Date.now()
  }

  function startStream(chatId: string, prompt: string, scripted?: string): Message {
    const lower = prompt.toLowerCase()
    const active = providers.find((p) => p.id === prefs.get().activeProviderId)!
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
    if (!prefs.get().autoContinue) return
    let turns = 0
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i].role === 'user' && history[i].kind !== 'tool_results') break
      if (history[i].role === 'assistant') turns++
    }
    if (turns >= prefs.get().maxTurns) {
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
      c.toolMode = prefs.get().toolMode
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
    ...prefs.bindings,
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
    ...policyBindings(policy, { emit, calls, getCall, applyRule }),
    Tools: async () => clone([...FILE_TOOL_SPECS, ...TOOLS, ...mcp.tools()]),
    ToolLab: async () => clone({ tools: [...FILE_TOOL_SPECS, ...TOOLS, ...mcp.tools()], paradigms: PARADIGMS, formats: FORMATS }),
    ...workspaceBindings(workspaces, chatOf),
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
  }

  const agents = createFakeAgents({
    chats,
    providers,
    tools: () => [...FILE_TOOL_SPECS, ...TOOLS, ...mcp.tools()],
    createChat: () => {
      const c = addChat('', Date.now())
      c.toolMode = prefs.get().toolMode
      emit('chats:changed', null)
      return c
    },
    defaultToolMode: () => prefs.get().toolMode,
    activeProviderId: () => prefs.get().activeProviderId,
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
    settings: prefs.get,
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
    /** What each Activity export asked for. */
    exported: policy.exported,
    /** Seeds an always-allow rule. */
    addRule: (tool: string, chatId = '') => policy.anyRule(tool, chatId),
  }
}
