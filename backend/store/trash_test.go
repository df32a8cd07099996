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

// fixClock makes the Trash's clock read *at.
func fixClock(s *Store, at *int64) { s.now = func() int64 { return *at } }

// A chat with a message, a call, an attachment, a scratch file, options and
// an audit row.
func fullChat(t *testing.T, s *Store, title, attachment string) (chat.Chat, chat.Message) {
	t.Helper()
	ctx := context.Background()
	c, err := s.CreateChat(ctx, title)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = s.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "xml", ToolMode: chat.ToolModeNative}); err != nil {
		t.Fatal(err)
	}
	m, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "zebrafish " + title})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AttachFiles(ctx, m.ID, []chat.AttachmentData{file("a.txt", attachment)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: m.ID, Name: "read_file",
		Arguments: json.RawMessage(`{"path":"a"}`), State: chat.CallPending}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveScratch(ctx, c.ID, []workspace.File{{Path: "notes.md", Mode: 0o644, ModTime: time.UnixMilli(1000), Content: []byte("hi")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddAudit(ctx, chat.AuditEntry{ChatID: c.ID, Tool: "read_file", Decision: chat.AuditApproved, DecidedBy: chat.ByUser}); err != nil {
		t.Fatal(err)
	}
	if c, err = s.GetChat(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	return c, m
}

// Everything a chat owns, as one comparable value.
type owned struct {
	Chat     chat.Chat
	Messages []chat.Message
	Calls    []chat.Call
	Scratch  []workspace.File
	Audit    int
	Files    []chat.AttachmentData
}

func ownedBy(t *testing.T, s *Store, id string) owned {
	t.Helper()
	ctx := context.Background()
	var o owned
	var err error
	if o.Chat, err = s.GetChat(ctx, id); err != nil {
		t.Fatal(err)
	}
	o.Messages, _ = s.ListMessages(ctx, id)
	o.Calls, _ = s.ListCalls(ctx, id)
	o.Scratch, _ = s.LoadScratch(ctx, id)
	rows, _ := s.ListAudit(ctx, AuditQuery{ChatID: id})
	o.Audit = len(rows)
	for _, m := range o.Messages {
		f, _ := s.MessageAttachments(ctx, m.ID)
		o.Files = append(o.Files, f...)
	}
	return o
}

func TestTrashHidesAndRestoreBringsBackExactly(t *testing.T) {
	ctx := context.Background()
	s := newStore(t) // a real SQLite file
	clock := int64(1_700_000_000_000)
	fixClock(s, &clock)
	keep, _ := fullChat(t, s, "keep", "keep bytes")
	gone, _ := fullChat(t, s, "gone", "gone bytes")
	before := ownedBy(t, s, gone.ID)
	if len(before.Messages) != 1 || len(before.Calls) != 1 || len(before.Scratch) != 1 || before.Audit != 1 || len(before.Files) != 1 {
		t.Fatalf("setup: %+v", before)
	}

	if err := s.TrashChat(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	list, _ := s.ListChats(ctx)
	if len(list) != 1 || list[0].ID != keep.ID {
		t.Fatalf("ListChats shows the chat in the Trash: %+v", list)
	}
	hits, _ := s.Search(ctx, "zebrafish", 0)
	if len(hits) != 1 || hits[0].ChatID != keep.ID {
		t.Fatalf("search finds the chat in the Trash: %+v", hits)
	}
	all, _ := s.ReadChats(ctx, nil)
	if len(all) != 1 || all[0].Chat.ID != keep.ID {
		t.Fatalf("export everything includes the Trash: %d chats", len(all))
	}
	if one, err := s.ReadChats(ctx, []string{gone.ID}); err != nil || len(one) != 1 {
		t.Fatalf("a chat in the Trash named by id is not read: %v", err)
	}
	trash, _ := s.ListTrash(ctx)
	if len(trash) != 1 || trash[0].ID != gone.ID || trash[0].DeletedAt != clock || trash[0].Messages != 1 ||
		trash[0].PurgeAt != clock+30*24*3600*1000 {
		t.Fatalf("ListTrash: %+v", trash)
	}
	// Moving again keeps the first date.
	clock += 1000
	_ = s.TrashChat(ctx, gone.ID)
	if trash, _ = s.ListTrash(ctx); trash[0].DeletedAt != clock-1000 {
		t.Errorf("a second delete moved the date to %d", trash[0].DeletedAt)
	}

	restored, err := s.RestoreChat(ctx, gone.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(restored, before.Chat) {
		t.Errorf("restored chat differs:\n got %+v\nwant %+v", restored, before.Chat)
	}
	if after := ownedBy(t, s, gone.ID); !reflect.DeepEqual(after, before) {
		t.Errorf("restore did not bring back everything:\n got %+v\nwant %+v", after, before)
	}
	if list, _ = s.ListChats(ctx); len(list) != 2 {
		t.Errorf("restored chat not listed: %d chats", len(list))
	}
	if hits, _ = s.Search(ctx, "zebrafish", 0); len(hits) != 2 {
		t.Errorf("restored chat not searchable: %d hits", len(hits))
	}
	_, err = s.RestoreChat(ctx, gone.ID)
	wantErr(t, err, chat.ErrNotFound) // not in the Trash any more
	wantErr(t, s.TrashChat(ctx, "nope"), chat.ErrNotFound)
}

// Purge by age with a fixed clock: 30 days to the millisecond; the bytes an
// attachment used stay until its chat is purged, and shared ones stay.
func TestPurgeTrashByAgeKeepsBlobsUntilPurge(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	day := int64(24 * 3600 * 1000)
	clock := int64(1_700_000_000_000)
	fixClock(s, &clock)
	old, _ := fullChat(t, s, "old", "old bytes")
	young, _ := fullChat(t, s, "young", "young bytes")
	live, _ := fullChat(t, s, "live", "old bytes") // shares old's attachment
	if err := s.TrashChat(ctx, old.ID); err != nil {
		t.Fatal(err)
	}
	clock += 10 * day
	if err := s.TrashChat(ctx, young.ID); err != nil {
		t.Fatal(err)
	}
	if n := blobCount(t, s); n != 2 {
		t.Fatalf("%d blobs after moving to the Trash, want 2 (kept until purge)", n)
	}
	// 30 days less a millisecond after old went: nothing goes.
	clock = 1_700_000_000_000 + 30*day - 1
	if n, err := s.PurgeTrash(ctx); err != nil || n != 0 {
		t.Fatalf("PurgeTrash before 30 days: %d, %v", n, err)
	}
	clock++
	if n, err := s.PurgeTrash(ctx); err != nil || n != 1 {
		t.Fatalf("PurgeTrash at 30 days: %d, %v", n, err)
	}
	if _, err := s.GetChat(ctx, old.ID); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("old chat survived its purge: %v", err)
	}
	// Its audit rows, calls and scratch files went with it.
	for _, q := range []string{"SELECT count(*) FROM audit WHERE chat_id = ?", "SELECT count(*) FROM tool_calls WHERE chat_id = ?",
		"SELECT count(*) FROM scratch_files WHERE chat_id = ?", "SELECT count(*) FROM messages WHERE chat_id = ?"} {
		var n int
		if err := s.db.QueryRow(q, old.ID).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d left (%v)", q, n, err)
		}
	}
	// The shared bytes stay (live uses them); young's stay (young is only in the Trash).
	if n := blobCount(t, s); n != 2 {
		t.Errorf("%d blobs after purging old, want 2", n)
	}
	if list, _ := s.ListTrash(ctx); len(list) != 1 || list[0].ID != young.ID {
		t.Errorf("Trash after the purge: %+v", list)
	}
	if _, err := s.GetChat(ctx, live.ID); err != nil {
		t.Errorf("a live chat went: %v", err)
	}
	// Delete forever refuses a chat not in the Trash; Empty Trash takes the rest.
	wantErr(t, s.DeleteFromTrash(ctx, live.ID), chat.ErrNotFound)
	if n, err := s.EmptyTrash(ctx); err != nil || n != 1 {
		t.Fatalf("EmptyTrash: %d, %v", n, err)
	}
	if n := blobCount(t, s); n != 1 {
		t.Errorf("%d blobs after emptying the Trash, want 1 (live's)", n)
	}
}

func TestDeleteFromTrashAndImportBringsBack(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	a, _ := fullChat(t, s, "a", "a bytes")
	b, _ := fullChat(t, s, "b", "b bytes")
	data, err := s.ReadChats(ctx, []string{b.ID})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.TrashChat(ctx, a.ID)
	_ = s.TrashChat(ctx, b.ID)
	if err := s.DeleteFromTrash(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetChat(ctx, a.ID); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("deleted forever, still here: %v", err)
	}
	// Importing a chat that is in the Trash brings it back into the list.
	if _, err := s.ImportChats(ctx, data); err != nil {
		t.Fatal(err)
	}
	if s.InTrash(ctx, b.ID) {
		t.Error("an imported chat stayed in the Trash")
	}
	if list, _ := s.ListChats(ctx); len(list) != 1 || list[0].ID != b.ID {
		t.Errorf("ListChats after import: %+v", list)
	}
}

// The Trash survives a restart (it is a column, not memory).
func TestTrashSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.CreateChat(ctx, "x")
	_ = s.TrashChat(ctx, c.ID)
	s.Close()
	s, err = OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if list, _ := s.ListTrash(ctx); len(list) != 1 || list[0].ID != c.ID {
		t.Fatalf("Trash after reopening: %+v", list)
	}
}
