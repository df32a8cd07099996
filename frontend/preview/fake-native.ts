// Native calling in the fake backend (mirrors backend/engine/native.go and
// forming.go): how a turn calls tools (a chat's mode, and Auto's knowledge
// per provider+model), the ModelMode/SetModelMode bindings, and calls the
// demo model makes natively — their arguments arrive in pieces, sent as
// calls:forming while the answer streams, and become cards when it ends.
import type { Chat, FormingCall, ModelModeInfo, Provider, Settings, ToolMode, ToolSpec } from '../src/api'
import { validate } from './fake-tools'
import { apiErr } from './fake-common'

type Emit = (name: string, data: unknown) => void
type Learned = { learned: '' | 'native' | 'text'; reason: string; learnedAt: number; override: '' | 'native' | 'text' }
export type NativeCall = { id: string; name: string; args: string }

const DAY = 24 * 60 * 60_000

/** Models that refuse the tools parameter the first time Auto tries it (as Ollama answers for a model without tool support). */
const REFUSES_TOOLS = new Set(['qwen2.5:14b'])

/** The calls of a scripted answer written in JSON (preview/fake-tools toolScript), as the model would make them natively. */
export function nativeScript(text: string): { intro: string; calls: NativeCall[] } | null {
  const m = text.match(/```json\n([\s\S]*?)\n```/)
  if (!m || m.index === undefined) return null
  try {
    const parsed = JSON.parse(m[1]) as { tool_calls?: { id?: string; name: string; arguments: unknown }[] }
    const calls = (parsed.tool_calls ?? []).map((c, i) => ({ id: c.id || `call_${i + 1}`, name: c.name, args: JSON.stringify(c.arguments ?? {}) }))
    if (calls.length === 0) return null
    return { intro: text.slice(0, m.index).trim(), calls }
  } catch {
    return null
  }
}

/**
 * Writes native calls a few characters a tick, as a model streams tool_calls;
 * says what is written so far at most every `every` ticks (and whenever a
 * call begins), like the real backend's 150 ms.
 */
export class NativeWriter {
  private call = 0
  private at = 0
  private ticks = 0
  readonly written: FormingCall[] = []
  constructor(
    private readonly emit: Emit,
    private readonly chatId: string,
    private readonly messageId: string,
    readonly calls: NativeCall[],
    private readonly step = 4,
    private readonly every = 4,
  ) {}

  /** One tick; false once every call is written (the answer can end). */
  tick(): boolean {
    if (this.call >= this.calls.length) return false
    const c = this.calls[this.call]
    let grew = false
    if (this.written.length <= this.call) {
      // The call begins: its index first, the name in the next chunk.
      this.written.push({ name: '', arguments: '', format: 'native', complete: false })
      grew = true
    } else {
      const w = this.written[this.call]
      if (!w.name) w.name = c.name
      else {
        w.arguments = c.args.slice(0, this.at + this.step)
        this.at += this.step
      }
      if (this.at >= c.args.length) {
        // A later call began: this one is whole (the last one is whole when the answer ends).
        this.call++
        this.at = 0
        if (this.call < this.calls.length) w.complete = true
      }
    }
    if (grew || ++this.ticks % this.every === 0 || this.call >= this.calls.length) this.flush()
    return true
  }

  private flush() {
    this.emit('calls:forming', { chatId: this.chatId, messageId: this.messageId, calls: this.written.map((w) => ({ ...w })) })
  }
}

/** What becomes of native calls when the answer ends: cards (problem cards for what cannot run). */
export function nativeCards(calls: NativeCall[], tools: ToolSpec[]) {
  return calls.map((c) => {
    let args: unknown = null
    let problem = ''
    try {
      args = c.args.trim() ? JSON.parse(c.args) : {}
    } catch (e) {
      problem = `The arguments are not valid JSON, so the call was not run: ${(e as Error).message}`
    }
    problem = problem || validate(c.name, args, tools) || ''
    return problem
      ? { modelCallId: c.id, name: c.name, arguments: args, raw: c.args, format: 'native', state: 'problem' as const, problem }
      : { modelCallId: c.id, name: c.name, arguments: args, raw: c.args, format: 'native', state: 'pending' as const }
  })
}

