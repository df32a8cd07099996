package workspace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "airlock/backend/workspace"
)

func folderFixture(t *testing.T) (*Manager, *memKeep, string) {
	t.Helper()
	dir := t.TempDir()
	writeDisk(t, dir, "notes.md", "# Notes\n\nfirst\nsecond\n")
	writeDisk(t, dir, "keep.txt", "untouched\n")
	writeDisk(t, dir, "src/main.go", "package main\n\nfunc main() {}\n")
	writeDisk(t, dir, "src/util/strings.go", "package util\n")
	writeDisk(t, dir, "logo.png", "\x89PNG\x00\x00binary\xff")
	if err := os.Chmod(filepath.Join(dir, "notes.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	keep := newMemKeep()
	m := NewManager(keep)
	t.Cleanup(m.Close)
	return m, keep, dir
}

func onlyCheckpoint(t *testing.T, keep *memKeep, chatID string) Checkpoint {
	t.Helper()
	cps := keep.list(chatID)
	if len(cps) != 1 {
		t.Fatalf("want 1 checkpoint, got %d: %+v", len(cps), cps)
	}
	return cps[0]
}

func undo(t *testing.T, m *Manager, id string) UndoResult {
	t.Helper()
	res, err := m.Undo(context.Background(), id)
	if err != nil {
		t.Fatalf("undo %s: %v", id, err)
	}
	return res
}

func TestCheckpointIsSavedBeforeTheWrite(t *testing.T) {
	m, keep, dir := folderFixture(t)
	var onDisk []string
	keep.onSave = func(ps []CheckpointPath) {
		// What the disk holds at the moment the copy is saved.
		got, _ := readDisk(t, dir, "notes.md")
		onDisk = append(onDisk, got)
	}
	mustRun(t, m, "c1", folderOpts(dir), "call-1", "write_file", map[string]any{"path": "notes.md", "content": "replaced\n"})
	if len(onDisk) != 1 || onDisk[0] != "# Notes\n\nfirst\nsecond\n" {
		t.Fatalf("the copy must be saved before the file is written; disk then: %q", onDisk)
	}
	cp := onlyCheckpoint(t, keep, "c1")
	if cp.CallID != "call-1" || cp.Tool != "write_file" || cp.Dir != dir || !cp.Complete || cp.Blocker() != "" {
		t.Fatalf("checkpoint: %+v", cp)
	}
	if len(cp.Paths) != 1 {
		t.Fatalf("paths: %+v", cp.Paths)
	}
	p := cp.Paths[0]
	if p.Path != "notes.md" || p.Op() != OpModified || !p.Kept || string(p.Content) != "# Notes\n\nfirst\nsecond\n" ||
		p.Before.Mode != 0o600 || p.After.Kind != EntryFile || p.After.Hash == nil {
		t.Fatalf("path: %+v", p)
	}
	if cp.Bytes != int64(len(p.Content)) {
		t.Fatalf("bytes %d", cp.Bytes)
	}
}

func TestUndoWriteAndEdit(t *testing.T) {
	m, keep, dir := folderFixture(t)
	before := snapshotOS(t, dir)
	mustRun(t, m, "c1", folderOpts(dir), "w", "write_file", map[string]any{"path": "notes.md", "content": "replaced\n"})
	mustRun(t, m, "c1", folderOpts(dir), "e", "edit_file", map[string]any{"path": "src/main.go", "old_text": "func main() {}", "new_text": "func main() { println() }"})
	cps := keep.list("c1")
	if len(cps) != 2 {
		t.Fatalf("one checkpoint per call: %+v", cps)
	}
	// Newest first, like a stack (each only touches its own file anyway).
	res := undo(t, m, cps[1].ID)
	if strings.Join(res.Restored, ",") != "src/main.go" || res.ChatID != "c1" {
		t.Fatalf("restored %+v", res)
	}
	undo(t, m, cps[0].ID)
	if after := snapshotOS(t, dir); after != before {
		t.Fatalf("undo must restore the folder exactly (modes too):\n%s\n---\n%s", before, after)
	}
	got, _ := m.Undo(context.Background(), cps[0].ID)
	if _, err := m.Undo(context.Background(), cps[0].ID); Code(err) != CodeUndoUnavailable {
		t.Fatalf("a second undo: %v %+v", err, got)
	}
	if cp := keep.list("c1")[0]; cp.UndoneAt == 0 || cp.Blocker() != BlockUndone {
		t.Fatalf("the undo is recorded: %+v", cp)
	}
}

func TestUndoNewFileInNewFolders(t *testing.T) {
	m, keep, dir := folderFixture(t)
	before := snapshotOS(t, dir)
	mustRun(t, m, "c1", folderOpts(dir), "w", "write_file", map[string]any{"path": "docs/plans/q3.md", "content": "brand new\n"})
	cp := onlyCheckpoint(t, keep, "c1")
	var ops []string
	for _, p := range cp.Paths {
		ops = append(ops, p.Path+":"+string(p.Op()))
	}
	if strings.Join(ops, " ") != "docs:added docs/plans:added docs/plans/q3.md:added" {
		t.Fatalf("paths: %v", ops)
	}
	undo(t, m, cp.ID)
	if after := snapshotOS(t, dir); after != before {
		t.Fatalf("the new file and its folders must go:\n%s", after)
	}
}

func TestUndoMoveAndDelete(t *testing.T) {
	m, keep, dir := folderFixture(t)
	before := snapshotOS(t, dir)
	o := folderOpts(dir)
	mustRun(t, m, "c1", o, "mv", "move_path", map[string]any{"source": "src", "destination": "lib/src"})
	mustRun(t, m, "c1", o, "rm", "delete_path", map[string]any{"path": "lib", "recursive": true})
	mustRun(t, m, "c1", o, "rm2", "delete_path", map[string]any{"path": "logo.png"})
	mustRun(t, m, "c1", o, "ow", "move_path", map[string]any{"source": "keep.txt", "destination": "notes.md", "overwrite": true})
	if _, ok := readDisk(t, dir, "src/main.go"); ok {
		t.Fatal("the moves and deletes ran")
	}
	cps := keep.list("c1")
	if len(cps) != 4 {
		t.Fatalf("checkpoints: %d", len(cps))
	}
	for i := len(cps) - 1; i >= 0; i-- {
		undo(t, m, cps[i].ID)
	}
	if after := snapshotOS(t, dir); after != before {
		t.Fatalf("moves and deletes undone:\n%s\n---\n%s", before, after)
	}
}

func TestUndoRefusedWhenAFileChangedSince(t *testing.T) {
	m, keep, dir := folderFixture(t)
	o := folderOpts(dir)
	mustRun(t, m, "c1", o, "w", "write_file", map[string]any{"path": "notes.md", "content": "model\n"})
	mustRun(t, m, "c1", o, "w2", "write_file", map[string]any{"path": "keep.txt", "content": "model too\n"})
	first, second := keep.list("c1")[0], keep.list("c1")[1]
	writeDisk(t, dir, "notes.md", "the user's edit\n")

	_, err := m.Undo(context.Background(), first.ID)
	var conflict *UndoConflictError
	if !errors.As(err, &conflict) || conflict.Code() != CodeUndoConflict {
		t.Fatalf("want a conflict, got %v", err)
	}
	if len(conflict.Paths) != 1 || conflict.Paths[0].Path != "notes.md" || conflict.Paths[0].Reason != "changed" {
		t.Fatalf("paths: %+v", conflict.Paths)
	}
	contains(t, err.Error(), "notes.md (changed since)", "Nothing was restored")
	if got, _ := readDisk(t, dir, "notes.md"); got != "the user's edit\n" {
		t.Fatalf("nothing may be restored: %q", got)
	}
	if cp := keep.list("c1")[0]; cp.UndoneAt != 0 {
		t.Fatal("a refused undo is not recorded")
	}
	// The other change is still undoable.
	undo(t, m, second.ID)
	if got, _ := readDisk(t, dir, "keep.txt"); got != "untouched\n" {
		t.Fatalf("keep.txt: %q", got)
	}
}

func TestUndoConflictsAreAllOrNothing(t *testing.T) {
	m, keep, dir := folderFixture(t)
	o := folderOpts(dir)
	mustRun(t, m, "c1", o, "mv", "move_path", map[string]any{"source": "src", "destination": "lib"})
	// Since: a file added in the folder the move made, and the source recreated.
	writeDisk(t, dir, "lib/new.go", "package lib\n")
	writeDisk(t, dir, "src/other.go", "package src\n")
	cp := onlyCheckpoint(t, keep, "c1")
	beforeUndo := snapshotOS(t, dir)
	_, err := m.Undo(context.Background(), cp.ID)
	var conflict *UndoConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("want a conflict: %v", err)
	}
	got := map[string]string{}
	for _, c := range conflict.Paths {
		got[c.Path] = c.Reason + " " + c.Extra
	}
	if got["src"] != "created " || got["lib"] != "unexpected lib/new.go" {
		t.Fatalf("conflicts: %+v", conflict.Paths)
	}
	if after := snapshotOS(t, dir); after != beforeUndo {
		t.Fatal("a refused undo must not touch the folder")
	}
}

func TestCheckpointSizeCaps(t *testing.T) {
	m, keep, dir := folderFixture(t)
	big := strings.Repeat("x", CheckpointFileMax+1)
	writeDisk(t, dir, "big.log", big)
	// The write is not refused; the checkpoint says the file was not kept.
	mustRun(t, m, "c1", folderOpts(dir), "w", "write_file", map[string]any{"path": "big.log", "content": "small now\n"})
	cp := onlyCheckpoint(t, keep, "c1")
	if len(cp.Paths) != 1 || cp.Paths[0].Kept || cp.Bytes != 0 {
		t.Fatalf("a file over the cap is not kept: %+v", cp.Paths)
	}
	contains(t, cp.Paths[0].Note, "too large to keep", "undo is not available for this file")
	if cp.Blocker() != BlockNotKept {
		t.Fatalf("blocker %q", cp.Blocker())
	}
	_, err := m.Undo(context.Background(), cp.ID)
	wantCode(t, err, CodeUndoUnavailable)
	contains(t, err.Error(), "big.log", "too large to keep")
	if got, _ := readDisk(t, dir, "big.log"); got != "small now\n" {
		t.Fatal("the refused undo left the file alone")
	}
}

func TestCheckpointBinaryKeptAsBytes(t *testing.T) {
	m, keep, dir := folderFixture(t)
	mustRun(t, m, "c1", folderOpts(dir), "w", "write_file", map[string]any{"path": "logo.png", "content": "text now"})
	cp := onlyCheckpoint(t, keep, "c1")
	if string(cp.Paths[0].Content) != "\x89PNG\x00\x00binary\xff" {
		t.Fatalf("binary content: %q", cp.Paths[0].Content)
	}
	undo(t, m, cp.ID)
	if got, _ := readDisk(t, dir, "logo.png"); got != "\x89PNG\x00\x00binary\xff" {
		t.Fatalf("restored: %q", got)
	}
}

func TestCheckpointNothingChangedNothingKept(t *testing.T) {
	m, keep, dir := folderFixture(t)
	o := folderOpts(dir)
	mustRun(t, m, "c1", o, "r", "read_file", map[string]any{"path": "notes.md"})
	mustRun(t, m, "c1", o, "w", "write_file", map[string]any{"path": "keep.txt", "content": "untouched\n"})
	if _, err := runCall(t, m, "c1", o, "bad", "write_file", map[string]any{"path": "src", "content": "x"}); err == nil {
		t.Fatal("writing over a folder fails")
	}
	if cps := keep.list("c1"); len(cps) != 0 {
		t.Fatalf("no change, no checkpoint: %+v", cps)
	}
}

func TestCheckpointChatCapDropsOldest(t *testing.T) {
	keep := newMemKeep()
	// Three checkpoints of 4 bytes each; a cap of 10 drops the oldest.
	for i := range 3 {
		c := &Checkpoint{ChatID: "c1", Dir: "/x"}
		if err := keep.CreateCheckpoint(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		p := CheckpointPath{Path: "f", Before: Image{Kind: EntryFile, Size: 4}, Content: []byte("abcd"), Kept: true, After: Image{Kind: EntryAbsent}}
		_ = i
		if err := keep.AddCheckpointPaths(context.Background(), c.ID, []CheckpointPath{p}); err != nil {
			t.Fatal(err)
		}
		if err := keep.FinishCheckpoint(context.Background(), c.ID, []CheckpointPath{p}); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := keep.PruneCheckpoints(context.Background(), "c1", 10); n != 1 {
		t.Fatalf("dropped %d", n)
	}
	cps := keep.list("c1")
	if cps[0].Blocker() != BlockDropped || cps[1].Blocker() != "" || cps[2].Blocker() != "" {
		t.Fatalf("the oldest is dropped: %+v", cps)
	}
}

func TestOverlayApplyIsCheckpointedAndUndone(t *testing.T) {
	dir := t.TempDir()
	writeDisk(t, dir, "notes.md", "# Notes\n\nfirst\nsecond\n")
	writeDisk(t, dir, "keep.txt", "untouched\n")
	writeDisk(t, dir, "src/main.go", "package main\n\nfunc main() {}\n")
	writeDisk(t, dir, "src/old.go", "package main // old\n")
	writeDisk(t, dir, "logo.png", "\x89PNG\x00\x00binary")
	writeDisk(t, dir, "build/out.txt", "artifact\n")
	writeDisk(t, dir, "build/sub/more.txt", "more\n")
	keep := newMemKeep()
	m := NewManager(keep)
	defer m.Close()
	before := snapshotOS(t, dir)
	w, err := m.Get(context.Background(), "c1", overlayOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	modelEdits(t, w.FS())
	if len(keep.list("c1")) != 0 {
		t.Fatal("an overlay keeps no checkpoint before Apply: the disk is untouched")
	}
	if err := w.Apply(); err != nil {
		t.Fatal(err)
	}
	if snapshotOS(t, dir) == before {
		t.Fatal("apply wrote nothing")
	}
	cp := onlyCheckpoint(t, keep, "c1")
	if cp.Tool != ToolApply || cp.CallID != "" || !cp.Complete {
		t.Fatalf("apply checkpoint: %+v", cp)
	}
	for _, p := range cp.Paths {
		if strings.Contains(p.Path, ".airlock-") {
			t.Fatalf("the temporary files of Apply are not listed: %s", p.Path)
		}
	}
	undo(t, m, cp.ID)
	if after := snapshotOS(t, dir); after != before {
		t.Fatalf("undoing an Apply restores the folder:\n%s\n---\n%s", before, after)
	}
}

func TestUndoPutsBackADeletedLink(t *testing.T) {
	m, keep, dir := folderFixture(t)
	if err := os.Symlink("keep.txt", filepath.Join(dir, "code")); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
	before := snapshotOS(t, dir)
	mustRun(t, m, "c1", folderOpts(dir), "rm", "delete_path", map[string]any{"path": "code"})
	if _, err := os.Lstat(filepath.Join(dir, "code")); !os.IsNotExist(err) {
		t.Fatalf("the link was deleted: %v", err)
	}
	cp := onlyCheckpoint(t, keep, "c1")
	if p := cp.Paths[0]; p.Before.Kind != EntryLink || string(p.Content) != "keep.txt" || !p.Kept {
		t.Fatalf("the link is kept as a link: %+v", p)
	}
	undo(t, m, cp.ID)
	if target, err := os.Readlink(filepath.Join(dir, "code")); err != nil || target != "keep.txt" {
		t.Fatalf("link back: %q %v", target, err)
	}
	if after := snapshotOS(t, dir); after != before {
		t.Fatalf("folder:\n%s\n---\n%s", before, after)
	}
}

func TestCheckpointBudgetPerChange(t *testing.T) {
	_, keep, dir := folderFixture(t)
	ws, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	// A change may keep at most the chat's cap; past it, files are not kept.
	fsys, finish := CheckpointFsWithBudget(ws, keep, "c1", 20) // main.go is 29 bytes, strings.go 13
	mustCall(t, fsys, "delete_path", map[string]any{"path": "src", "recursive": true})
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	cp := onlyCheckpoint(t, keep, "c1")
	notes := map[string]string{}
	for _, p := range cp.Paths {
		if !p.Kept {
			notes[p.Path] = p.Note
		}
	}
	if len(notes) != 1 || !strings.Contains(notes["src/main.go"], "not kept: this change touched more than") {
		t.Fatalf("over the budget: %+v", notes)
	}
}
