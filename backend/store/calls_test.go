package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

func TestToolCallsLifecycle(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "t")
	m, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "calls"})
	if err != nil {
		t.Fatal(err)
	}
	calls, err := s.AddCalls(ctx, []chat.Call{
		{ModelCallID: "call_1", ChatID: c.ID, MessageID: m.ID, Index: 0, Name: "get_current_time", Arguments: json.RawMessage(`{"tz":"UTC"}`), State: chat.CallPending},
		{ModelCallID: "call_2", ChatID: c.ID, MessageID: m.ID, Index: 1, Raw: "{broken", State: chat.CallProblem, Problem: "Malformed JSON."},
	})
	if err != nil || len(calls) != 2 || calls[0].ID == "" {
		t.Fatalf("AddCalls: %v %+v", err, calls)
	}
	got, err := s.MessageCalls(ctx, m.ID)
	if err != nil || len(got) != 2 || string(got[0].Arguments) != `{"tz":"UTC"}` || got[1].Problem != "Malformed JSON." || string(got[1].Arguments) != "{}" {
		t.Fatalf("MessageCalls: %v %+v", err, got)
	}

	call := got[0]
	if err := call.Move(chat.CallApproved); err != nil {
		t.Fatal(err)
	}
	call.Edited = json.RawMessage(`{"tz":"Europe/Paris"}`)
	call.DecidedBy, call.DecidedAt = chat.ByUser, 42
	call.Images = []chat.Image{{MIME: "image/png", Data: []byte{0x89, 'P', 'N', 'G', 0}}}
	if err := call.Move(chat.CallRunning); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateCall(ctx, call); err != nil {
		t.Fatal(err)
	}
	if n, err := s.InterruptRunningCalls(ctx); err != nil || n != 1 {
		t.Fatalf("InterruptRunningCalls = %d, %v", n, err)
	}
	after, _ := s.GetCall(ctx, call.ID)
	if after.State != chat.CallInterrupted || string(after.Edited) != `{"tz":"Europe/Paris"}` || after.DecidedBy != chat.ByUser || after.DecidedAt != 42 ||
		!reflect.DeepEqual(after.Images, call.Images) {
		t.Fatalf("after restart: %+v", after)
	}
	if err := after.Move(chat.CallDone); err == nil {
		t.Fatal("interrupted → done must be refused")
	}
	if _, err := s.GetCall(ctx, "nope"); !errors.Is(err, chat.ErrNotFound) {
		t.Fatalf("GetCall missing: %v", err)
	}
	if err := s.UpdateCall(ctx, chat.Call{ID: "nope", State: chat.CallDone}); !errors.Is(err, chat.ErrNotFound) {
		t.Fatalf("UpdateCall missing: %v", err)
	}
	all, _ := s.ListCalls(ctx, c.ID)
	if len(all) != 2 {
		t.Fatalf("ListCalls: %d", len(all))
	}
	// Deleting the message deletes its calls.
	if err := s.DeleteMessage(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if all, _ = s.ListCalls(ctx, c.ID); len(all) != 0 {
		t.Fatalf("calls survived their message: %d", len(all))
	}
}

func TestChatOptions(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "t")
	if c.Paradigm != "json" || !c.RecognizeOthers {
		t.Fatalf("defaults: %+v", c)
	}
	c2, err := s.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "vcp", RecognizeOthers: false})
	if err != nil || c2.Paradigm != "vcp" || c2.RecognizeOthers {
		t.Fatalf("SetChatOptions: %+v %v", c2, err)
	}
	got, _ := s.GetChat(ctx, c.ID)
	if !reflect.DeepEqual(got.ChatOptions, c2.ChatOptions) {
		t.Fatalf("not persisted: %+v", got)
	}
	// The MCP servers a chat offers: nil (every enabled one), none, or some.
	for _, servers := range [][]string{{"everything", "git"}, {}, nil} {
		c3, err := s.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "json", MCPServers: servers})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := s.GetChat(ctx, c.ID)
		if !reflect.DeepEqual(got.MCPServers, servers) || !reflect.DeepEqual(c3.MCPServers, servers) {
			t.Fatalf("MCPServers %#v stored as %#v (returned %#v)", servers, got.MCPServers, c3.MCPServers)
		}
	}
	if _, err := s.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "json", MCPServers: make([]string, chat.MaxChatServers+1)}); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("too many servers: %v", err)
	}
	if _, err := s.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "yaml"}); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("bad paradigm: %v", err)
	}
}

func TestScratchFilesAndWorkspaceOptions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir + "/a.db")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.CreateChat(ctx, "t")
	if c.WorkspaceKind != "scratch" {
		t.Fatalf("default workspace: %+v", c)
	}
	if _, err := s.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "json", WorkspaceKind: "folder"}); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("folder without a dir: %v", err)
	}
	c2, err := s.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "json", WorkspaceKind: "overlay", WorkspaceDir: "/tmp/x"})
	if err != nil || c2.WorkspaceKind != "overlay" || c2.WorkspaceDir != "/tmp/x" {
		t.Fatalf("overlay: %+v %v", c2, err)
	}
	files := []workspace.File{{Path: "docs", IsDir: true, Mode: 0o755}, {Path: "docs/a.md", Mode: 0o644, Content: []byte("# hi"), ModTime: time.Unix(5, 7)}}
	if err := s.SaveScratch(ctx, c.ID, files); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, _ = Open(dir + "/a.db")
	defer s.Close()
	got, err := s.LoadScratch(ctx, c.ID)
	if err != nil || len(got) != 2 || string(got[1].Content) != "# hi" || !got[0].IsDir || got[1].ModTime.UnixNano() != time.Unix(5, 7).UnixNano() || got[1].Mode != 0o644 {
		t.Fatalf("after reopen: %+v %v", got, err)
	}
	if err := s.SaveScratch(ctx, c.ID, files[:1]); err != nil {
		t.Fatal(err)
	}
	if got, _ = s.LoadScratch(ctx, c.ID); len(got) != 1 {
		t.Fatalf("save must replace: %+v", got)
	}
}
