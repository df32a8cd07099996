package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

// hintedBox is one MCP server's tools with the annotations its list gives.
func hintedBox(t *testing.T, server string, hints map[string]*tools.Hints) *tools.Toolbox {
	t.Helper()
	var ts []tools.Tool
	for remote, h := range hints {
		ts = append(ts, tools.Tool{Spec: tools.Spec{Name: "mcp__" + server + "__" + remote, Description: remote, Parameters: json.RawMessage(`{"type":"object"}`)},
			Kind: tools.KindMCP, Server: server, Remote: remote, Hints: h,
			Run: tools.TextRun(func(context.Context, tools.Env, json.RawMessage) (string, error) { return "ran " + remote, nil })})
	}
	box, err := tools.NewToolbox(ts...)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// A rule on a server's read-only tools runs the tool that says readOnlyHint
// and names itself in the audit trail; a tool of the same server that says
// destructiveHint, or says nothing, waits for a person.
func TestReadOnlyToolsOfAServerRunByTheRule(t *testing.T) {
	box := hintedBox(t, "git", map[string]*tools.Hints{"log": {ReadOnly: true, Title: "Log"}, "push": {Destructive: true}, "status": nil})
	l := newLoopWith(t, "", "json", box,
		written(t, "json", tc("1", "mcp__git__log", `{}`), tc("2", "mcp__git__push", `{}`), tc("3", "mcp__git__status", `{}`)), "done")
	ctx := context.Background()
	r := addRule(t, l.st, chat.Rule{Effect: chat.RuleAllow, Tool: "mcp__git__*", ToolServer: "git", Match: chat.RuleMatch{Kind: chat.MatchReadOnly}, Scope: chat.ScopeAlways})
	if got, _ := l.st.GetRule(ctx, r.ID); got.Match.Kind != chat.MatchReadOnly || got.ToolServer != "git" {
		t.Fatalf("stored as: %+v", got)
	}
	l.send("look")
	calls := l.waitCalls("log ran", func(cs []chat.Call) bool { return len(cs) == 3 && cs[0].State == chat.CallDone })
	time.Sleep(30 * time.Millisecond)
	for _, c := range calls[1:] {
		if c, _ := l.st.GetCall(ctx, c.ID); c.State != chat.CallPending {
			t.Errorf("%s ran by a read-only rule: %s", c.Name, c.State)
		}
	}
	ran := l.trail(calls[0].ID, 1)
	row(t, ran[0], chat.AuditApproved, r.By(), "")
	if !strings.Contains(ran[0].Rule, "mcp__git__* that the server says are read-only") {
		t.Errorf("rule in the row: %+v", ran[0])
	}
}
