package workspace_test

import (
	"context"
	"testing"

	. "airlock/backend/workspace"
)

func changeList(t *testing.T, w *Workspace) string {
	t.Helper()
	cs, err := w.Changes()
	if err != nil {
		t.Fatal(err)
	}
	s := ""
	for _, c := range cs {
		s += string(c.Op) + " " + c.Path + "\n"
	}
	return s
}

func TestOverlayChangesSurviveANewManager(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeDisk(t, dir, "notes.md", "# Notes\n\nfirst\nsecond\n")
	writeDisk(t, dir, "src/main.go", "package main\n\nfunc main() {}\n")
	writeDisk(t, dir, "src/old.go", "package main // old\n")
	writeDisk(t, dir, "logo.png", "\x89PNG\x00\x00binary")
	writeDisk(t, dir, "build/out.txt", "artifact\n")
	writeDisk(t, dir, "build/sub/more.txt", "more\n")
	writeDisk(t, dir, "keep.txt", "untouched\n")
	before := snapshotOS(t, dir)
	keep := newMemKeep()
	o := overlayOpts(dir)

	m := NewManager(keep)
	mustRun(t, m, "c1", o, "1", "edit_file", map[string]any{"path": "notes.md", "old_text": "second", "new_text": "second, revised"})
	mustRun(t, m, "c1", o, "2", "write_file", map[string]any{"path": "docs/new.md", "content": "brand new\n"})
	mustRun(t, m, "c1", o, "3", "delete_path", map[string]any{"path": "build", "recursive": true})
	mustRun(t, m, "c1", o, "4", "make_directory", map[string]any{"path": "empty/dir"})
	mustRun(t, m, "c1", o, "5", "move_path", map[string]any{"source": "src/main.go", "destination": "cmd/main.go"})
	mustRun(t, m, "c1", o, "6", "write_file", map[string]any{"path": "logo.png", "content": "now text"})
	w, _ := m.Get(ctx, "c1", o)
	want := changeList(t, w)
	if want == "" {
		t.Fatal("no changes")
	}
	// No Close, no Apply: the app is killed. A new run of the app opens the chat again.
	m2 := NewManager(keep)
	defer m2.Close()
	w2, err := m2.Get(ctx, "c1", o)
	if err != nil {
		t.Fatal(err)
	}
	if got := changeList(t, w2); got != want {
		t.Fatalf("after a restart the pending changes are back:\n%s\n---\n%s", want, got)
	}
	if snapshotOS(t, dir) != before {
		t.Fatal("still nothing on disk")
	}
	got := get(t, w2.FS(), "notes.md")
	contains(t, got, "second, revised")
	// Another chat, or another folder, does not see them.
	if w3, _ := m2.Get(ctx, "c2", o); changeList(t, w3) != "" {
		t.Fatal("pending changes are per chat")
	}

	// They still apply, and Apply clears what was kept.
	if err := w2.Apply("docs"); err != nil {
		t.Fatal(err)
	}
	if got, _ := readDisk(t, dir, "docs/new.md"); got != "brand new\n" {
		t.Fatalf("applied after the restart: %q", got)
	}
	m3 := NewManager(keep)
	w3, _ := m3.Get(ctx, "c1", o)
	if got := changeList(t, w3); got == want || got == "" {
		t.Fatalf("what was applied is no longer pending, the rest is:\n%s", got)
	}
	if err := w3.Discard(); err != nil {
		t.Fatal(err)
	}
	m3.Close()
	m4 := NewManager(keep)
	defer m4.Close()
	w4, _ := m4.Get(ctx, "c1", o)
	if got := changeList(t, w4); got != "" {
		t.Fatalf("Discard clears what was kept: %s", got)
	}
	if len(keep.overlays) != 0 {
		t.Fatalf("nothing left in the store: %+v", keep.overlays)
	}
}

func TestOverlayConflictDetectionSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeDisk(t, dir, "notes.md", "v1\n")
	writeDisk(t, dir, "other.md", "o1\n")
	keep := newMemKeep()
	o := overlayOpts(dir)
	m := NewManager(keep)
	mustRun(t, m, "c1", o, "1", "write_file", map[string]any{"path": "notes.md", "content": "model\n"})
	mustRun(t, m, "c1", o, "2", "write_file", map[string]any{"path": "other.md", "content": "model too\n"})
	// While the app is not running, someone edits the file on disk.
	writeDisk(t, dir, "notes.md", "v2 by hand\n")
	m2 := NewManager(keep)
	defer m2.Close()
	w, err := m2.Get(ctx, "c1", o)
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, w.Apply(), CodeConflict)
	if got, _ := readDisk(t, dir, "notes.md"); got != "v2 by hand\n" {
		t.Fatalf("the hand edit is kept: %q", got)
	}
	// What the overlay saw of other.md was kept too: it applies.
	if got, _ := readDisk(t, dir, "other.md"); got != "model too\n" {
		t.Fatalf("other.md applied: %q", got)
	}
}

func TestOverlayBadSavedStateIsRefused(t *testing.T) {
	dir := t.TempDir()
	keep := newMemKeep()
	keep.overlays["c1\x00"+dir] = OverlayState{Dir: dir, Hidden: []string{"../escape"}}
	m := NewManager(keep)
	defer m.Close()
	if _, err := m.Get(context.Background(), "c1", overlayOpts(dir)); err == nil {
		t.Fatal("a tampered saved state must not be used")
	}
}
