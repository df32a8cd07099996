package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/paradigm"
)

// In native mode the tool message of an edited or fixed call starts with
// what the user changed.
func TestNativeToolMessagesSayWhatTheUserChanged(t *testing.T) {
	par, _ := paradigm.Get("json")
	asst := chat.Message{ID: "a1", Role: chat.RoleAssistant, Content: "", Status: chat.StatusComplete}
	p := turnPlan{history: []chat.Message{{ID: "u1", Role: chat.RoleUser, Content: "go", Status: chat.StatusComplete}, asst},
		calls: map[string][]chat.Call{"a1": {
			{ModelCallID: "n1", Name: "read_file", Format: FormatNative, State: chat.CallDone, Arguments: json.RawMessage(`{"path":"a.txt"}`),
				Edited: json.RawMessage(`{"path":"b.txt"}`), Result: "B", ResultState: chat.ToolSuccess},
			{ModelCallID: "n2", Name: "echo", Format: FormatNative, State: chat.CallError, Problem: "unknown tool ech",
				Arguments: json.RawMessage(`{"text":1}`), Edited: json.RawMessage(`{"text":"x"}`), Result: "boom", ResultState: chat.ToolError},
			{ModelCallID: "n3", Name: "echo", Format: FormatNative, State: chat.CallDone, Arguments: json.RawMessage(`{}`), Result: "plain", ResultState: chat.ToolSuccess},
		}}}
	var tool []llm.Message
	for _, m := range p.messages("", par, true) {
		if m.Role == llm.RoleTool {
			tool = append(tool, m)
		}
	}
	if len(tool) != 3 {
		t.Fatalf("tool messages: %+v", tool)
	}
	if tool[0].Content != "The user edited the arguments before running: path \"a.txt\" → \"b.txt\".\n\nB" {
		t.Errorf("edited: %q", tool[0].Content)
	}
	if !strings.HasPrefix(tool[1].Content, "The user fixed this call before running it") || !strings.HasSuffix(tool[1].Content, "Error: boom") {
		t.Errorf("fixed: %q", tool[1].Content)
	}
	if tool[2].Content != "plain" {
		t.Errorf("as proposed: %q", tool[2].Content)
	}
}