export function createFakeNative(o: { emit: Emit; settings: () => Settings; providers: Provider[]; chats: Chat[] }) {
  const now = Date.now()
  const modes = new Map<string, Learned>([
    ['env\u0000llama-3.1-8b-instruct', { learned: 'text', reason: 'HTTP 400: "llama-3.1-8b-instruct" does not support tools', learnedAt: now - 2 * DAY, override: '' }],
    ['p-openai\u0000gpt-4o-mini', { learned: 'native', reason: 'its native calls work', learnedAt: now - 5 * DAY, override: '' }],
  ])
  const active = () => o.providers.find((p) => p.id === o.settings().activeProviderId) ?? o.providers[0]
  /** The provider and model a chat talks to (as the backend's chatProvider): its own, else the active one. */
  const providerOf = (providerId?: string, model?: string): Provider => {
    const p = (providerId && o.providers.find((x) => x.id === providerId)) || active()
    return model ? { ...p, model } : p
  }
  const target = (chatId: string, providerId: string, model: string): Provider => {
    const c = chatId ? o.chats.find((x) => x.id === chatId) : undefined
    return c ? providerOf(c.providerId, c.model) : providerOf(providerId, model)
  }
  const key = (p: Provider) => `${p.id}\u0000${p.model}`
  const get = (p: Provider): Learned => modes.get(key(p)) ?? { learned: '', reason: '', learnedAt: 0, override: '' }
  const info = (p: Provider): ModelModeInfo => {
    const m = get(p)
    return { providerId: p.id, model: p.model, ...m, effective: m.override || m.learned || 'native' }
  }
  const learn = (p: Provider, mode: 'native' | 'text', reason: string) => modes.set(key(p), { ...get(p), learned: mode, reason, learnedAt: Date.now() })

  return {
    bindings: {
      ModelMode: async (chatId = '', providerId = '', model = '') => info(target(chatId, providerId, model)),
      SetModelMode: async (chatId: string, providerId: string, model: string, override: string, forget: boolean) => {
        if (override !== '' && override !== 'native' && override !== 'text') throw apiErr('invalid', `unknown tool mode "${override}" (want native or text)`)
        const p = target(chatId, providerId, model)
        const m = forget ? { learned: '' as const, reason: '', learnedAt: 0, override: '' as const } : get(p)
        modes.set(key(p), { ...m, override })
        return info(p)
      },
    },

    /** How this answer calls tools: text, or native (Auto may learn here that the model refuses tools, and say so). */
    plan(chat: Chat): 'text' | 'native' {
      const mode: ToolMode = chat.toolMode ?? 'text'
      if (mode !== 'auto') return mode
      const p = providerOf(chat.providerId, chat.model)
      const m = get(p)
      if (m.override || m.learned) return m.override || m.learned || 'native'
      if (REFUSES_TOOLS.has(p.model)) {
        const reason = `HTTP 400: registry.ollama.ai/library/${p.model} does not support tools`
        learn(p, 'text', reason)
        o.emit('chat:notice', {
          chatId: chat.id,
          code: 'tool_mode_learned',
          message: `Auto: ${p.model} uses tool calls written as text from now on (${reason}). Change it in the chat's Tools menu.`,
        })
        return 'text'
      }
      return 'native'
    },

    /** An answer asked for natively ended with native calls: Auto learns they work (silently: nothing changes). */
    worked(chat: Chat) {
      const p = providerOf(chat.providerId, chat.model)
      if (chat.toolMode === 'auto' && !get(p).learned && !get(p).override) learn(p, 'native', 'its native calls work')
    },
  }
}
