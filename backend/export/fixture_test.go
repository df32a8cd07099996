package export

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/backend/workspace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update if the change is intended)\n--- got ---\n%s", path, got)
	}
}

func newStore(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// t0 is the fixture's clock: 2024-05-01 09:00 UTC, in milliseconds.
var t0 = time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC).UnixMilli()

func at(minutes int) int64 { return t0 + int64(minutes)*60_000 }

// fixture fills a store through the store's own API, the way the app
// does: versions, tool calls with decisions and results, a tool-results
// message, reasoning, an interrupted and a failed answer, options, a pin
// and scratch files. IDs and times are fixed, so exports are reproducible.
func fixture(t testing.TB, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	c := store.ChatData{Chat: chat.Chat{ID: "chat-lisbon", Title: "A day in Lisbon", CreatedAt: at(0), UpdatedAt: at(30),
		ChatOptions: chat.ChatOptions{Paradigm: "json", RecognizeOthers: true, WorkspaceKind: "scratch"}}}
	o := store.ChatData{Chat: chat.Chat{ID: "chat-notes", Title: "Notes <draft> & ideas", CreatedAt: at(100), UpdatedAt: at(110),
		ChatOptions: chat.ChatOptions{Paradigm: "xml", RecognizeOthers: false, WorkspaceKind: "folder", WorkspaceDir: "/home/ana/notes"}}}
	_, err := s.ImportChats(ctx, []store.ChatData{c, o})
	must(err)

	msg := func(id, chatID string, role chat.Role, content string, min int) chat.Message {
		t.Helper()
		m, err := s.AddMessage(ctx, chat.Message{ID: id, ChatID: chatID, Role: role, Content: content, CreatedAt: at(min)})
		must(err)
		return m
	}
	u := msg("m1-user", "chat-lisbon", chat.RoleUser, "Plan a day in Lisbon.\nKeep it *short*, please.", 1)
	msg("m2-answer-old", "chat-lisbon", chat.RoleAssistant, "Visit Belém. That's it.", 2)
	// Regenerate: rewind to the question, add a new answer.
	_, err = s.SetLeaf(ctx, "chat-lisbon", u.ID)
	must(err)
	a, err := s.AddMessage(ctx, chat.Message{ID: "m3-answer", ChatID: "chat-lisbon", Role: chat.RoleAssistant, CreatedAt: at(3),
		Model: "demo-model", Reasoning: "The user wants a short plan.\nCheck their notes first.",
		Usage: chat.Usage{PromptTokens: 120, CompletionTokens: 80, TotalTokens: 200},
		Content: "## Morning\n\n| Time | Place |\n|---|---|\n| 9:00 | **Belém** |\n\n- [x] pastéis de nata\n- [ ] tram 28\n\n" +
			"```python\nprint(\"olá\")\n```\n\nLet me read your notes."})
	must(err)
	calls, err := s.AddCalls(ctx, []chat.Call{
		{ID: "call-read", ModelCallID: "call_1", ChatID: "chat-lisbon", MessageID: a.ID, Index: 0, Name: "read_file",
			Arguments: json.RawMessage(`{"path":"notes/lisbon.md","limit":20}`), Raw: `{"name":"read_file"}`, Format: "json",
			State: chat.CallPending, CreatedAt: at(3)},
		{ID: "call-delete", ModelCallID: "call_2", ChatID: "chat-lisbon", MessageID: a.ID, Index: 1, Name: "delete_file",
			Arguments: json.RawMessage(`{"path":"notes/old.md"}`), Format: "json", State: chat.CallPending, CreatedAt: at(3)},
	})
	must(err)
	read := calls[0]
	read.State, read.DecidedBy, read.DecidedAt = chat.CallDone, chat.ByUser, at(4)
	read.Edited = json.RawMessage(`{"path":"notes/lisbon.md","limit":50}`)
	read.Result, read.ResultState, read.StartedAt, read.FinishedAt = "# Lisbon\n- Alfama\n- ```fado```", chat.ToolSuccess, at(4), at(4)+250
	read.UpdatedAt = at(4)
	must(s.UpdateCall(ctx, read))
	del := calls[1]
	del.State, del.DecidedBy, del.DecidedAt, del.Reason = chat.CallDenied, chat.ByUser, at(4), "keep my files"
	del.Result, del.ResultState, del.UpdatedAt = "The user denied this call: keep my files", chat.ToolDenied, at(4)
	must(s.UpdateCall(ctx, del))
	for _, e := range []chat.AuditEntry{
		{UID: "audit-1", CallID: read.ID, MessageID: a.ID, Tool: "read_file", Decision: chat.AuditEdited, DecidedBy: chat.ByUser, At: at(4),
			Arguments: read.Arguments, RunArguments: read.Edited},
		{UID: "audit-2", CallID: del.ID, MessageID: a.ID, Tool: "delete_file", Decision: chat.AuditDenied, DecidedBy: chat.ByUser, At: at(4),
			Detail: "keep my files", Arguments: del.Arguments, Preview: json.RawMessage(`{"summary":"Delete notes/old.md","path":"notes/old.md"}`),
			ResultStatus: chat.ToolDenied},
		{UID: "audit-3", CallID: read.ID, MessageID: a.ID, Tool: "read_file", Decision: chat.AuditRan, DecidedBy: chat.ByUser, At: at(4) + 250,
			Arguments: read.Arguments, RunArguments: read.Edited, ResultStatus: chat.ToolSuccess, DurationMs: 250},
	} {
		e.ChatID = "chat-lisbon"
		_, err := s.AddAudit(ctx, e)
		must(err)
	}
	_, err = s.AddMessage(ctx, chat.Message{ID: "m4-results", ChatID: "chat-lisbon", Role: chat.RoleUser, Kind: chat.KindToolResults,
		Content: `[{"tool_call_result":{"id":"call_1","status":"success"}}]`, CreatedAt: at(5)})
	must(err)
	_, err = s.AddMessage(ctx, chat.Message{ID: "m5-final", ChatID: "chat-lisbon", Role: chat.RoleAssistant, CreatedAt: at(6),
		Status: chat.StatusInterrupted, Content: "Start in **Alfama**, then…", Model: "demo-model"})
	must(err)
	must(s.SaveScratch(ctx, "chat-lisbon", []workspace.File{
		{Path: "notes", IsDir: true, Mode: 0o755, ModTime: time.UnixMilli(at(1))},
		{Path: "notes/lisbon.md", Mode: 0o644, ModTime: time.UnixMilli(at(2)), Content: []byte("# Lisbon\n- Alfama\n")},
		{Path: "photo.bin", Mode: 0o600, ModTime: time.UnixMilli(at(2)), Content: []byte{0xff, 0x00, 0xfe, 'x'}},
	}))

	msg("n1", "chat-notes", chat.RoleUser, "Summarise: <b>bold</b> & `code`", 101)
	_, err = s.AddMessage(ctx, chat.Message{ID: "n2", ChatID: "chat-notes", Role: chat.RoleAssistant, CreatedAt: at(102),
		Status: chat.StatusError, ErrorCode: "rate_limited", ErrorMessage: "Too many requests; try again in a minute."})
	must(err)
	_, err = s.SetPinned(ctx, "chat-notes", true)
	must(err)
	// Fixed activity times (AddMessage stamps the chats with now).
	for id, ms := range map[string]int64{"chat-lisbon": at(30), "chat-notes": at(110)} {
		must(setUpdatedAt(s, id, ms))
	}
}

// setUpdatedAt fixes a chat's activity time: read the chat, delete it and
// import it again with the time changed (its trail added back as local
// rows: an import would mark them imported).
func setUpdatedAt(s *store.Store, id string, ms int64) error {
	ctx := context.Background()
	ds, err := s.ReadChats(ctx, []string{id})
	if err != nil {
		return err
	}
	d := ds[0]
	if err := s.DeleteChat(ctx, id); err != nil {
		return err
	}
	d.Chat.UpdatedAt = ms
	trail := d.Audit
	d.Audit = nil
	if _, err = s.ImportChats(ctx, []store.ChatData{d}); err != nil {
		return err
	}
	for _, e := range trail {
		if _, err := s.AddAudit(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

// fixtureBundle is the fixture, exported at a fixed time.
func fixtureBundle(t testing.TB) (Bundle, *store.Store) {
	t.Helper()
	s := newStore(t)
	fixture(t, s)
	b, err := Build(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.ExportedAt = at(24 * 60)
	return b, s
}
