package approval

import (
	"testing"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

func mcpSubject(server, remote string, h *tools.Hints) Subject {
	s := subject("mcp__"+server+"__"+remote, `{}`)
	s.Server, s.Remote, s.Hints = server, remote, h
	return s
}

func TestReadOnlyRule(t *testing.T) {
	rule := chat.Rule{ID: 7, Effect: chat.RuleAllow, Tool: "mcp__git__*", ToolServer: "git",
		Match: chat.RuleMatch{Kind: chat.MatchReadOnly}, Scope: chat.ScopeAlways}
	cases := []struct {
		name    string
		s       Subject
		verdict Verdict
	}{
		{"read-only: runs by the rule", mcpSubject("git", "log", &tools.Hints{ReadOnly: true}), Allow},
		{"read-only with a title", mcpSubject("git", "log", &tools.Hints{ReadOnly: true, Title: "Log"}), Allow},
		{"destructive: waits", mcpSubject("git", "push", &tools.Hints{Destructive: true}), Ask},
		{"read-only and destructive both said: waits", mcpSubject("git", "gc", &tools.Hints{ReadOnly: true, Destructive: true}), Ask},
		{"no annotations: waits", mcpSubject("git", "status", nil), Ask},
		{"annotations without readOnlyHint: waits", mcpSubject("git", "status", &tools.Hints{Title: "Status"}), Ask},
		{"another server's read-only tool: waits", mcpSubject("gitx", "log", &tools.Hints{ReadOnly: true}), Ask},
		{"Airlock's own tool of the same name: waits", subject("mcp__git__log", `{}`), Ask},
	}
	for _, c := range cases {
		d := Decide(Input{Rules: []chat.Rule{rule}, Subject: c.s})
		if d.Verdict != c.verdict || (c.verdict == Allow && d.Decider() != "rule:7") {
			t.Errorf("%s: %+v", c.name, d)
		}
	}
	// A never rule still beats it.
	never := anyRule(8, chat.RuleDeny, "mcp__git__log", chat.ScopeAlways)
	if d := Decide(Input{Rules: []chat.Rule{rule, never}, Subject: mcpSubject("git", "log", &tools.Hints{ReadOnly: true})}); d.Verdict != Deny {
		t.Errorf("never beats a read-only rule: %+v", d)
	}
	// Re-read at run time: a tool that stopped saying read-only waits for a person.
	if d := Recheck([]chat.Rule{rule}, chat.Agent{}, mcpSubject("git", "log", &tools.Hints{}), 0); d.Verdict != Ask {
		t.Errorf("recheck after the claim was withdrawn: %+v", d)
	}
	if got := Describe(rule); got != "allow mcp__git__* that the server says are read-only · always" {
		t.Errorf("Describe: %q", got)
	}
}

func TestNewReadOnlyRule(t *testing.T) {
	toolsOf := func(name string) (ToolInfo, bool) {
		switch name {
		case "mcp__git__log":
			return ToolInfo{Name: name, Server: "git", Remote: "log"}, true
		case "read_file":
			return ToolInfo{Name: name, PathArgs: []string{"path"}}, true
		}
		return ToolInfo{}, false
	}
	card := &chat.Call{ID: "k", Name: "mcp__git__log", ChatID: "c", MessageID: "m"}
	r, err := NewRule(Draft{Match: chat.MatchReadOnly, Scope: chat.ScopeAlways}, card, toolsOf, 1)
	if err != nil || r.Tool != "mcp__git__*" || r.ToolServer != "git" || r.ToolRemote != "" || r.Match.Kind != chat.MatchReadOnly || r.FromCall != "k" {
		t.Fatalf("from a card: %+v %v", r, err)
	}
	if r, err := NewRule(Draft{Tool: "mcp__web__*", Match: chat.MatchReadOnly, Scope: chat.ScopeSession}, nil, toolsOf, 1); err != nil || r.ToolServer != "web" {
		t.Errorf("from Settings, by pattern: %+v %v", r, err)
	}
	for name, d := range map[string]Draft{
		"deny":            {Effect: chat.RuleDeny, Tool: "mcp__git__*", Match: chat.MatchReadOnly, Scope: chat.ScopeAlways},
		"Airlock's tool":  {Tool: "read_file", Match: chat.MatchReadOnly, Scope: chat.ScopeAlways},
		"a wider pattern": {Tool: "mcp__*", Match: chat.MatchReadOnly, Scope: chat.ScopeAlways},
		"two servers":     {Tool: "mcp__a__b__*", Match: chat.MatchReadOnly, Scope: chat.ScopeAlways},
	} {
		if _, err := NewRule(d, nil, toolsOf, 1); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
