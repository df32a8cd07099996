package facade

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/approval"
	"airlock/backend/chat"
	"airlock/backend/store"
)

// Rules through the app: the card's options, a rule made in Settings, and
// the workspace's own links deciding what a folder rule covers.
func TestRulesThroughTheApp(t *testing.T) {
	a := testApp(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "docs", "guide"), 0o755)
	os.MkdirAll(filepath.Join(dir, "secrets"), 0o755)
	if err := os.Symlink("../secrets", filepath.Join(dir, "docs", "x")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	c, _ := a.CreateChat()
	if _, err := a.SetWorkspace(c.ID, "folder", dir); err != nil {
		t.Fatal(err)
	}
	m, _ := a.store.AddMessage(a.ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "reading"})
	calls, err := a.store.AddCalls(a.ctx, []chat.Call{
		{ChatID: c.ID, MessageID: m.ID, Name: "read_file", Arguments: json.RawMessage(`{"path":"docs/guide/a.md","limit":5}`), State: chat.CallDone},
		{ChatID: c.ID, MessageID: m.ID, Index: 1, Name: "read_file", Arguments: json.RawMessage(`{"path":"docs/x/key"}`), State: chat.CallDone},
	})
	if err != nil {
		t.Fatal(err)
	}
	o, err := a.RuleOptions(calls[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if o.Tool != "read_file" || o.Folder != "docs/guide" || len(o.PathArgs) != 1 || len(o.Args) != 2 || o.Args[1].Name != "path" || !o.Args[1].Path ||
		len(o.Scopes) != 5 || len(o.Covering) != 0 {
		t.Fatalf("options: %+v", o)
	}
	never, err := a.AddRule(approval.Draft{Effect: chat.RuleDeny, Tool: "read_file", Match: chat.MatchPath, Path: "secrets", Scope: chat.ScopeAlways,
		Message: "Not my keys."})
	if err != nil || never.ID == 0 {
		t.Fatalf("AddRule: %+v %v", never, err)
	}
	if _, err := a.AddRule(approval.Draft{Tool: "read_file", Match: chat.MatchPath, Path: "/etc", Scope: chat.ScopeAlways}); err == nil ||
		!strings.Contains(err.Error(), "invalid_rule") {
		t.Fatalf("an absolute folder: %v", err)
	}
	// docs/x leads to secrets: the never rule covers that call.
	if o, _ := a.RuleOptions(calls[1].ID); len(o.Covering) != 1 || o.Covering[0].ID != never.ID {
		t.Fatalf("covering docs/x/key: %+v", o.Covering)
	}
	tested, err := a.TestRule(calls[0].ID, approval.Draft{Match: chat.MatchPath, Path: "docs", Scope: chat.ScopeChat}, "")
	if err != nil || tested.Total != 2 || len(tested.Matched) != 1 || tested.Matched[0].ID != calls[0].ID ||
		tested.Description != "allow read_file with paths under docs · this chat" {
		t.Fatalf("a rule on docs covers docs/guide/a.md, not the link out: %+v %v", tested, err)
	}
	rules, _ := a.ListRules()
	if len(rules) != 1 {
		t.Fatalf("testing saved a rule: %+v", rules)
	}
	if err := a.DeleteRule(never.ID); err != nil {
		t.Fatal(err)
	}
	if rules, _ := a.ListRules(); len(rules) != 0 {
		t.Fatalf("revoked: %+v", rules)
	}
}

func TestListAuditPages(t *testing.T) {
	a := testApp(t)
	c, _ := a.CreateChat()
	for i := 0; i < 5; i++ {
		if _, err := a.store.AddAudit(a.ctx, chat.AuditEntry{ChatID: c.ID, Tool: "echo", Decision: chat.AuditApproved, DecidedBy: chat.ByUser}); err != nil {
			t.Fatal(err)
		}
	}
	p1, err := a.ListAudit(store.AuditQuery{ChatID: c.ID, Limit: 2})
	if err != nil || len(p1.Entries) != 2 || p1.Next == 0 {
		t.Fatalf("page 1: %+v %v", p1, err)
	}
	p2, _ := a.ListAudit(store.AuditQuery{ChatID: c.ID, Limit: 2, Before: p1.Next})
	p3, _ := a.ListAudit(store.AuditQuery{ChatID: c.ID, Limit: 2, Before: p2.Next})
	if len(p2.Entries) != 2 || len(p3.Entries) != 1 || p3.Next != 0 || p3.Entries[0].ID >= p2.Entries[1].ID {
		t.Fatalf("pages: %+v %+v", p2, p3)
	}
}
