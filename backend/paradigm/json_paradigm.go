package paradigm

import (
	"strings"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

// jsonParadigm: calls in a fenced ```json block,
// {"tool_calls":[{"id":"call_1","name":"read_file","arguments":{...}}]};
// results as {"tool_call_result":{...}} blocks, one per call.
type jsonParadigm struct{}

func (jsonParadigm) ID() string    { return "json" }
func (jsonParadigm) Label() string { return "JSON" }

func (jsonParadigm) Parse(text string) Result { return Scan(text, Options{Paradigm: "json"}) }

func (p jsonParadigm) Prompt(specs []tools.Spec) string {
	if len(specs) == 0 {
		return ""
	}
	ex := exampleCall(specs)
	var b strings.Builder
	b.WriteString(`# Tools

You can call tools. A call runs only after the user approves it.

## How to call tools

Write one fenced JSON block in exactly this form, then end your message:

` + "```json" + `
{"tool_calls":[{"id":"call_1","name":"TOOL_NAME","arguments":{"ARGUMENT":"VALUE"}}]}
` + "```" + `

Rules:
- "name" is one of the tools below; "arguments" is a JSON object that matches its parameters.
- Give every call an "id" not used before in this conversation: call_1, call_2, ...
- Several calls may go in the same block; they run in order.
- After the block, stop and wait. The results arrive in the next message, one block per call:
  {"tool_call_result":{"toolCallId":"call_1","name":"TOOL_NAME","status":"success","result":...}}
  "status" is "success", "error" (read the message, fix the call, try again) or "denied" (the user refused: do not repeat the call unless asked).
- Never write tool results yourself, and never claim a tool ran before you have its result.
- Write a "tool_calls" block only when you want the calls to run.

## Available tools

`)
	b.WriteString(toolList(specs))
	b.WriteString("## Example\n\n")
	b.WriteString(p.FormatCalls([]chat.ToolCall{ex}))
	b.WriteString("\n")
	return b.String()
}

func (jsonParadigm) FormatCalls(calls []chat.ToolCall) string {
	var b strings.Builder
	b.WriteString("```json\n{\"tool_calls\":[")
	for i, c := range calls {
		if i > 0 {
			b.WriteString(",")
		}
		b.Write(callObject(c))
	}
	b.WriteString("]}\n```")
	return b.String()
}

func (jsonParadigm) FormatResults(rs []chat.ToolResult) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("```json\n{\"tool_call_result\":")
		b.Write(resultObject(r))
		b.WriteString("}\n```")
	}
	return b.String()
}
