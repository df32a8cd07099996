package paradigm

import (
	"bytes"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// vcpParadigm: the VCP protocol's request blocks (read in vcp.go),
//
//	<<<[TOOL_REQUEST]>>>
//	tool_name:「始」read_file「末」,
//	path:「始」notes.md「末」
//	<<<[END_TOOL_REQUEST]>>>
//
// Every value arrives as a string; a registry coerces them by the schema.
// Definitions go in <<<[TOOL_DEFINITION]>>> blocks (as AIO Hub writes
// them); results come back as VCPToolBox's [[VCP调用结果信息汇总: …]]
// summaries.
type vcpParadigm struct{}

const (
	vcpOpen      = "<<<[TOOL_REQUEST]>>>"
	vcpClose     = "<<<[END_TOOL_REQUEST]>>>"
	vcpStart     = "「始」"
	vcpEnd       = "「末」"
	vcpNameKey   = "tool_name"
	vcpFullColon = "："
)

func (vcpParadigm) ID() string    { return "vcp" }
func (vcpParadigm) Label() string { return "VCP" }

func (vcpParadigm) Parse(text string) Result { return Scan(text, Options{Paradigm: "vcp"}) }

func (p vcpParadigm) Prompt(specs []tools.Spec) string {
	if len(specs) == 0 {
		return ""
	}
	ex := exampleCall(specs)
	var b strings.Builder
	b.WriteString(`# Tools

You can call tools. A call runs only after the user approves it.

## How to call tools

Write a request block in exactly this form, then end your message:

<<<[TOOL_REQUEST]>>>
tool_name:「始」TOOL_NAME「末」,
ARGUMENT:「始」VALUE「末」
<<<[END_TOOL_REQUEST]>>>

Rules:
- One "key:「始」value「末」" per argument; "tool_name" names the tool. Values need no quotes or escaping, may span several lines, and keep their indentation.
- A value that contains 「始」, 「末」 or the block markers goes in an escape fence instead: key:「始ESCAPE」value「末ESCAPE」. Inside it, write <<<[TOOL_REQUEST_ESCAPE]>>> and <<<[END_TOOL_REQUEST_ESCAPE]>>> for the markers.
- Numbers and true/false are written as they are; arrays and objects as JSON. They are converted by the tool's parameters.
- One block per call. Several blocks may follow each other; they run in order.
- Write blocks in the message itself, not inside a code fence, and only when you want the call to run.
- After the blocks, stop and wait. The results arrive in the next message, one block per call:
[[VCP调用结果信息汇总:
- 工具名称: TOOL_NAME
- 调用ID: call_...
- 执行状态: ✅ SUCCESS
- 返回内容: ...
VCP调用结果结束]]
  The status is ✅ SUCCESS, ❌ ERROR (read the message, fix the call, try again) or ⛔ DENIED (the user refused: do not repeat the call unless asked).
- Never write tool results yourself, and never claim a tool ran before you have its result.

## Available tools

`)
	for _, s := range specs {
		b.WriteString("<<<[TOOL_DEFINITION]>>>\n")
		b.WriteString("tool_name:「始」" + s.Name + "「末」\n")
		if d := strings.TrimSpace(s.Description); d != "" {
			b.WriteString("description:「始」" + d + "「末」\n")
		}
		b.WriteString("parameters:「始」\n" + paramLines(s.Parameters) + "\n「末」\n")
		b.WriteString("<<<[END_TOOL_DEFINITION]>>>\n\n")
	}
	b.WriteString("## Example\n\n")
	b.WriteString(p.FormatCalls([]chat.ToolCall{ex}))
	b.WriteString("\n")
	return b.String()
}

// vcpValue writes an argument: strings as they are, anything else as JSON;
// a value holding the protocol's own markers in an escape fence.
func vcpValue(v any) (open, value, close string) {
	text, ok := v.(string)
	if !ok {
		text = string(ojson.Encode(v))
	}
	if strings.Contains(text, vcpStart) || strings.Contains(text, vcpEnd) || strings.Contains(text, "<<<[") {
		return vcpEscOpen, vcpEscape.Replace(text), vcpEscClose
	}
	return vcpStart, text, vcpEnd
}

const (
	vcpEscOpen  = "「始ESCAPE」"
	vcpEscClose = "「末ESCAPE」"
)

// vcpEscape writes the block markers inside an escape fence the way the
// parser restores them.
var vcpEscape = strings.NewReplacer(vcpOpen, "<<<[TOOL_REQUEST_ESCAPE]>>>", vcpClose, "<<<[END_TOOL_REQUEST_ESCAPE]>>>")

func (vcpParadigm) FormatCalls(calls []chat.ToolCall) string {
	var b strings.Builder
	for i, c := range calls {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(vcpOpen + "\n")
		b.WriteString(vcpNameKey + ":" + vcpStart + c.Name + vcpEnd)
		v, _ := ojson.Decode(bytes.TrimSpace(c.Arguments))
		if obj, ok := v.(ojson.Object); ok {
			for _, m := range obj {
				open, value, close := vcpValue(m.Value)
				b.WriteString(",\n" + m.Key + ":" + open + value + close)
			}
		}
		b.WriteString("\n" + vcpClose)
	}
	return b.String()
}

// FormatResults writes VCPToolBox's result summary, one per call, with
// Airlock's call id beside the tool's name.
func (vcpParadigm) FormatResults(rs []chat.ToolResult) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString("\n")
		}
		status := "✅ SUCCESS"
		switch r.Status {
		case chat.ToolError:
			status = "❌ ERROR"
		case chat.ToolDenied:
			status = "⛔ DENIED"
		}
		b.WriteString("[[VCP调用结果信息汇总:\n")
		b.WriteString("- 工具名称: " + r.Name + "\n")
		b.WriteString("- 调用ID: " + r.CallID + "\n")
		b.WriteString("- 执行状态: " + status + "\n")
		b.WriteString("- 返回内容: " + r.Content + "\n")
		b.WriteString("VCP调用结果结束]]")
	}
	return b.String()
}
