package demomodel

import (
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Reply is what the demo model does for one request.
type Reply struct {
	Reasoning string // streamed first, as reasoning_content deltas
	Text      string // the answer, in markdown
	// ToolCalls are native calls, streamed after Text as tool_calls deltas
	// (finish_reason "tool_calls").
	ToolCalls []ToolCall

	// Status, when non-zero, answers with this HTTP error instead.
	Status     int
	ErrMessage string
	ErrType    string
	ErrCode    string
	Header     http.Header // extra headers on the error (Retry-After)

	ChunkDelay time.Duration // overrides Options.ChunkDelay when non-zero
	DropAfter  int           // > 0: cut the connection after about this many bytes of Text
	Hang       bool          // send the role chunk, then nothing until the client leaves
}

// Rule maps trigger phrases in the last user message to a reply.
type Rule struct {
	Triggers []string // lower-case substrings, any one matches; none = always
	Reply    func(Prompt) Reply
}

// rules are tried in order; the first match wins. Keep the welcome text and
// the package comment in step with this table.
var rules = []Rule{
	{[]string{"error 401"}, func(Prompt) Reply {
		return Reply{Status: http.StatusUnauthorized, ErrType: "invalid_request_error", ErrCode: "invalid_api_key",
			ErrMessage: "Simulated authentication error from the Airlock demo model: incorrect API key provided."}
	}},
	{[]string{"error 404"}, func(p Prompt) Reply {
		return Reply{Status: http.StatusNotFound, ErrType: "invalid_request_error", ErrCode: "model_not_found",
			ErrMessage: "Simulated error from the Airlock demo model: the model `" + p.Model + "` does not exist."}
	}},
	{[]string{"error 429"}, func(Prompt) Reply {
		return Reply{Status: http.StatusTooManyRequests, ErrType: "requests", ErrCode: "rate_limit_exceeded",
			Header:     http.Header{"Retry-After": {"7"}},
			ErrMessage: "Simulated rate limit from the Airlock demo model: too many requests."}
	}},
	{[]string{"error 500"}, func(Prompt) Reply {
		return Reply{Status: http.StatusInternalServerError, ErrType: "server_error",
			ErrMessage: "Simulated server error from the Airlock demo model."}
	}},
	{[]string{"drop"}, func(Prompt) Reply {
		return Reply{Text: dropText, DropAfter: len(dropText) / 2}
	}},
	{[]string{"hang"}, func(Prompt) Reply { return Reply{Hang: true} }},
	{[]string{"slow", "long"}, func(Prompt) Reply {
		return Reply{Text: slowText, ChunkDelay: 40 * time.Millisecond}
	}},
	{[]string{"think", "reason"}, func(Prompt) Reply {
		return Reply{Reasoning: thinkReasoning, Text: thinkText}
	}},
	{[]string{"markdown"}, func(Prompt) Reply { return Reply{Text: markdownText} }},
	{[]string{"xss"}, func(Prompt) Reply { return Reply{Text: xssText} }},
	{nil, welcome},
}

func choose(p Prompt) Reply {
	if r, ok := imageReply(p); ok {
		return r
	}
	if p.Model == TextOnlyModel && len(p.Tools) > 0 {
		return refuseTools(p)
	}
	// Tool results are answered by reading them, whatever words they hold
	// (natively, the last user message is still the request).
	// "mcp call <tool>" names a tool outright, whatever other cue words
	// the tool's name holds ("long", "time").
	if resultsTurn(p) || mcpCallRequest.MatchString(p.LastUser) {
		if r, ok := toolReply(p); ok {
			return r
		}
	}
	last := intent(p.LastUser)
	for _, r := range rules {
		if len(r.Triggers) == 0 {
			if tr, ok := toolReply(p); ok {
				return tr
			}
		}
		if len(r.Triggers) == 0 {
			return r.Reply(p)
		}
		for _, t := range r.Triggers {
			if strings.Contains(last, t) {
				return r.Reply(p)
			}
		}
	}
	return welcome(p)
}

func welcome(p Prompt) Reply {
	var b strings.Builder
	said := strings.TrimSpace(p.LastUser)
	if said != "" && utf8.RuneCountInString(said) <= 100 && !strings.ContainsAny(said, "\n`") {
		fmt.Fprintf(&b, "You said: “%s”\n\n", said)
	}
	fmt.Fprintf(&b, welcomeText, p.Model)
	return Reply{Text: b.String()}
}

const welcomeText = `Hi! I'm **%s**, the offline demo model built into Airlock. I run inside the app — no network, no API key — and my answers are scripted, so don't expect real intelligence from me.

**Airlock** is a desktop chat app for any OpenAI-compatible server: OpenAI, DeepSeek, OpenRouter, or a local model in Ollama or LM Studio. When a model wants to use a tool, it proposes the call — through the API's native function calling, or as plain text in its answer; Airlock shows it to you on a card, and nothing runs until you approve it. Approved calls run in a sandboxed workspace, and their results go back to the model.

### Things to try

Send a message containing one of these phrases:

| Phrase | What happens |
|---|---|
| ` + "`what time is it`" + ` | I propose a **tool call**; it waits on a card for your **Run** or **Deny** |
| ` + "`calculate 17*23`" + ` | The same with the calculator; try **Edit** before running |
| ` + "`time and calc`" + ` | Two calls at once: **Run all** / **Deny all** |
| ` + "`loop`" + ` | I repeat the same call: the loop guard stops the third one |
| ` + "`broken`" + ` | A call that can't run (a tool that doesn't exist, or arguments that aren't JSON): a **problem** card |
| ` + "`work with files`" + ` | I list, write, edit and read a file in this chat's workspace, one approved step at a time |
| ` + "`run a script`" + ` | I write a short Python script (` + "`run a javascript`" + ` for JavaScript): the card shows the code and its bounds; **Run** executes it in a sandbox on this chat's workspace, and the card shows its output and the file it wrote |
| ` + "`mcp echo hello`" + ` | When an MCP server with an ` + "`echo`" + ` tool is set up (Settings → Tools), I call it: the card says it acts outside Airlock |
| ` + "`think`" + ` or ` + "`reason`" + ` | I reason first (in a collapsible block), then answer |
| ` + "`markdown`" + ` | A showcase of headings, lists, a table, code and links |
| ` + "`slow`" + ` or ` + "`long`" + ` | A long answer streamed slowly — try **Stop** halfway |
| ` + "`drop`" + ` | The connection breaks in the middle of the answer |
| ` + "`hang`" + ` | I start, then go silent until you stop me or the request times out |
| ` + "`error 401`" + `, ` + "`error 404`" + `, ` + "`error 429`" + `, ` + "`error 500`" + ` | The provider fails with that HTTP error |
| ` + "`xss`" + ` | Hostile HTML, to check that Airlock renders it harmlessly |

These tool phrases work both ways: when Airlock offers the tools natively I answer with native tool calls (several at once, streamed in pieces); when it describes them in the prompt I write the calls as text.

### Three demo models

| Model | With native tools |
|---|---|
| ` + "`airlock-demo`" + ` | Calls them natively |
| ` + "`airlock-demo-text-only`" + ` | Refuses them, as Ollama does for a model without tool support (HTTP 400) — **Auto** mode then switches to text calls |
| ` + "`airlock-demo-ignores-tools`" + ` | Accepts them but writes its calls as text, like a model whose template drops them |

Without tools all three behave the same.

### Use a real model

Open **Settings** and add a provider: its base URL (for example ` + "`https://api.openai.com/v1`" + `, or ` + "`http://localhost:11434/v1`" + ` for Ollama), your API key if it needs one, and a model name. Then make it the active provider and start a new chat.
`

const thinkReasoning = `The user asked me to think before answering. Real reasoning models such as DeepSeek-R1, Qwen3 or the o-series stream their thoughts before the answer, either in a separate reasoning field or wrapped in think tags inside the text. Airlock handles both and shows the thoughts in a block of their own. I should say that briefly, point out where the reasoning appears, and keep the answer short.`

const thinkText = `I thought about it first — open the **reasoning** block above this answer to read what I was thinking.

Reasoning models like DeepSeek-R1 and Qwen3 stream their thoughts before they answer. Some providers send them in a separate ` + "`reasoning_content`" + ` field (as I just did); others put them inline between think tags. Airlock handles both, and keeps the reasoning apart so the answer stays readable.`

const dropText = `I'll begin an answer now, but this reply is scripted to break: partway through this paragraph the server cuts the connection without finishing the stream, the way a crashed server or a dropped network would. Airlock should keep the text that already arrived and mark the message with an error, so you never lose what you saw. If you can read this sentence to its end, the test did not work.`

const markdownText = "# Markdown showcase\n\n" +
	"This reply exercises the renderer: ordinary **CommonMark** plus GitHub-style tables and task lists.\n\n" +
	"## Text\n\n" +
	"Plain, **bold**, *italic*, ***both***, ~~struck through~~, and `inline code`. " +
	"A [link to the Go website](https://go.dev) and an autolink: https://example.com.\n\n" +
	"> A blockquote. Airlock renders markdown while the answer is still streaming.\n\n" +
	"## Lists\n\n" +
	"- Unordered item\n- Another, with a nested list:\n  - nested one\n  - nested two\n- Last item\n\n" +
	"1. First step\n2. Second step\n3. Third step\n\n" +
	"- [x] A finished task\n- [ ] An open task\n\n" +
	"## Table\n\n" +
	"| Provider | Base URL | Key needed |\n|---|---|:---:|\n" +
	"| OpenAI | `https://api.openai.com/v1` | yes |\n" +
	"| DeepSeek | `https://api.deepseek.com/v1` | yes |\n" +
	"| Ollama | `http://localhost:11434/v1` | no |\n" +
	"| LM Studio | `http://localhost:1234/v1` | no |\n\n" +
	"## Code\n\n" +
	"```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := 1; i <= 3; i++ {\n\t\tfmt.Printf(\"hello %d\\n\", i)\n\t}\n}\n```\n\n" +
	"```ts\ninterface Message {\n  role: \"user\" | \"assistant\";\n  content: string;\n}\n\n" +
	"const greet = (m: Message): string => `${m.role}: ${m.content}`;\n" +
	"console.log(greet({ role: \"user\", content: \"hi\" }));\n```\n\n" +
	"### Heading level three\n\nA horizontal rule follows.\n\n---\n\nThat's all the formatting the demo knows."

const xssText = `This reply contains hostile HTML for testing sanitization. If Airlock is doing its job, nothing below runs a script, loads a remote image, embeds a page or navigates anywhere: each line shows up as inert text or disappears.

<script>alert(1)</script>

<img src=x onerror=alert(1)>

[click](javascript:alert(1))

<img src="https://example.com/track.png">

<iframe src="https://example.com"></iframe>

<a href="javascript:alert(1)">a raw HTML link</a>

<svg onload=alert(1)></svg>

If you saw an alert box, an image or an embedded page, the sanitizer has a hole.`

const slowText = `# A long answer, streamed slowly

This reply is deliberately long and slow — about three thousand characters, a few at a time every 40 milliseconds — so you can watch it arrive and press **Stop** halfway through.

## Why "Airlock"?

On a spacecraft, an airlock is a small chamber between two worlds. Nothing passes straight from the vacuum outside into the cabin:

1. **Enter.** A crew member or a piece of cargo comes into the chamber.
2. **Seal.** The outer hatch closes behind it.
3. **Check.** Pressure, temperature and suits are verified.
4. **Open.** Only then does the inner hatch open.

## The same idea, for tools

Language models are good at proposing actions and bad at knowing when not to take them. Airlock keeps the two doors apart:

- The model **proposes** a tool call as plain text in its answer.
- Airlock shows the proposal on a **card**: which tool, with which arguments.
- **You approve** it or reject it. Nothing runs before that.
- Approved calls run inside a **sandboxed workspace**, a folder the model cannot leave.
- The result goes back to the model, which carries on with its answer.

Because the proposal is ordinary text, this works with any model that follows instructions; the provider needs no special function-calling support.

## What Stop does

When you press Stop, Airlock cancels the request at once. The part of the answer that already arrived is kept, and the message is marked as *interrupted*, so you can still read it, copy it, or ask the model to go on. Nothing is retried behind your back.

The same holds when the network fails: if a connection breaks halfway, the text you already saw stays on screen, and the message says what went wrong — a refused connection, a timeout, a rejected key, or a stream that ended early.

## Waiting for a provider

Airlock waits up to 15 seconds for a provider to start answering, and up to 90 seconds of silence in the middle of an answer, before it gives up and says so. A local model on a modest machine can take a while to load, so the first answer after starting Ollama is often the slowest.

## A few words on streaming

Providers send an answer as a stream of small pieces over a single HTTP response, using server-sent events. Each piece is a little JSON object; the last one says why the answer ended, and an optional extra one reports how many tokens were used. Local servers such as Ollama and LM Studio speak the same protocol, which is why one client can talk to all of them.

Reasoning models add a second channel: their thoughts stream first, either in a separate field or wrapped in think tags inside the text. Airlock separates the two, so the thinking can sit in a collapsible block above the answer.

## The end

If you are reading this sentence, you let the whole answer stream. Ask again and press **Stop** somewhere in the middle to see an interrupted message.`
