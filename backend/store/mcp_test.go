package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"airlock/backend/chat"
)

func TestMCPServers(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	add := func(name string) MCPServer {
		t.Helper()
		m, err := s.SaveMCPServer(ctx, MCPServer{Name: name, Enabled: true, Config: json.RawMessage(`{"command":"npx"}`)}, "")
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	add("everything")
	add("git")
	if _, err := s.SaveMCPServer(ctx, MCPServer{Name: "git", Config: json.RawMessage(`{}`)}, ""); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("a second server named git: %v", err)
	}
	if _, err := s.SaveMCPServer(ctx, MCPServer{Name: "x", Config: json.RawMessage(`{broken`)}, ""); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("broken settings: %v", err)
	}

	// A rename keeps the server's place; renaming onto another is refused.
	if _, err := s.SaveMCPServer(ctx, MCPServer{Name: "everything-2", Config: json.RawMessage(`{"command":"node"}`)}, "everything"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveMCPServer(ctx, MCPServer{Name: "git", Config: json.RawMessage(`{}`)}, "everything-2"); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("rename onto git: %v", err)
	}
	if err := s.SetMCPServerEnabled(ctx, "git", false); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListMCPServers(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("ListMCPServers = %+v, %v", list, err)
	}
	if list[0].Name != "everything-2" || list[0].Enabled || string(list[0].Config) != `{"command":"node"}` || list[1].Name != "git" || list[1].Enabled {
		t.Fatalf("after rename and disable: %+v", list)
	}
	if err := s.DeleteMCPServer(ctx, "git"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMCPServer(ctx, "git"); !errors.Is(err, chat.ErrNotFound) {
		t.Fatalf("deleting twice: %v", err)
	}
	if err := s.SetMCPServerEnabled(ctx, "nope", true); !errors.Is(err, chat.ErrNotFound) {
		t.Fatalf("enabling a missing server: %v", err)
	}
}
