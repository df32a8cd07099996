package demomodel

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/paradigm"
)

// Tool scripts: when the request offers tools, the demo answers some phrases
// with tool calls, and answers tool results by reading them. Tools offered
// natively ("tools" in the request) get native calls; tools taught by the
// system prompt get calls written the way that paradigm's prompt teaches.

// native is the tool mode of a request whose tools the demo calls natively.
const native = "native"

// toolMode says how the demo calls tools for p: native, a paradigm id
// (calls written as text), or "" (no tools on offer).
func toolMode(p Prompt) string {
	pid := paradigmOf(p)
	switch {
	case len(p.Tools) == 0:
		return pid
	case p.Model != IgnoresToolsModel:
		return native
	case pid != "":
		return pid
	}
	return "json" // a model that ignores tools writes them the common way
}

// paradigmOf tells which paradigm the system prompt teaches ("" = no tools).
func paradigmOf(p Prompt) string {
	for _, m := range p.Messages {
		if m.Role != "system" {
			continue
		}
		switch {
		case strings.Contains(m.Content, "<<<[TOOL_REQUEST]>>>"):
			return "vcp"
		case strings.Contains(m.Content, "<tool_code>"):
			return "xml"
		case strings.Contains(m.Content, `"tool_calls"`):
			return "json"
		}
	}
	return ""
}

// result is one tool result read back from a results message.
type result struct{ name, status, text string }

var (
	jsonResult = regexp.MustCompile(`\{"tool_call_result":(\{.*?\})\}\s*(?:\n|$)`)
	xmlResult  = regexp.MustCompile(`(?s)<tool_result>(.*?)</tool_result>`)
	vcpResult  = regexp.MustCompile(`(?s)\[\[VCP调用结果信息汇总:\n- 工具名称: (.*?)\n.*?- 执行状态: \S+ (\w+)\n- 返回内容: (.*?)\nVCP调用结果结束\]\]`)
)

// readResults parses a tool-results message in any of the three paradigms.
func readResults(text string) []result {
	var out []result
	fromJSON := func(s string) {
		var v struct {
			Name, Status string
			Result       any
		}
		if json.Unmarshal([]byte(s), &v) == nil {
			r := fmt.Sprint(v.Result)
			if b, err := json.Marshal(v.Result); err == nil && !strings.HasPrefix(string(b), `"`) {
				r = string(b)
			}
			out = append(out, result{v.Name, v.Status, r})
		}
	}
	for _, m := range jsonResult.FindAllStringSubmatch(text, -1) {
		fromJSON(m[1])
	}
	for _, m := range xmlResult.FindAllStringSubmatch(text, -1) {
		fromJSON(strings.TrimSpace(m[1]))
	}
	for _, m := range vcpResult.FindAllStringSubmatch(text, -1) {
		out = append(out, result{m[1], strings.ToLower(m[2]), m[3]})
	}
	return out
}

// resultsTurn says whether the request ends with tool results to read.
func resultsTurn(p Prompt) bool {
	return nativeResults(p) != nil || len(readResults(p.LastUser)) > 0
}

// toolReply answers with tool calls or reads results back; ok is false when
// the request offers no tools or the phrase is not a tool script.
func toolReply(p Prompt) (Reply, bool) {
	mode := toolMode(p)
	if rs := nativeResults(p); rs != nil {
		return afterResults(p, mode, rs), true
	}
	if mode == "" {
		return Reply{}, false
	}
	if rs := readResults(p.LastUser); len(rs) > 0 {
		return afterResults(p, mode, rs), true
	}
	last := intent(p.LastUser)
	var calls []chat.ToolCall
	var intro string
	switch {
	case strings.Contains(last, "mcp echo"):
		name := mcpEcho(p)
		if name == "" {
			return Reply{Text: noMCPEcho}, true
		}
		intro = "I'll ask the MCP server to echo that back. It runs outside Airlock, so it waits for your decision like any call."
		calls = []chat.ToolCall{call(1, name, map[string]any{"message": echoText(p.LastUser)})}
	case isCodeScript(last):
		intro, calls = codeCall(last)
	case isFilesScript(last):
		intro, calls = filesStep(0)
	case strings.Contains(last, "loop"):
		intro = "I'll add one and one. (This script repeats the same call to show Airlock's loop guard.)"
		calls = []chat.ToolCall{call(1, "calculate", map[string]any{"expression": "1+1"})}
	case strings.Contains(last, "broken") || strings.Contains(last, "malformed"):
		return brokenReply(p, mode), true
	case strings.Contains(last, "time") && (strings.Contains(last, "calc") || strings.Contains(last, "both")):
		intro = "I'll check the time and do the sum."
		calls = []chat.ToolCall{call(1, "get_current_time", map[string]any{"timezone": "UTC"}), call(2, "calculate", map[string]any{"expression": expression(last)})}
	case strings.Contains(last, "time") || strings.Contains(last, "date") || strings.Contains(last, "today"):
		intro = "Let me look at the clock."
		calls = []chat.ToolCall{call(1, "get_current_time", map[string]any{})}
	case strings.Contains(last, "calc") || strings.Contains(last, "compute") || strings.Contains(last, "math"):
		intro = "I'll use the calculator rather than guess."
		calls = []chat.ToolCall{call(1, "calculate", map[string]any{"expression": expression(last)})}
	default:
		return Reply{}, false
	}
	return callReply(p, mode, intro, calls), true
}

