// Pure pieces of the fake tool loop (test/preview only): tool specs, a small
// scanner for the three paradigms (+ Hermes tags), formatting of calls and
// results, and the demo model's tool scripts. Mirrors the Go side's
// behaviour closely enough to drive the UI; it is not the real parser.
import type { FormatInfo, ParadigmInfo, ScanResult, ToolSpec } from '../src/api'

export const TOOLS: ToolSpec[] = [
  {
    name: 'get_current_time',
    kind: 'builtin',
    description: "Get the current date and time. Use it whenever the answer depends on today's date or the time of day.",
    parameters: {
      type: 'object',
      properties: {
        timezone: { type: 'string', description: 'IANA time zone such as "Europe/Paris" or "America/New_York". Omit for UTC.' },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'calculate',
    kind: 'builtin',
    description:
      'Evaluate an arithmetic expression and return the number. Supports + - * / % ^ (power) and parentheses. Example: "(17 * 23) / 4".',
    parameters: {
      type: 'object',
      properties: { expression: { type: 'string', description: 'The expression, e.g. "2^10 / 3".' } },
      required: ['expression'],
      additionalProperties: false,
    },
  },
]

const toolList = TOOLS.map((t) => `### ${t.name}\n${t.description}\nParameters (JSON Schema): ${JSON.stringify(t.parameters)}`).join('\n\n')

export const PARADIGMS: ParadigmInfo[] = [
  {
    id: 'json',
    label: 'JSON',
    prompt: `# Tools\n\nYou can call tools. A call runs only after the user approves it.\n\n## How to call tools\n\nWrite one fenced JSON block in exactly this form, then end your message:\n\n\`\`\`json\n{"tool_calls":[{"id":"call_1","name":"TOOL_NAME","arguments":{"ARGUMENT":"VALUE"}}]}\n\`\`\`\n\n## Available tools\n\n${toolList}\n`,
  },
  {
    id: 'xml',
    label: 'XML tags',
    prompt: `# Tools\n\nYou can call tools. A call runs only after the user approves it.\n\n## How to call tools\n\nWrite a <tool_code> tag holding a JSON object with the tool's "name" and its "arguments", then end your message:\n\n<tool_code>{"name":"TOOL_NAME","arguments":{"ARGUMENT":"VALUE"}}</tool_code>\n\n## Available tools\n\n${toolList}\n`,
  },
  {
    id: 'vcp',
    label: 'VCP',
    prompt: `# Tools\n\nYou can call tools. A call runs only after the user approves it.\n\n## How to call tools\n\n<<<[TOOL_REQUEST]>>>\ntool_name:「始」TOOL_NAME「末」,\nARGUMENT:「始」VALUE「末」\n<<<[END_TOOL_REQUEST]>>>\n\n## Available tools\n\n${toolList}\n`,
  },
]

export const FORMATS: FormatInfo[] = [
  {
    id: 'json',
    name: 'Airlock JSON',
    models: 'any (JSON paradigm)',
    example: '```json\n{"tool_calls":[{"id":"call_1","name":"read_file","arguments":{"path":"notes.md"}}]}\n```',
  },
  { id: 'xml', name: 'Airlock XML', models: 'any (XML paradigm)', example: '<tool_code>{"name":"read_file","arguments":{"path":"notes.md"}}</tool_code>' },
  {
    id: 'vcp',
    name: 'VCP',
    models: 'any (VCP paradigm)',
    example: '<<<[TOOL_REQUEST]>>>\ntool_name:「始」read_file「末」,\npath:「始」notes.md「末」\n<<<[END_TOOL_REQUEST]>>>',
  },
  {
    id: 'hermes',
    name: 'Hermes',
    models: 'Hermes 2/3, Qwen 2.5/3, QwQ, many fine-tunes',
    example: '<tool_call>\n{"name": "read_file", "arguments": {"path": "notes.md"}}\n</tool_call>',
  },
  { id: 'mistral', name: 'Mistral', models: 'Mistral 7B v0.3, Nemo, Small 3.x', example: '[TOOL_CALLS]read_file[ARGS]{"path": "notes.md"}' },
]

export type ToolCallSpec = { id: string; name: string; args: Record<string, unknown> }

/** Checks arguments against the two built-in tools (and `extra` ones, e.g. MCP tools); returns an error sentence or null. */
export function validate(name: string, args: unknown, extra: ToolSpec[] = []): string | null {
  const tool = TOOLS.find((t) => t.name === name)
  const other = tool ? null : extra.find((t) => t.name === name)
  if (!tool && !other) return `There is no tool named "${name}". Available tools: ${[...TOOLS, ...extra].map((t) => t.name).join(', ')}.`
  if (!args || typeof args !== 'object' || Array.isArray(args)) return `Tool "${name}": arguments must be a JSON object.`
  if (!tool) {
    const required = ((other!.parameters as { required?: string[] } | undefined)?.required ?? []).filter((k) => !(k in (args as object)))
    return required.length ? `Tool "${name}": missing required argument "${required[0]}".` : null
  }
  const a = args as Record<string, unknown>
  const props = Object.keys((tool.parameters as { properties: object }).properties)
  const unknown = Object.keys(a).filter((k) => !props.includes(k))
  const problems: string[] = []
  if (name === 'calculate' && typeof a.expression !== 'string') problems.push('missing required argument "expression"')
  if (name === 'get_current_time' && a.timezone !== undefined && typeof a.timezone !== 'string') problems.push('"timezone" must be a string')
  for (const k of unknown) problems.push(`unknown argument "${k}"`)
  if (problems.length === 0) return null
  const expected = name === 'calculate' ? 'expression (string, required)' : 'timezone (string)'
  return `Tool "${name}": ${problems.join('; ')}. Expected arguments: ${expected}.`
}

/** Runs a built-in tool: the output, or throws the error text. */
export function runTool(name: string, args: Record<string, unknown>): string {
  if (name === 'calculate') {
    const expr = String(args.expression ?? '')
    if (!/^[\d\s+\-*/().^%]+$/.test(expr) || !/\d/.test(expr)) throw new Error(`cannot evaluate "${expr}": unexpected input`)
    // Restricted to digits and operators above: safe to evaluate (preview only).
    const v = Function(`"use strict"; return (${expr.replace(/\^/g, '**')})`)() as number
    if (!Number.isFinite(v)) throw new Error('the result is not a finite number (division by zero or out of range)')
    return String(Math.round(v * 1e12) / 1e12)
  }
  if (name === 'get_current_time') {
    const tz = typeof args.timezone === 'string' && args.timezone ? args.timezone : 'UTC'
    if (!/^[A-Za-z_]+(\/[A-Za-z_]+)*$/.test(tz)) throw new Error(`unknown time zone "${tz}"; use an IANA name such as "Europe/Paris"`)
    return `${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${tz})`
  }
  throw new Error(`there is no tool named "${name}"`)
}

export function formatCalls(calls: ToolCallSpec[], paradigm: string): string {
  if (paradigm === 'xml') return calls.map((c) => `<tool_code>${JSON.stringify({ name: c.name, arguments: c.args })}</tool_code>`).join('\n')
  if (paradigm === 'vcp')
    return calls
      .map(
        (c) =>
          `<<<[TOOL_REQUEST]>>>\ntool_name:「始」${c.name}「末」${Object.entries(c.args)
            .map(([k, v]) => `,\n${k}:「始」${String(v)}「末」`)
            .join('')}\n<<<[END_TOOL_REQUEST]>>>`,
      )
      .join('\n')
  return '```json\n' + JSON.stringify({ tool_calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.args })) }) + '\n```'
}

