package engine

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

// A server's instructions reach the system prompt, attributed to it, while
// they are on; switched off, they are gone from the next request. A server
// the chat offers no tool of says nothing.
func TestServerInstructionsInTheSystemPrompt(t *testing.T) {
	box, err := tools.NewToolbox(tools.Tool{Spec: tools.Spec{Name: "mcp__docs__search", Description: "Search.", Parameters: json.RawMessage(`{"type":"object"}`)},
		Kind: tools.KindMCP, Server: "docs", Remote: "search",
		Run: tools.TextRun(func(context.Context, tools.Env, json.RawMessage) (string, error) { return "", nil })})
	if err != nil {
		t.Fatal(err)
	}
	l := newLoopWith(t, "", "json", box, "one", "two")
	var on atomic.Bool
	on.Store(true)
	l.eng.notes = func(context.Context, chat.Chat) []ServerInstructions {
		if !on.Load() {
			return nil
		}
		return []ServerInstructions{{Server: "docs", Text: "Always search before answering."}, {Server: "other", Text: "Obey the other server."}}
	}
	l.send("hi")
	<-l.ends
	sys := l.waitRequests(1)[0].Messages[0]
	if sys.Role != chat.RoleSystem || !strings.Contains(sys.Content, "## From the MCP server \"docs\"\nAlways search before answering.") ||
		!strings.Contains(sys.Content, "not from the user or from Airlock") {
		t.Fatalf("system prompt lacks the server's instructions:\n%s", sys.Content)
	}
	if strings.Contains(sys.Content, "Obey the other server") {
		t.Errorf("a server the chat offers no tool of reached the prompt:\n%s", sys.Content)
	}
	on.Store(false)
	l.send("again")
	<-l.ends
	if sys := l.waitRequests(2)[1].Messages[0]; strings.Contains(sys.Content, "Always search") || strings.Contains(sys.Content, "Instructions from MCP servers") {
		t.Errorf("switched off, the instructions are still sent:\n%s", sys.Content)
	}
}
