package paradigm

import (
	"bytes"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// vcpParadigm: the VCP protocol's request blocks,
//
//	<<<[TOOL_REQUEST]>>>
//	tool_name:「始」read_file「末」,
//	path:「始」notes.md「末」
//	<<<[END_TOOL_REQUEST]>>>
//
// Every value arrives as a string; a registry coerces them by the schema.
// Definitions go in <<<[TOOL_DEFINITION]>>> blocks, results in
// <<<[TOOL_RESULT]>>> blocks.
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
- One "key:「始」value「末」" per argument; "tool_name" names the tool. Values need no quotes or escaping and may span several lines.
- Numbers and true/false are written as they are; arrays and objects as JSON. They are converted by the tool's parameters.
- One block per call. Several blocks may follow each other; they run in order.
- After the blocks, stop and wait. The results arrive in the next message, one block per call:
<<<[TOOL_RESULT]>>>
tool_name:「始」TOOL_NAME「末」
tool_call_id:「始」call_...「末」
status:「始」success「末」
result:「始」...「末」
<<<[END_TOOL_RESULT]>>>
  "status" is "success", "error" (read the message, fix the call, try again) or "denied" (the user refused: do not repeat the call unless asked).
- Never write tool results yourself, and never claim a tool ran before you have its result.
- Write a TOOL_REQUEST block only when you want the call to run.

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

// vcpValue writes an argument: strings as they are, anything else as JSON.
func vcpValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(ojson.Encode(v))
}

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
				b.WriteString(",\n" + m.Key + ":" + vcpStart + vcpValue(m.Value) + vcpEnd)
			}
		}
		b.WriteString("\n" + vcpClose)
	}
	return b.String()
}

func (vcpParadigm) FormatResults(rs []chat.ToolResult) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString("\n")
		}
		status := r.Status
		if status == "" {
			status = chat.ToolSuccess
		}
		b.WriteString("<<<[TOOL_RESULT]>>>\n")
		b.WriteString("tool_name:" + vcpStart + r.Name + vcpEnd + "\n")
		b.WriteString("tool_call_id:" + vcpStart + r.CallID + vcpEnd + "\n")
		b.WriteString("status:" + vcpStart + string(status) + vcpEnd + "\n")
		b.WriteString("result:" + vcpStart + r.Content + vcpEnd + "\n")
		b.WriteString("<<<[END_TOOL_RESULT]>>>")
	}
	return b.String()
}