export type ResultSpec = { callId: string; name: string; status: 'success' | 'error' | 'denied'; content: string }

export function formatResults(results: ResultSpec[], paradigm: string): string {
  const one = (r: ResultSpec) => JSON.stringify({ toolCallId: r.callId, name: r.name, status: r.status, result: r.content })
  if (paradigm === 'xml') return results.map((r) => `<tool_result>${one(r)}</tool_result>`).join('\n')
  if (paradigm === 'vcp')
    return results
      .map(
        (r) =>
          `[[VCP调用结果信息汇总:\n- 工具名称: ${r.name}\n- 调用ID: ${r.callId}\n- 执行状态: ${{ success: '✅ SUCCESS', error: '❌ ERROR', denied: '⛔ DENIED' }[r.status]}\n- 返回内容: ${r.content}\nVCP调用结果结束]]`,
      )
      .join('\n\n')
  return results.map((r) => '```json\n' + `{"tool_call_result":${one(r)}}` + '\n```').join('\n\n')
}

/** The demo model's tool scripts (as in the Go demo): calls to propose, or a broken one. */
export function toolScript(prompt: string, paradigm: string): string | null {
  const last = prompt.toLowerCase()
  const expr = (prompt.match(/[-+*/^%().\d\s]*\d[-+*/^%().\d\s]*/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => /[+\-*/^%]/.test(s))
    .sort((a, b) => b.length - a.length)[0] ?? '17 * 23 + 2^8'
  let intro: string
  let calls: ToolCallSpec[]
  if (last.includes('mcp')) {
    // The fake "everything" MCP server's tools (preview/fake-mcp.ts).
    const image = last.includes('image') || last.includes('picture')
    intro = image ? "I'll ask the MCP server for a picture." : "I'll ask the MCP server to echo that."
    calls = [
      image
        ? { id: 'call_1', name: 'mcp__everything__tiny_image', args: {} }
        : { id: 'call_1', name: 'mcp__everything__echo', args: { message: prompt.replace(/^.*?\bmcp\b\s*(echo)?\s*:?\s*/i, '') || 'hello' } },
    ]
  } else if (/^read \S+\.\w+/.test(last)) {
    // "read docs/a.md": one read_file of that path (rules on folders, in the preview and tests).
    intro = "I'll read it."
    calls = [{ id: 'call_1', name: 'read_file', args: { path: prompt.trim().split(/\s+/)[1] } }]
  } else if (last.includes('loop')) {
    intro = "I'll add one and one. (This script repeats the same call to show Airlock's loop guard.)"
    calls = [{ id: 'call_1', name: 'calculate', args: { expression: '1+1' } }]
  } else if (last.includes('broken') || last.includes('malformed')) {
    const head = "Here's a call that can't run (the tool does not exist), to show a problem card:\n\n"
    if (paradigm === 'xml') return head + '<tool_code>{"name":"teleport","arguments":{"to":"Mars"}}</tool_code>'
    if (paradigm === 'vcp') return head + '<<<[TOOL_REQUEST]>>>\ntool_name:「始」teleport「末」,\nto:「始」Mars「末」\n<<<[END_TOOL_REQUEST]>>>'
    return head + '```json\n{"tool_calls":[{"id":"call_1","name":"teleport","arguments":{"to":"Mars"}}]}\n```'
  } else if (last.includes('time') && (last.includes('calc') || last.includes('both'))) {
    intro = "I'll check the time and do the sum."
    calls = [
      { id: 'call_1', name: 'get_current_time', args: { timezone: 'UTC' } },
      { id: 'call_2', name: 'calculate', args: { expression: expr } },
    ]
  } else if (last.includes('time') || last.includes('date') || prompt.includes('几点')) {
    intro = 'Let me look at the clock.'
    calls = [{ id: 'call_1', name: 'get_current_time', args: {} }]
  } else if (last.includes('calc') || last.includes('compute') || prompt.includes('计算')) {
    intro = "I'll use the calculator rather than guess."
    calls = [{ id: 'call_1', name: 'calculate', args: { expression: expr } }]
  } else {
    return null
  }
  return `${intro}\n\n${formatCalls(calls, paradigm)}`
}

/** How the demo model reads results back. */
export function readBack(results: ResultSpec[]): string {
  const lines = results.map((r) =>
    r.status === 'success'
      ? `- **${r.name}** returned \`${r.content}\`.`
      : r.status === 'denied'
        ? `- You denied **${r.name}**, so I did not run it. ${r.content.replace(/^The user denied this call\.\s*/, '')}`.trim()
        : `- **${r.name || 'the call'}** failed: ${r.content}`,
  )
  return `${lines.join('\n')}\n\nThat's everything I needed. (Scripted demo answer: a real model would now use these results.)`
}

type Found = { name: string; args: unknown; raw: string; format: string; start: number; end: number; id: string }

/** A small scanner: JSON blocks, <tool_code>, VCP and (with others) Hermes <tool_call>; <think> is skipped. */
export function scan(text: string, paradigm: string, others: boolean, extra: ToolSpec[] = []): ScanResult {
  const ignored: ScanResult['ignored'] = []
  for (const m of text.matchAll(/<think>[\s\S]*?<\/think>/g)) ignored.push({ start: m.index!, end: m.index! + m[0].length, reason: 'reasoning' })
  const inIgnored = (i: number) => ignored.some((g) => i >= g.start && i < g.end)
  const found: Found[] = []
  const problems: ScanResult['problems'] = []
  let n = 0
  const genId = () => `call_${(++n).toString().padStart(2, '0')}`
  const want = (p: string) => paradigm === 'auto' || paradigm === p || (others && p === 'hermes')

  const pushObj = (obj: unknown, raw: string, format: string, start: number, end: number) => {
    const o = obj as { id?: string; name?: string; arguments?: unknown; parameters?: unknown }
    if (!o || typeof o !== 'object' || typeof o.name !== 'string') {
      problems.push({ message: 'This looks like a tool call but has no "name".', raw, format, start, end })
      return
    }
    found.push({ name: o.name, args: o.arguments ?? o.parameters ?? {}, raw, format, start, end, id: o.id ?? genId() })
  }

  if (want('json'))
    for (const m of text.matchAll(/```json\s*\n(\{[\s\S]*?\})\s*\n```/g)) {
      if (inIgnored(m.index!)) continue
      const start = m.index! + m[0].indexOf(m[1])
      const end = start + m[1].length
      try {
        const v = JSON.parse(m[1]) as { tool_calls?: unknown[] }
        if (!Array.isArray(v.tool_calls)) continue
        for (const c of v.tool_calls) pushObj(c, m[1] + '\n', 'json', start, end)
      } catch (e) {
        problems.push({ message: `The tool call block is not valid JSON: ${(e as Error).message}`, raw: m[1], format: 'json', start, end })
      }
    }
  const tag = (re: RegExp, format: string) => {
    for (const m of text.matchAll(re)) {
      if (inIgnored(m.index!)) continue
      const start = m.index!
      const end = start + m[0].length
      try {
        pushObj(JSON.parse(m[1]), m[0], format, start, end)
      } catch (e) {
        problems.push({ message: `The ${format} call is not valid JSON: ${(e as Error).message}`, raw: m[0], format, start, end })
      }
    }
  }
  if (want('xml')) tag(/<tool_code>([\s\S]*?)<\/tool_code>/g, 'xml')
  if (want('hermes')) tag(/<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g, 'hermes')
  if (want('vcp'))
    for (const m of text.matchAll(/<<<\[TOOL_REQUEST\]>>>([\s\S]*?)<<<\[END_TOOL_REQUEST\]>>>/g)) {
      if (inIgnored(m.index!)) continue
      const fields: Record<string, string> = {}
      for (const f of m[1].matchAll(/(\w+):「始」([\s\S]*?)「末」/g)) fields[f[1]] = f[2]
      const { tool_name: name, ...args } = fields
      found.push({ name: name ?? '', args, raw: m[0], format: 'vcp', start: m.index!, end: m.index! + m[0].length, id: genId() })
    }

  const calls: ScanResult['calls'] = []
  for (const f of found) {
    const err = validate(f.name, f.args, extra)
    if (err) problems.push({ message: err, raw: f.raw, name: f.name, id: f.id, format: f.format, start: f.start, end: f.end })
    else calls.push({ id: f.id, name: f.name, arguments: f.args, raw: f.raw, format: f.format, start: f.start, end: f.end })
  }
  calls.sort((a, b) => a.start - b.start)
  problems.sort((a, b) => a.start - b.start)
  return { calls, problems, ignored }
}
