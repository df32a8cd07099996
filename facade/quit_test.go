package facade

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"airlock/backend/store"
)

// Issue 17 asked that quitting with overlay changes not yet applied ask
// first, until they survived restarts. They do now: a normal quit (the
// app shut down, the database closed) and a new start on the same data
// folder find the pending change, and the disk is untouched.
func TestUnappliedOverlayChangesSurviveAQuit(t *testing.T) {
	data, folder := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, "notes.md"), []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenDir(data)
	if err != nil {
		t.Fatal(err)
	}
	a := NewApp(st, data, "", nil, nil)
	a.ctx = context.Background()
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetWorkspace(c.ID, "overlay", folder); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RunTool(c.ID, "write_file", json.RawMessage(`{"path":"notes.md","content":"after\n"}`)); err != nil {
		t.Fatal(err)
	}
	a.shutdown(a.ctx)
	st.Close()

	st2, err := store.OpenDir(data)
	if err != nil {
		t.Fatal(err)
	}
	b := NewApp(st2, data, "", nil, nil)
	b.ctx = context.Background()
	defer func() { b.shutdown(b.ctx); st2.Close() }()
	cs, err := b.WorkspaceChanges(c.ID)
	if err != nil || len(cs) != 1 || cs[0].Path != "notes.md" || cs[0].Op != "modified" {
		t.Fatalf("after a restart: %+v %v", cs, err)
	}
	if got, _ := os.ReadFile(filepath.Join(folder, "notes.md")); string(got) != "before\n" {
		t.Fatalf("the disk changed: %q", got)
	}
}
