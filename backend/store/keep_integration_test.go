package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/backend/tools"
	"airlock/backend/tools/files"
	"airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
)

// The workspace manager on a real SQLite file: checkpoints of a folder
// workspace and an overlay's pending changes outlive the process that made
// them (the store is closed without closing anything else, as kill -9 would).

var runner = workspacetest.NewRunner(files.Tools())

func run(t *testing.T, m *workspace.Manager, chatID string, o chat.ChatOptions, callID, name string, args any) {
	t.Helper()
	ctx := tools.WithCall(context.Background(), tools.CallInfo{ID: callID, Tool: name})
	env, err := m.Env(ctx, chatID, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Tool(name).Run(ctx, env, workspacetest.ArgsJSON(args)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if env.Commit != nil {
		if err := env.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}

var storeOpen = store.Open

func open(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCheckpointsAndUndoOnARealFile(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "airlock.db")
	dir := t.TempDir()
	workspacetest.WriteDisk(t, dir, "notes.md", "original\n")
	workspacetest.WriteDisk(t, dir, "src/a.go", "package a\n")
	before := workspacetest.SnapshotOS(t, dir)

	s := open(t, db)
	c, err := s.CreateChatWith(ctx, "folder", chat.ChatOptions{WorkspaceKind: "folder", WorkspaceDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	o := c.ChatOptions
	m := workspace.NewManager(s)
	run(t, m, c.ID, o, "call-w", "write_file", map[string]any{"path": "notes.md", "content": "by the model\n"})
	run(t, m, c.ID, o, "call-mv", "move_path", map[string]any{"source": "src", "destination": "pkg/src"})
	run(t, m, c.ID, o, "call-rm", "delete_path", map[string]any{"path": "notes.md"})
	s.Close() // the app stops

	s = open(t, db)
	defer s.Close()
	list, err := s.ListCheckpoints(ctx, c.ID, 10, 10)
	if err != nil || len(list) != 3 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if list[0].CallID != "call-rm" || list[1].CallID != "call-mv" || list[2].CallID != "call-w" {
		t.Fatalf("newest first, keyed by call: %s %s %s", list[0].CallID, list[1].CallID, list[2].CallID)
	}
	m = workspace.NewManager(s)
	defer m.Close()
	// The write is older than the delete: undoing it first is a conflict.
	_, err = m.Undo(ctx, list[2].ID)
	var conflict *workspace.UndoConflictError
	if !errors.As(err, &conflict) || conflict.Paths[0].Path != "notes.md" || conflict.Paths[0].Reason != "deleted" {
		t.Fatalf("want a conflict on notes.md: %v", err)
	}
	for _, cp := range list {
		if _, err := m.Undo(ctx, cp.ID); err != nil {
			t.Fatalf("undo %s: %v", cp.Tool, err)
		}
	}
	if after := workspacetest.SnapshotOS(t, dir); after != before {
		t.Fatalf("all undone:\n%s\n---\n%s", before, after)
	}
	list, _ = s.ListCheckpoints(ctx, c.ID, 10, 10)
	for _, cp := range list {
		if cp.UndoneAt == 0 {
			t.Fatalf("recorded: %+v", cp)
		}
	}
}

func TestOverlayChangesOutliveTheProcess(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "airlock.db")
	dir := t.TempDir()
	workspacetest.WriteDisk(t, dir, "notes.md", "original\n")
	workspacetest.WriteDisk(t, dir, "old.txt", "to be deleted\n")
	before := workspacetest.SnapshotOS(t, dir)

	s := open(t, db)
	c, _ := s.CreateChatWith(ctx, "overlay", chat.ChatOptions{WorkspaceKind: "overlay", WorkspaceDir: dir})
	o := c.ChatOptions
	m := workspace.NewManager(s)
	run(t, m, c.ID, o, "1", "write_file", map[string]any{"path": "docs/plan.md", "content": "the plan\n"})
	run(t, m, c.ID, o, "2", "edit_file", map[string]any{"path": "notes.md", "old_text": "original", "new_text": "edited"})
	run(t, m, c.ID, o, "3", "delete_path", map[string]any{"path": "old.txt"})
	s.Close() // killed: the manager is never closed, nothing applied

	if workspacetest.SnapshotOS(t, dir) != before {
		t.Fatal("nothing reached the disk")
	}
	s = open(t, db)
	defer s.Close()
	m = workspace.NewManager(s)
	defer m.Close()
	w, err := m.Get(ctx, c.ID, o)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := w.Changes()
	if err != nil || len(changes) != 3 {
		t.Fatalf("changes after restart: %+v %v", changes, err)
	}
	if err := w.Apply(); err != nil {
		t.Fatal(err)
	}
	if got, _ := workspacetest.ReadDisk(t, dir, "notes.md"); got != "edited\n" {
		t.Fatalf("applied: %q", got)
	}
	if _, ok := workspacetest.ReadDisk(t, dir, "old.txt"); ok {
		t.Fatal("old.txt deleted by Apply")
	}
	if st, _ := s.LoadOverlay(ctx, c.ID, dir); !st.Empty() {
		t.Fatalf("applied changes are no longer kept: %+v", st)
	}
	// The Apply made a checkpoint: undo it.
	list, _ := s.ListCheckpoints(ctx, c.ID, 10, 10)
	if len(list) != 1 || list[0].Tool != workspace.ToolApply {
		t.Fatalf("apply checkpoint: %+v", list)
	}
	if _, err := m.Undo(ctx, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if after := workspacetest.SnapshotOS(t, dir); after != before {
		t.Fatalf("undo of the Apply:\n%s\n---\n%s", before, after)
	}
}

// Undo of an Apply puts the change back in the overlay, waiting for review
// again, exactly as before Apply (issue 30, item 2). Before, the files left
// the disk and the changes were gone from the overlay too.
func TestUndoOfApplyPutsTheChangesBackInTheOverlay(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "airlock.db")
	dir := t.TempDir()
	workspacetest.WriteDisk(t, dir, "notes.md", "original\n")
	workspacetest.WriteDisk(t, dir, "old/a.txt", "to be deleted\n")
	before := workspacetest.SnapshotOS(t, dir)

	s := open(t, db)
	defer s.Close()
	c, _ := s.CreateChatWith(ctx, "overlay", chat.ChatOptions{WorkspaceKind: "overlay", WorkspaceDir: dir})
	o := c.ChatOptions
	m := workspace.NewManager(s)
	defer m.Close()
	run(t, m, c.ID, o, "1", "write_file", map[string]any{"path": "docs/plan.md", "content": "the plan\n"})
	run(t, m, c.ID, o, "2", "edit_file", map[string]any{"path": "notes.md", "old_text": "original", "new_text": "edited"})
	run(t, m, c.ID, o, "3", "delete_path", map[string]any{"path": "old", "recursive": true})
	w, err := m.Get(ctx, c.ID, o)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := w.Changes()
	if err != nil || len(pending) != 4 {
		t.Fatalf("pending: %+v %v", pending, err)
	}
	if err := w.Apply(); err != nil {
		t.Fatal(err)
	}
	if now, _ := w.Changes(); len(now) != 0 {
		t.Fatalf("applied: %+v", now)
	}
	list, _ := s.ListCheckpoints(ctx, c.ID, 10, 10)
	if len(list) != 1 || list[0].Tool != workspace.ToolApply {
		t.Fatalf("apply checkpoint: %+v", list)
	}
	if _, err := m.Undo(ctx, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if after := workspacetest.SnapshotOS(t, dir); after != before {
		t.Fatalf("the folder after undo:\n%s\n---\n%s", before, after)
	}
	again, err := w.Changes()
	if err != nil || fmt.Sprintf("%+v", again) != fmt.Sprintf("%+v", pending) {
		t.Fatalf("the changes are not back for review as before Apply:\nbefore: %+v\nafter:  %+v (%v)", pending, again, err)
	}
	// Kept, as every pending change is: a restart finds them.
	m2 := workspace.NewManager(s)
	defer m2.Close()
	w2, err := m2.Get(ctx, c.ID, o)
	if err != nil {
		t.Fatal(err)
	}
	if kept, _ := w2.Changes(); fmt.Sprintf("%+v", kept) != fmt.Sprintf("%+v", pending) {
		t.Fatalf("not saved: %+v", kept)
	}
	// And they can be applied again, with no false conflict.
	if err := w.Apply(); err != nil {
		t.Fatal(err)
	}
	if got, _ := workspacetest.ReadDisk(t, dir, "docs/plan.md"); got != "the plan\n" {
		t.Fatalf("applied again: %q", got)
	}
}
