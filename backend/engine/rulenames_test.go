package engine

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"airlock/backend/approval"
	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/mcp"
)

// A never rule saved from Settings with the tool name as a person types it
// holds for the tool the scanner finds under that name (issue 31, item 4);
// a name no tool answers to is refused rather than saved to hold nowhere.
func TestRuleNamesAreReadAsTheScannerReadsThem(t *testing.T) {
	box := testTools(t)
	known := ToolsOf(box)
	call := approval.Subject{Call: chat.Call{Name: "echo", Arguments: json.RawMessage(`{"text":"x"}`), State: chat.CallPending}}
	for _, typed := range []string{"Echo", "ECHO", "functions.echo", " echo ", "tools.Echo"} {
		r, err := approval.NewRule(approval.Draft{Effect: chat.RuleDeny, Tool: typed, Scope: chat.ScopeAlways}, nil, known, chat.Now())
		if err != nil {
			t.Errorf("%q: %v", typed, err)
			continue
		}
		if r.Tool != "echo" || !approval.Matches(r, call) {
			t.Errorf("%q: saved as %q, matches echo: %v", typed, r.Tool, approval.Matches(r, call))
		}
	}
	_, err := approval.NewRule(approval.Draft{Effect: chat.RuleDeny, Tool: "ekho_tool", Scope: chat.ScopeAlways}, nil, known, chat.Now())
	if !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("an unknown name from Settings: %v", err)
	}
	never := chat.Rule{ID: 1, Effect: chat.RuleDeny, Tool: "ECH*", Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: chat.ScopeAlways}
	if !approval.Matches(never, call) {
		t.Error("a never rule's pattern ignores case")
	}
}

// mcpBox is a toolbox of one MCP server's tools, named as the server's
// list names them.
func mcpBox(t *testing.T, server string, remotes ...string) *tools.Toolbox {
	t.Helper()
	names := mcp.ToolNames(server, remotes)
	var ts []tools.Tool
	for i, r := range remotes {
		ts = append(ts, tools.Tool{Spec: tools.Spec{Name: names[i], Description: r, Parameters: json.RawMessage(`{"type":"object"}`)},
			Kind: tools.KindMCP, Server: server, Remote: r,
			Run: tools.TextRun(func(context.Context, tools.Env, json.RawMessage) (string, error) { return "", nil })})
	}
	box, err := tools.NewToolbox(ts...)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// A rule on an MCP tool follows the tool (its server and its own name),
// not its sanitised name: when the server later lists a second tool that
// takes the sanitised name, the rule stays with the first one.
func TestAnMCPRuleFollowsItsTool(t *testing.T) {
	before := mcpBox(t, "git", "push.all")
	if _, ok := before.Get("mcp__git__push_all"); !ok {
		t.Fatalf("the sanitised name: %v", before.Registry().Names())
	}
	r, err := approval.NewRule(approval.Draft{Effect: chat.RuleAllow, Tool: "mcp__git__push_all", Scope: chat.ScopeAlways}, nil, ToolsOf(before), chat.Now())
	if err != nil {
		t.Fatal(err)
	}
	r.ID = 1
	after := mcpBox(t, "git", "push.all", "push_all") // push_all now owns mcp__git__push_all
	subject := Subjects(after, tools.Env{}, nil)
	var renamed string
	for _, n := range after.Registry().Names() {
		if tl, _ := after.Get(n); tl.Remote == "push.all" {
			renamed = n
		}
	}
	other := subject(chat.Call{Name: "mcp__git__push_all", Arguments: json.RawMessage(`{}`), State: chat.CallPending})
	same := subject(chat.Call{Name: renamed, Arguments: json.RawMessage(`{}`), State: chat.CallPending})
	if approval.Matches(r, other) {
		t.Errorf("the rule on push.all moved to push_all, which took its name")
	}
	if renamed == "mcp__git__push_all" || !approval.Matches(r, same) {
		t.Errorf("the rule follows push.all to its new name %q", renamed)
	}
}
