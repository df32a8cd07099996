package store

import (
	"context"
	"errors"
	"testing"

	"airlock/backend/chat"
)

// 0020 gives every agent approval defaults: those kept so far go on as
// before (your rules decide), the built-in file reviewer runs its
// read-only tools without asking.
func TestAgentApprovalMigration(t *testing.T) {
	path := oldDatabase(t, 18,
		`INSERT INTO agents (id, name, builtin, config, created_at, updated_at) VALUES ('mine', 'Mine', 0, '{"toolMode":"text"}', 1, 1)`,
	)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for id, want := range map[string]chat.ApprovalMode{"mine": chat.ApprovalRules, chat.DefaultAgentID: chat.ApprovalRules,
		chat.PlainAgentID: chat.ApprovalRules, chat.ReviewerAgentID: chat.ApprovalReads} {
		a, err := s.GetAgent(ctx, id)
		if err != nil || a.Approval != want {
			t.Errorf("%s: approval %q, %v; want %q", id, a.Approval, err, want)
		}
	}
	var raw string
	if err := s.db.QueryRow("SELECT json_extract(config, '$.approval') FROM agents WHERE id = 'mine'").Scan(&raw); err != nil || raw != "rules" {
		t.Errorf("stored approval of an old agent = %q, %v", raw, err)
	}
}

// An agent's approval default is kept, survives a reopen of the file,
// travels in an import, and an unknown one is refused with what to use.
func TestAgentApprovalStored(t *testing.T) {
	path := t.TempDir() + "/a.db"
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := s.SaveAgent(ctx, chat.Agent{Name: "Careful", Approval: chat.ApprovalAsk})
	if err != nil || a.Approval != chat.ApprovalAsk {
		t.Fatalf("save = %+v, %v", a, err)
	}
	if _, err := s.SaveAgent(ctx, chat.Agent{Name: "Odd", Approval: "sometimes"}); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("an unknown approval default saved: %v", err)
	}
	got, err := s.ImportAgents(ctx, []chat.Agent{{Name: "Reads", Approval: chat.ApprovalReads}})
	if err != nil || got[0].Approval != chat.ApprovalReads {
		t.Fatalf("import = %+v, %v", got, err)
	}
	if _, err := s.ImportAgents(ctx, []chat.Agent{{Name: "Odd", Approval: "yolo"}}); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("an import with an unknown approval default = %v", err)
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if b, err := s.GetAgent(ctx, a.ID); err != nil || b.Approval != chat.ApprovalAsk {
		t.Errorf("after reopen: %+v, %v", b, err)
	}
}
