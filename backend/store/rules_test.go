package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"airlock/backend/chat"
)

func rule(tool string, scope chat.RuleScope, chatID string) chat.Rule {
	return chat.Rule{Effect: chat.RuleAllow, Tool: tool, Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: scope, ChatID: chatID}
}

func TestRules(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c1, _ := s.CreateChat(ctx, "one")
	c2, _ := s.CreateChat(ctx, "two")
	always, err := s.AddRule(ctx, rule("calc", chat.ScopeAlways, ""))
	if err != nil || always.ID == 0 || always.CreatedAt == 0 {
		t.Fatalf("AddRule: %+v %v", always, err)
	}
	if again, _ := s.AddRule(ctx, rule("calc", chat.ScopeAlways, "")); again.ID != always.ID {
		t.Fatal("the same rule twice is one rule")
	}
	inChat, _ := s.AddRule(ctx, rule("echo", chat.ScopeChat, c1.ID))
	path := chat.Rule{Effect: chat.RuleDeny, Tool: "read_file", Match: chat.RuleMatch{Kind: chat.MatchPath, Path: "secrets"},
		Scope: chat.ScopeSession, Message: "not there"}
	session, err := s.AddRule(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	exact := chat.Rule{Effect: chat.RuleAllow, Tool: "mcp__git__*", Match: chat.RuleMatch{Kind: chat.MatchExact, Arg: "cmd", Value: json.RawMessage(`"log"`)},
		Scope: chat.ScopeHour, ExpiresAt: chat.Now() + 3600_000}
	if exact, err = s.AddRule(ctx, exact); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRule(ctx, exact.ID)
	if err != nil || string(got.Match.Value) != `"log"` || got.Match.Arg != "cmd" || got.ExpiresAt != exact.ExpiresAt {
		t.Fatalf("GetRule: %+v %v", got, err)
	}
	if g, _ := s.GetRule(ctx, session.ID); g.Message != "not there" || g.Match.Path != "secrets" || g.Effect != chat.RuleDeny {
		t.Fatalf("a never rule's message and folder: %+v", g)
	}

	for chatID, want := range map[string]int{c1.ID: 4, c2.ID: 3} {
		if rs, _ := s.RulesFor(ctx, chatID); len(rs) != want {
			t.Errorf("RulesFor(%s) = %d rules, want %d", chatID, len(rs), want)
		}
	}
	if err := s.RuleUsed(ctx, inChat.ID, 500); err != nil {
		t.Fatal(err)
	}
	_ = s.RuleUsed(ctx, inChat.ID, 400)
	if g, _ := s.GetRule(ctx, inChat.ID); g.Uses != 2 || g.LastUsedAt != 500 {
		t.Errorf("uses: %+v", g)
	}
	if err := s.DeleteRule(ctx, always.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRule(ctx, always.ID); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("revoking twice: %v", err)
	}
	if _, err := s.AddRule(ctx, rule(" ", chat.ScopeAlways, "")); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("no tool: %v", err)
	}
	if _, err := s.AddRule(ctx, rule("x", chat.ScopeChat, "")); err == nil {
		t.Error("a chat rule without its chat is refused by the table")
	}
	// Rules go with their chat.
	if err := s.DeleteChat(ctx, c1.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetRule(ctx, inChat.ID); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("a chat's rule outlived it: %v", err)
	}
}

// Rules that last until Airlock quits do not survive a restart; hour rules
// end with their hour.
func TestTransientRulesDoNotSurviveARestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.CreateChat(ctx, "c")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "x"})
	session, _ := s.AddRule(ctx, rule("echo", chat.ScopeSession, ""))
	call := rule("echo", chat.ScopeCall, c.ID)
	call.MessageID = m.ID
	call, err = s.AddRule(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := s.AddRule(ctx, rule("echo", chat.ScopeAlways, ""))
	ended := rule("echo", chat.ScopeHour, "")
	ended.ExpiresAt = chat.Now() - 1
	ended, _ = s.AddRule(ctx, ended)
	if rs, _ := s.ListRules(ctx); len(rs) != 3 {
		t.Fatalf("this run lists %d rules, want 3 (the ended hour rule is not listed): %+v", len(rs), rs)
	}
	s.Close()

	s, err = OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, list := range []func() ([]chat.Rule, error){func() ([]chat.Rule, error) { return s.ListRules(ctx) },
		func() ([]chat.Rule, error) { return s.RulesFor(ctx, c.ID) }} {
		rs, _ := list()
		for _, r := range rs {
			if r.ID == session.ID || r.ID == call.ID {
				t.Errorf("rule %d (%s) survived the restart", r.ID, r.Scope)
			}
		}
	}
	n, err := s.PurgeRules(ctx, chat.Now())
	if err != nil || n != 3 {
		t.Fatalf("PurgeRules = %d, %v; want the session, call and ended hour rules", n, err)
	}
	if _, err := s.GetRule(ctx, kept.ID); err != nil {
		t.Errorf("an always rule was purged: %v", err)
	}
	if _, err := s.GetRule(ctx, ended.ID); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("an ended hour rule is still there: %v", err)
	}
}

// The always-allow rules of before 0008 become rules: everywhere → always,
// a chat's → chat; those of deleted chats are dropped.
func TestAllowRulesMigrate(t *testing.T) {
	path := oldDatabase(t, 7,
		"INSERT INTO chats (id, title, created_at, updated_at) VALUES ('c1', 't', 1, 1)",
		"INSERT INTO allow_rules (id, tool, chat_id, created_at) VALUES ('r1', 'calc', '', 10), ('r2', 'echo', 'c1', 20), ('r3', 'echo', 'gone', 30)",
	)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rs, err := s.ListRules(context.Background())
	if err != nil || len(rs) != 2 {
		t.Fatalf("migrated rules: %+v %v", rs, err)
	}
	if r := rs[0]; r.Tool != "calc" || r.Scope != chat.ScopeAlways || r.ChatID != "" || r.Match.Kind != chat.MatchAny || r.CreatedAt != 10 {
		t.Errorf("everywhere: %+v", r)
	}
	if r := rs[1]; r.Tool != "echo" || r.Scope != chat.ScopeChat || r.ChatID != "c1" || r.Effect != chat.RuleAllow {
		t.Errorf("a chat's: %+v", r)
	}
}
