// The sample chats the preview starts with (a conversation in markdown, an
// error, a tool-call chat with every kind of card, an interrupted answer, older titles).
import type { Call, Chat, Message } from '../src/api'
import { formatResults, readBack, type ResultSpec } from './fake-tools'
import { DAY, HOUR, MARKDOWN_SAMPLE, MIN, REASONING_SAMPLE, newId } from './fake-common'

export type SeedStore = {
  messages: Message[]
  calls: Call[]
  mk: (chatId: string, role: Message['role'], content: string, at: number, extra?: Partial<Message>) => Message
  addChat: (title: string, at: number) => Chat
  usage: (p: number, c: number) => Message['usage']
}

export function seedSampleChats(s: SeedStore, now: number) {
  const { messages, mk, addChat, usage } = s
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

  seedToolChat(s, now - 3 * HOUR)

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

function seedToolChat(s: SeedStore, at: number) {
  const { messages, calls, mk, addChat, usage } = s
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
