package store

import (
	"context"
	"testing"

	"airlock/backend/chat"
)

// A rule on a server's read-only tools survives the round trip (match_kind
// 'any' in the column, readonly again when read), is found again rather
// than stored twice, and a rule on one MCP tool stays what it was.
func TestReadOnlyRuleRoundTrip(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	ro := chat.Rule{Effect: chat.RuleAllow, Tool: "mcp__git__*", ToolServer: "git", Match: chat.RuleMatch{Kind: chat.MatchReadOnly}, Scope: chat.ScopeAlways}
	a, err := s.AddRule(ctx, ro)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := s.AddRule(ctx, ro); err != nil || b.ID != a.ID {
		t.Errorf("stored twice: %d %d %v", a.ID, b.ID, err)
	}
	one, err := s.AddRule(ctx, chat.Rule{Effect: chat.RuleAllow, Tool: "mcp__git__log", ToolServer: "git", ToolRemote: "log", Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: chat.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	rules, err := s.ListRules(ctx)
	if err != nil || len(rules) != 2 {
		t.Fatalf("%+v %v", rules, err)
	}
	for _, r := range rules {
		switch r.ID {
		case a.ID:
			if r.Match.Kind != chat.MatchReadOnly || r.ToolServer != "git" || r.ToolRemote != "" {
				t.Errorf("read-only rule read back as %+v", r)
			}
		case one.ID:
			if r.Match.Kind != chat.MatchAny {
				t.Errorf("a rule on one tool read back as %+v", r)
			}
		}
	}
	var kind string
	if err := s.db.QueryRowContext(ctx, "SELECT match_kind FROM rules WHERE id = ?", a.ID).Scan(&kind); err != nil || kind != "any" {
		t.Errorf("column: %q %v", kind, err)
	}
	for _, bad := range []chat.Rule{
		{Effect: chat.RuleAllow, Tool: "mcp__git__*", Match: chat.RuleMatch{Kind: chat.MatchReadOnly}, Scope: chat.ScopeAlways},                           // no server
		{Effect: chat.RuleAllow, Tool: "mcp__git__*", ToolServer: "git", Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: chat.ScopeAlways},             // would read back as readonly
		{Effect: chat.RuleAllow, Tool: "x", ToolServer: "git", ToolRemote: "x", Match: chat.RuleMatch{Kind: chat.MatchReadOnly}, Scope: chat.ScopeAlways}, // one tool
	} {
		if _, err := s.AddRule(ctx, bad); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}