// callReply makes the calls in the request's tool mode: native calls after
// the intro, or the intro and the calls as the paradigm writes them. A call
// to a tool the request does not list is not made.
func callReply(p Prompt, mode, intro string, calls []chat.ToolCall) Reply {
	for _, c := range calls {
		if len(p.Tools) > 0 && !slices.Contains(p.Tools, c.Name) {
			return Reply{Text: "I'd use **" + c.Name + "** for that, but this chat does not offer it, so there is nothing I can call."}
		}
	}
	if mode != native {
		par, _ := paradigm.Get(mode)
		return Reply{Text: intro + "\n\n" + par.FormatCalls(calls)}
	}
	r := Reply{Text: intro}
	for _, c := range calls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: newCallID(), Name: c.Name, Arguments: string(c.Arguments)})
	}
	return r
}

func call(n int, name string, args map[string]any) chat.ToolCall {
	b, _ := json.Marshal(args)
	return chat.ToolCall{ID: fmt.Sprintf("call_%d", n), Name: name, Arguments: b}
}

// mcpEchoTool finds an MCP server's echo tool among those the request
// offers (the reference server @modelcontextprotocol/server-everything has one).
var mcpEchoTool = regexp.MustCompile(`mcp__[A-Za-z0-9_-]+?__echo\b`)

func mcpEcho(p Prompt) string {
	for _, name := range p.Tools {
		if mcpEchoTool.FindString(name) == name {
			return name
		}
	}
	for _, m := range p.Messages {
		if m.Role == "system" {
			if name := mcpEchoTool.FindString(m.Content); name != "" {
				return name
			}
		}
	}
	return ""
}

var echoRequest = regexp.MustCompile(`(?is)mcp echo\s*(.*)`)

// echoText is what follows "mcp echo" in the request.
func echoText(last string) string {
	if m := echoRequest.FindStringSubmatch(last); m != nil && strings.TrimSpace(m[1]) != "" {
		return strings.TrimSpace(m[1])
	}
	return "Hello from Airlock"
}

const noMCPEcho = "No MCP server in this chat offers an echo tool. Add one in **Settings → Tools → MCP servers** " +
	"(for example `npx -y @modelcontextprotocol/server-everything`), make sure the chat uses it, and ask again."

var mathExpr = regexp.MustCompile(`[-+*/^%().\d\s]*\d[-+*/^%().\d\s]*`)

// expression picks the arithmetic out of a request ("calculate 17*23").
func expression(text string) string {
	best := ""
	for _, m := range mathExpr.FindAllString(text, -1) {
		if m = strings.TrimSpace(m); len(m) > len(best) && strings.ContainsAny(m, "+-*/^%") {
			best = m
		}
	}
	if best == "" {
		return "17 * 23 + 2^8"
	}
	return best
}

// brokenReply shows a problem card. As text: a call to a tool that does not
// exist. Natively (the server would refuse an unknown name): a call whose
// arguments are not valid JSON, which no repair can mend.
func brokenReply(p Prompt, mode string) Reply {
	if mode != native {
		return Reply{Text: brokenCall(mode)}
	}
	name := p.Tools[0]
	if slices.Contains(p.Tools, "calculate") {
		name = "calculate"
	}
	return Reply{Text: "Here's a call whose arguments are not valid JSON, to show a problem card:",
		ToolCalls: []ToolCall{{ID: newCallID(), Name: name, Arguments: `{"expression": "17*23", oops}`}}}
}

// brokenCall shows a problem card: a tool that does not exist.
func brokenCall(pid string) string {
	intro := "Here's a call that can't run (the tool does not exist), to show a problem card:\n\n"
	switch pid {
	case "xml":
		return intro + `<tool_code>{"name":"teleport","arguments":{"to":"Mars"}}</tool_code>`
	case "vcp":
		return intro + "<<<[TOOL_REQUEST]>>>\ntool_name:「始」teleport「末」,\nto:「始」Mars「末」\n<<<[END_TOOL_REQUEST]>>>"
	}
	return intro + "```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"teleport\",\"arguments\":{\"to\":\"Mars\"}}]}\n```"
}

