package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"airlock/backend/chat"
)

// oldDatabase is a database file at schema version `version`, with the
// statements run on it (the data an upgrade starts from).
func oldDatabase(t *testing.T, version int, seed ...string) string {
	t.Helper()
	ms, err := loadMigrations(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	db := openRaw(t, path)
	defer db.Close()
	if err := migrate(context.Background(), db, ms[:version]); err != nil {
		t.Fatal(err)
	}
	for _, q := range seed {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// Before 0015 the system prompt, temperature, tool mode, turn cap and tool
// timeout were global settings and every chat used the active provider:
// the migration makes them the default agent, and gives each chat the
// provider and model that were active.
func TestAgentsMigrateGlobalSettings(t *testing.T) {
	path := oldDatabase(t, 14,
		"INSERT INTO providers (id, name, base_url, model, created_at) VALUES ('p1', 'Local', 'http://127.0.0.1:1/v1', 'qwen3:8b', 1)",
		"INSERT INTO settings (key, value) VALUES ('active_provider_id', 'p1'), ('system_prompt', 'Answer in French.'), ('temperature', '0.3'), ('tool_mode', 'native'), ('max_turns', '7'), ('tool_timeout_seconds', '90')",
		"INSERT INTO chats (id, title, created_at, updated_at) VALUES ('c1', 'old', 1, 1)",
	)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	a, err := s.GetAgent(ctx, chat.DefaultAgentID)
	if err != nil {
		t.Fatal(err)
	}
	if a.SystemPrompt != "Answer in French." || a.Temperature == nil || *a.Temperature != 0.3 || a.ToolMode != chat.ToolModeNative ||
		a.MaxTurns != 7 || a.ToolTimeoutSeconds != 90 || !a.Tools.Default || !a.BuiltIn {
		t.Errorf("default agent = %+v (temperature %v)", a, a.Temperature)
	}
	c, err := s.GetChat(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if c.AgentID != chat.DefaultAgentID || c.ProviderID != "p1" || c.Model != "qwen3:8b" {
		t.Errorf("old chat setup = %+v", c.ChatSetup)
	}
	as, err := s.ListAgents(ctx)
	if err != nil || len(as) != 3 || as[0].ID != chat.DefaultAgentID {
		t.Fatalf("agents = %+v, %v", as, err)
	}
}

// A first run: the default agent leaves the temperature to the provider.
func TestAgentsFreshDefaults(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	a, err := s.GetAgent(ctx, chat.DefaultAgentID)
	if err != nil || a.Temperature != nil || a.ToolMode != chat.ToolModeAuto || a.MaxTurns != 25 {
		t.Fatalf("default = %+v, %v", a, err)
	}
	r, err := s.GetAgent(ctx, chat.ReviewerAgentID)
	if err != nil || !r.Tools.ReadOnly || !r.Sequential {
		t.Fatalf("reviewer = %+v, %v", r, err)
	}
	p, err := s.GetAgent(ctx, chat.PlainAgentID)
	if err != nil || p.Tools.Default || p.Offers("calculator", true, nil) {
		t.Fatalf("plain = %+v, %v", p, err)
	}
}

func TestPerChatModelAndAgent(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	p, err := s.SaveProvider(ctx, chat.Provider{Name: "Local", BaseURL: "http://127.0.0.1:1/v1", Model: "a"})
	if err != nil {
		t.Fatal(err)
	}
	c1, err := s.CreateChat(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	if c1.ProviderID != chat.DemoProviderID || c1.Model != "airlock-demo" || c1.AgentID != chat.DefaultAgentID {
		t.Fatalf("first chat = %+v", c1.ChatSetup)
	}
	if _, err := s.SetChatModel(ctx, c1.ID, p.ID, "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetChatModel(ctx, c1.ID, "nope", "b"); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("unknown provider: %v", err)
	}
	// A new chat starts from the last model used; the first keeps its own.
	c2, err := s.CreateChat(ctx, "two")
	if err != nil || c2.ProviderID != p.ID || c2.Model != "b" {
		t.Fatalf("second chat = %+v, %v", c2.ChatSetup, err)
	}
	if _, err := s.SetChatModel(ctx, c2.ID, chat.DemoProviderID, "airlock-demo-text-only"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetChat(ctx, c1.ID); got.Model != "b" || got.ProviderID != p.ID {
		t.Errorf("switching chat two moved chat one: %+v", got.ChatSetup)
	}

	// An agent with a model gives it to the chat; its tool mode too.
	a, err := s.SaveAgent(ctx, chat.Agent{Name: "Strict", ProviderID: p.ID, Model: "c", ToolMode: chat.ToolModeText, Paradigm: "xml"})
	if err != nil {
		t.Fatal(err)
	}
	c3, err := s.NewChat(ctx, "three", a.ID)
	if err != nil || c3.AgentID != a.ID || c3.Model != "c" || c3.ToolMode != chat.ToolModeText || c3.Paradigm != "xml" {
		t.Fatalf("chat with agent = %+v %+v, %v", c3.ChatSetup, c3.ChatOptions, err)
	}
	// The next new chat starts with the agent used last.
	if c4, _ := s.CreateChat(ctx, "four"); c4.AgentID != a.ID {
		t.Errorf("new chat agent = %q, want the last one used", c4.AgentID)
	}
	if _, err := s.SetChatAgent(ctx, c1.ID, chat.PlainAgentID); err != nil {
		t.Fatal(err)
	}
	// Deleting an agent sends its chats back to the default; deleting a
	// provider sends its chats to the active one.
	if err := s.DeleteAgent(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetChat(ctx, c3.ID); got.AgentID != chat.DefaultAgentID {
		t.Errorf("after delete: agent %q", got.AgentID)
	}
	if err := s.DeleteAgent(ctx, chat.PlainAgentID); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("a built-in agent was deleted: %v", err)
	}
	if err := s.DeleteProvider(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetChat(ctx, c1.ID); got.ProviderID != "" || got.Model != "" {
		t.Errorf("after provider delete: %+v", got.ChatSetup)
	}
}

func TestChatToolToggles(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	c, _ := s.CreateChat(ctx, "t")
	got, err := s.SetChatTools(ctx, c.ID, map[string]bool{"write_file": false, "calculator": true})
	if err != nil || got.ToolToggles["write_file"] || !got.ToolToggles["calculator"] || len(got.ToolToggles) != 2 {
		t.Fatalf("toggles = %v, %v", got.ToolToggles, err)
	}
	s.Close()
	s2, err := OpenDir(filepath.Dir(s.Path()))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if again, _ := s2.GetChat(ctx, c.ID); len(again.ToolToggles) != 2 || again.ToolToggles["write_file"] {
		t.Errorf("after reopening: %v", again.ToolToggles)
	}
	if _, err := s2.SetChatTools(ctx, c.ID, map[string]bool{"": true}); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("empty name: %v", err)
	}
	// Changing the agent drops the chat's own toggles.
	if after, _ := s2.SetChatAgent(ctx, c.ID, chat.ReviewerAgentID); after.ToolToggles != nil {
		t.Errorf("toggles after agent change: %v", after.ToolToggles)
	}
}

func TestAgentChecksAndImport(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	bad := 3.0
	for _, a := range []chat.Agent{{Name: ""}, {Name: "x", Temperature: &bad}, {Name: "x", MaxOutputTokens: -1}, {Name: "x", WorkspaceKind: "folder"}} {
		if _, err := s.SaveAgent(ctx, a); !errors.Is(err, chat.ErrInvalid) {
			t.Errorf("SaveAgent(%+v) = %v, want invalid", a, err)
		}
	}
	before, _ := s.ListAgents(ctx)
	// All or none: the second is bad, so the first is not added either.
	if _, err := s.ImportAgents(ctx, []chat.Agent{{Name: "ok"}, {Name: "bad", Paradigm: "yaml"}}); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("import = %v", err)
	}
	if after, _ := s.ListAgents(ctx); len(after) != len(before) {
		t.Errorf("a failed import added agents: %d → %d", len(before), len(after))
	}
	got, err := s.ImportAgents(ctx, []chat.Agent{{ID: chat.DefaultAgentID, Name: "Mine", ProviderID: "x", Model: "m", BuiltIn: true}})
	if err != nil || len(got) != 1 || got[0].ID == chat.DefaultAgentID || got[0].BuiltIn || got[0].ProviderID != "" {
		t.Fatalf("import = %+v, %v", got, err)
	}
}

// A provider chosen in Settings is where new chats go, even after a chat
// was switched to another model.
func TestSetLastModel(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	p, _ := s.SaveProvider(ctx, chat.Provider{Name: "Local", BaseURL: "http://127.0.0.1:1/v1", Model: "a"})
	c, _ := s.CreateChat(ctx, "x")
	if _, err := s.SetChatModel(ctx, c.ID, chat.DemoProviderID, "airlock-demo-text-only"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLastModel(ctx, p.ID, p.Model); err != nil {
		t.Fatal(err)
	}
	if next, _ := s.NextChat(ctx, ""); next.ProviderID != p.ID || next.Model != "a" {
		t.Errorf("next chat = %+v", next)
	}
}
