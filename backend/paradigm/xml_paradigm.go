package paradigm

import (
	"strings"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

// xmlParadigm: a tag wrapping a JSON payload,
// <tool_code>{"name":"read_file","arguments":{...}}</tool_code> (JSON inside
// the tag so file contents full of quotes and angle brackets survive); the
// Hermes/Qwen <tool_call> spelling is read too. Results go back in
// <tool_result> tags.
type xmlParadigm struct{}

func (xmlParadigm) ID() string    { return "xml" }
func (xmlParadigm) Label() string { return "XML tags" }

func (xmlParadigm) Parse(text string) Result { return Scan(text, Options{Paradigm: "xml"}) }

func (p xmlParadigm) Prompt(specs []tools.Spec) string {
	if len(specs) == 0 {
		return ""
	}
	ex := exampleCall(specs)
	var b strings.Builder
	b.WriteString(`# Tools

You can call tools. A call runs only after the user approves it.

## How to call tools

Write a <tool_code> tag holding a JSON object with the tool's "name" and its "arguments", then end your message:

<tool_code>{"name":"TOOL_NAME","arguments":{"ARGUMENT":"VALUE"}}</tool_code>

Rules:
- The content of the tag is JSON: strings in double quotes, with quotes, backslashes and line breaks escaped (\", \\, \n). Angle brackets need no escaping.
- "name" is one of the tools below; "arguments" is a JSON object that matches its parameters. You may add an "id".
- One tag per call. Several tags may follow each other; they run in order.
- After the tags, stop and wait. The results arrive in the next message, one tag per call:
  <tool_result>{"toolCallId":"...","name":"TOOL_NAME","status":"success","result":...}</tool_result>
  "status" is "success", "error" (read the message, fix the call, try again) or "denied" (the user refused: do not repeat the call unless asked).
- Never write tool results yourself, and never claim a tool ran before you have its result.
- Write a <tool_code> tag only when you want the call to run.

## Available tools

`)
	b.WriteString(toolList(specs))
	b.WriteString("## Example\n\n")
	ex.ID = ""
	b.WriteString(p.FormatCalls([]chat.ToolCall{ex}))
	b.WriteString("\n")
	return b.String()
}

func (xmlParadigm) FormatCalls(calls []chat.ToolCall) string {
	var b strings.Builder
	for i, c := range calls {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("<tool_code>")
		b.Write(callObject(c))
		b.WriteString("</tool_code>")
	}
	return b.String()
}

func (xmlParadigm) FormatResults(rs []chat.ToolResult) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("<tool_result>")
		b.Write(resultObject(r))
		b.WriteString("</tool_result>")
	}
	return b.String()
}
