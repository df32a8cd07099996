package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/approval"
	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/mcp"
)

// gitServer is an in-process MCP server "git" with a tool that says it is
// read-only (log), one that says it is destructive (push) and one that
// says nothing (status), connected through Airlock's own MCP manager.
func gitServer(t *testing.T) (*sdk.Server, *mcp.Manager) {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "git", Version: "1"}, nil)
	destructive := true
	add := func(name string, a *sdk.ToolAnnotations) {
		srv.AddTool(&sdk.Tool{Name: name, Description: name, InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: a},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ran " + name}}}, nil
			})
	}
	add("log", &sdk.ToolAnnotations{Title: "Log", ReadOnlyHint: true})
	add("push", &sdk.ToolAnnotations{DestructiveHint: &destructive})
	add("status", nil)
	m := mcp.NewManager(mcp.Options{Transport: func(mcp.ServerConfig) (sdk.Transport, error) {
		serverSide, clientSide := sdk.NewInMemoryTransports()
		ss, err := srv.Connect(context.Background(), serverSide, nil)
		if err == nil {
			t.Cleanup(func() { _ = ss.Close() })
		}
		return clientSide, err
	}})
	t.Cleanup(func() { m.Close() })
	if err := m.Configure([]mcp.ServerConfig{{Name: "git", Enabled: true, URL: "http://in-process.invalid"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	return srv, m
}

func boxOf(t *testing.T, m *mcp.Manager) *tools.Toolbox {
	t.Helper()
	box, err := tools.NewToolbox(m.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// A rule on a server's read-only tools runs the tool that says readOnlyHint
// and names itself in the audit trail; a tool of the same server that says
// destructiveHint, or says nothing, waits for a person.
func TestReadOnlyToolsOfAServerRunByTheRule(t *testing.T) {
	_, m := gitServer(t)
	l := newLoopWith(t, "", "json", boxOf(t, m),
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
	if !strings.Contains(calls[0].Result, "ran log") {
		t.Errorf("log's result: %q", calls[0].Result)
	}
	ran := l.trail(calls[0].ID, 1)
	row(t, ran[0], chat.AuditApproved, r.By(), "")
	if !strings.Contains(ran[0].Rule, "mcp__git__* that the server says are read-only") {
		t.Errorf("rule in the row: %+v", ran[0])
	}
}

// The annotations are read when a call is decided: a tool the server
// later lists as read-only is covered from then on, and one it stops
// calling read-only is not.
func TestReadOnlyRuleReadsTheCurrentAnnotations(t *testing.T) {
	srv, m := gitServer(t)
	rule := chat.Rule{ID: 1, Effect: chat.RuleAllow, Tool: "mcp__git__*", ToolServer: "git", Match: chat.RuleMatch{Kind: chat.MatchReadOnly}, Scope: chat.ScopeAlways}
	verdict := func(name string) approval.Verdict {
		s := Subjects(boxOf(t, m), tools.Env{}, nil)(chat.Call{Name: name, Arguments: json.RawMessage(`{}`), State: chat.CallPending})
		return approval.Decide(approval.Input{Rules: []chat.Rule{rule}, Subject: s}).Verdict
	}
	if verdict("mcp__git__status") != approval.Ask || verdict("mcp__git__log") != approval.Allow {
		t.Fatal("before the change")
	}
	// The server now says status is read-only and log is not (list_changed).
	handler := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	}
	srv.AddTool(&sdk.Tool{Name: "status", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, handler)
	srv.AddTool(&sdk.Tool{Name: "log", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &sdk.ToolAnnotations{Title: "Log"}}, handler)
	deadline := time.Now().Add(10 * time.Second)
	for verdict("mcp__git__status") != approval.Allow || verdict("mcp__git__log") != approval.Ask {
		if time.Now().After(deadline) {
			t.Fatal("the rule did not follow the server's new annotations")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