// afterResults reads the results back to the user, or repeats the call when
// the conversation is the loop-guard demo.
func afterResults(p Prompt, mode string, rs []result) Reply {
	orig := strings.ToLower(originalRequest(p))
	if mode != "" && strings.Contains(orig, "loop") && rs[0].status == "success" {
		return callReply(p, mode, "Once more, to be sure.", []chat.ToolCall{call(1, "calculate", map[string]any{"expression": "1+1"})})
	}
	if mode != "" && isFilesScript(orig) && rs[0].status == "success" {
		step := resultsSince(p)
		if mode == native {
			step = roundsSince(p)
		}
		if intro, calls := filesStep(step); calls != nil {
			return callReply(p, mode, intro, calls)
		}
		return Reply{Text: "Done. `notes.md` is in this chat's workspace: open the **Files** panel to read it. " +
			"In an overlay workspace nothing reached your real folder yet: review the changes and **Apply** them.\n\n" +
			"What the last step returned:\n\n```\n" + rs[0].text + "\n```"}
	}
	var b strings.Builder
	for _, r := range rs {
		switch r.status {
		case "success":
			fmt.Fprintf(&b, "- **%s** returned `%s`.\n", r.name, oneLine(r.text))
		case "denied":
			fmt.Fprintf(&b, "- You denied **%s**, so I did not run it. %s\n", r.name, strings.TrimPrefix(oneLine(r.text), "The user denied this call. "))
		default:
			fmt.Fprintf(&b, "- **%s** failed: %s\n", r.name, oneLine(r.text))
		}
	}
	b.WriteString("\nThat's everything I needed. (Scripted demo answer: a real model would now use these results.)")
	return Reply{Text: b.String()}
}

// originalRequest is the last thing the user wrote that was not tool results.
func originalRequest(p Prompt) string {
	for i := len(p.Messages) - 1; i >= 0; i-- {
		m := p.Messages[i]
		if m.Role == "user" && len(readResults(m.Content)) == 0 {
			return m.Content
		}
	}
	return ""
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// The code script writes a short program (Python unless the message says
// JavaScript) that writes a file in the workspace and prints a line.
func isCodeScript(text string) bool {
	return strings.Contains(text, "script") || strings.Contains(text, "python")
}

const (
	demoPython = "squares = [n * n for n in range(1, 11)]\n" +
		"with open(\"squares.txt\", \"w\") as f:\n" +
		"    f.write(\"\\n\".join(str(s) for s in squares) + \"\\n\")\n" +
		"print(\"wrote squares.txt:\", len(squares), \"numbers\")\n" +
		"sum(squares)"
	demoJavaScript = "const squares = Array.from({ length: 10 }, (_, i) => (i + 1) ** 2);\n" +
		"writeFile(\"squares.txt\", squares.join(\"\\n\") + \"\\n\");\n" +
		"console.log(\"wrote squares.txt:\", squares.length, \"numbers\");\n" +
		"squares.reduce((a, b) => a + b, 0);"
)

func codeCall(text string) (string, []chat.ToolCall) {
	if strings.Contains(text, "javascript") || strings.Contains(text, " js") {
		return "I'll write a short JavaScript program. Read it on the card; it runs only when you press Run, in a sandbox on this chat's workspace.",
			[]chat.ToolCall{call(1, "run_javascript", map[string]any{"code": demoJavaScript})}
	}
	return "I'll write a short Python script. Read it on the card; it runs only when you press Run, in a sandbox on this chat's workspace.",
		[]chat.ToolCall{call(1, "run_python", map[string]any{"code": demoPython})}
}

// The files script walks through the workspace tools, one call per turn:
// look around, write a note, edit it, read it back.
func isFilesScript(text string) bool {
	return strings.Contains(text, "file") || strings.Contains(text, "workspace") || strings.Contains(text, "notes")
}

func filesStep(n int) (string, []chat.ToolCall) {
	switch n {
	case 0:
		return "First, let me see what is in the workspace.", []chat.ToolCall{call(1, "list_directory", map[string]any{"path": ".", "recursive": true})}
	case 1:
		return "I'll write a short note. The card shows the diff before you decide.", []chat.ToolCall{call(1, "write_file", map[string]any{
			"path":    "notes.md",
			"content": "# Notes from Airlock\n\n- The model proposes; you decide.\n- Every call waits on a card.\n- Files live in this chat's workspace.\n",
		})}
	case 2:
		return "Now a small edit: only the changed line shows in the diff.", []chat.ToolCall{call(1, "edit_file", map[string]any{
			"path": "notes.md", "old_text": "- Every call waits on a card.", "new_text": "- Every call waits on a card, with a diff for file changes.",
		})}
	case 3:
		return "Finally, let me read it back to check.", []chat.ToolCall{call(1, "read_file", map[string]any{"path": "notes.md"})}
	}
	return "", nil
}

// resultsSince counts the tool-result messages since the user's request.
func resultsSince(p Prompt) int {
	n := 0
	for i := len(p.Messages) - 1; i >= 0; i-- {
		m := p.Messages[i]
		if m.Role != "user" {
			continue
		}
		if len(readResults(m.Content)) == 0 {
			break
		}
		n++
	}
	return n
}
