package workspace_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	. "airlock/backend/workspace"
)

func overlayFixture(t *testing.T) (*Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	writeDisk(t, dir, "notes.md", "# Notes\n\nfirst\nsecond\n")
	writeDisk(t, dir, "keep.txt", "untouched\n")
	writeDisk(t, dir, "src/main.go", "package main\n\nfunc main() {}\n")
	writeDisk(t, dir, "src/old.go", "package main // old\n")
	writeDisk(t, dir, "logo.png", "\x89PNG\x00\x00binary")
	writeDisk(t, dir, "build/out.txt", "artifact\n")
	writeDisk(t, dir, "build/sub/more.txt", "more\n")
	ws, err := OpenOverlay(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if ws.Kind() != KindOverlay || ws.Dir() != dir {
		t.Fatalf("kind %s dir %s", ws.Kind(), ws.Dir())
	}
	return ws, dir
}

// modelEdits runs a typical set of tool calls on the overlay.
func modelEdits(t *testing.T, fsys afero.Fs) {
	t.Helper()
	mustCall(t, fsys, "read_file", map[string]any{"path": "notes.md"})
	mustCall(t, fsys, "edit_file", map[string]any{"path": "notes.md", "old_text": "second", "new_text": "second, revised"})
	mustCall(t, fsys, "write_file", map[string]any{"path": "docs/new.md", "content": "brand new\n"})
	mustCall(t, fsys, "delete_path", map[string]any{"path": "src/old.go"})
	mustCall(t, fsys, "delete_path", map[string]any{"path": "build", "recursive": true})
	mustCall(t, fsys, "write_file", map[string]any{"path": "logo.png", "content": "now text"})
	mustCall(t, fsys, "make_directory", map[string]any{"path": "empty/dir"})
	mustCall(t, fsys, "move_path", map[string]any{"source": "src/main.go", "destination": "cmd/main.go"})
}

func TestOverlayWritesDoNotTouchDisk(t *testing.T) {
	ws, dir := overlayFixture(t)
	before := snapshotOS(t, dir)
	fsys := ws.FS()
	modelEdits(t, fsys)

	if after := snapshotOS(t, dir); after != before {
		t.Fatalf("the disk changed before Apply:\n%s\n---\n%s", before, after)
	}
	// The model sees its own changes.
	if got := get(t, fsys, "notes.md"); !strings.Contains(got, "second, revised") {
		t.Fatalf("overlay view: %q", got)
	}
	if get(t, fsys, "cmd/main.go") != "package main\n\nfunc main() {}\n" {
		t.Fatal("moved file")
	}
	for _, gone := range []string{"/src/old.go", "/src/main.go", "/build", "/build/out.txt"} {
		if _, err := fsys.Stat(gone); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s should be gone in the overlay, got %v", gone, err)
		}
	}
	out := mustCall(t, fsys, "list_directory", map[string]any{"recursive": true})
	contains(t, out, "docs/new.md", "cmd/main.go", "empty/dir/", "src/\n")
	lacks(t, out, "build", "old.go", "src/main.go")
	out = mustCall(t, fsys, "search_files", map[string]any{"pattern": "artifact|old"})
	contains(t, out, "No matches")
	// Files added on disk by someone else show through (the overlay is live).
	writeDisk(t, dir, "external.txt", "from the user\n")
	if get(t, fsys, "external.txt") != "from the user\n" {
		t.Fatal("live view")
	}
}

func TestOverlayChanges(t *testing.T) {
	ws, _ := overlayFixture(t)
	modelEdits(t, ws.FS())
	cs, err := ws.Changes()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	byPath := map[string]Change{}
	for _, c := range cs {
		got = append(got, string(c.Op)+" "+c.Path)
		byPath[c.Path] = c
	}
	want := []string{
		"deleted build", "deleted build/out.txt", "deleted build/sub", "deleted build/sub/more.txt",
		"added cmd/main.go", "added docs/new.md", "added empty/dir", "modified logo.png",
		"modified notes.md", "deleted src/main.go", "deleted src/old.go",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	n := byPath["notes.md"]
	contains(t, n.Diff, "--- a/notes.md\n+++ b/notes.md\n", "-second\n", "+second, revised\n")
	contains(t, byPath["docs/new.md"].Diff, "--- /dev/null\n+++ b/docs/new.md\n", "+brand new\n")
	contains(t, byPath["src/old.go"].Diff, "--- a/src/old.go\n+++ /dev/null\n", "-package main // old\n")
	if l := byPath["logo.png"]; !l.Binary || l.Diff != "" || !strings.Contains(l.Note, "binary file") {
		t.Fatalf("binary change: %+v", l)
	}
	if d := byPath["build/sub"]; !d.IsDir || d.Diff != "" {
		t.Fatalf("folder change: %+v", d)
	}
	if d := byPath["empty/dir"]; !d.IsDir {
		t.Fatalf("new folder: %+v", d)
	}
	// An edit that restores the original content is no change at all.
	mustCall(t, ws.FS(), "edit_file", map[string]any{"path": "notes.md", "old_text": "second, revised", "new_text": "second"})
	cs, _ = ws.Changes()
	for _, c := range cs {
		if c.Path == "notes.md" {
			t.Fatal("unchanged content listed as a change")
		}
	}
}

func TestOverlayApplyAll(t *testing.T) {
	ws, dir := overlayFixture(t)
	modelEdits(t, ws.FS())
	if err := ws.Apply(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"notes.md":    "# Notes\n\nfirst\nsecond, revised\n",
		"docs/new.md": "brand new\n",
		"logo.png":    "now text",
		"cmd/main.go": "package main\n\nfunc main() {}\n",
		"keep.txt":    "untouched\n",
	} {
		if got, ok := readDisk(t, dir, name); !ok || got != want {
			t.Errorf("%s on disk: %q %v", name, got, ok)
		}
	}
	for _, gone := range []string{"src/old.go", "src/main.go", "build"} {
		if _, err := os.Lstat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still on disk", gone)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "empty", "dir")); err != nil || !fi.IsDir() {
		t.Error("empty/dir not created")
	}
	if fi, err := os.Stat(filepath.Join(dir, "src")); err != nil || !fi.IsDir() {
		t.Error("src/ should stay (it still existed in the overlay)")
	}
	// No temporary files left behind.
	snap := snapshotOS(t, dir)
	lacks(t, snap, ".airlock-")
	cs, err := ws.Changes()
	if err != nil || len(cs) != 0 {
		t.Fatalf("pending after apply: %+v %v", cs, err)
	}
	// The overlay keeps working on top of the new disk state.
	mustCall(t, ws.FS(), "write_file", map[string]any{"path": "keep.txt", "content": "changed\n"})
	cs, _ = ws.Changes()
	if len(cs) != 1 || cs[0].Path != "keep.txt" || cs[0].Op != OpModified {
		t.Fatalf("%+v", cs)
	}
}

func TestOverlayApplyKeepsMode(t *testing.T) {
	dir := t.TempDir()
	writeDisk(t, dir, "run.sh", "#!/bin/sh\necho hi\n")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws, err := OpenOverlay(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	mustCall(t, ws.FS(), "edit_file", map[string]any{"path": "run.sh", "old_text": "hi", "new_text": "hello"})
	if err := ws.Apply(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "run.sh"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
}

func TestOverlayApplySelected(t *testing.T) {
	ws, dir := overlayFixture(t)
	modelEdits(t, ws.FS())
	if err := ws.Apply("notes.md", "build"); err != nil {
		t.Fatal(err)
	}
	if got, _ := readDisk(t, dir, "notes.md"); !strings.Contains(got, "revised") {
		t.Fatal("notes.md not applied")
	}
	if _, err := os.Stat(filepath.Join(dir, "build")); !os.IsNotExist(err) {
		t.Fatal("build/ (and everything in it) should be deleted")
	}
	if _, ok := readDisk(t, dir, "docs/new.md"); ok {
		t.Fatal("docs/new.md was not selected")
	}
	if _, ok := readDisk(t, dir, "src/old.go"); !ok {
		t.Fatal("src/old.go was not selected")
	}
	cs, _ := ws.Changes()
	for _, c := range cs {
		if c.Path == "notes.md" || strings.HasPrefix(c.Path, "build") {
			t.Fatalf("applied change still pending: %+v", c)
		}
	}
	if len(cs) != 6 {
		t.Fatalf("want 6 pending, got %d", len(cs))
	}
	err := ws.Apply("nothing/here")
	wantCode(t, err, CodeNotFound)
	contains(t, err.Error(), "no pending change at nothing/here")
	wantCode(t, ws.Apply("../x"), CodePathOutside)
}

func TestOverlayDiscard(t *testing.T) {
	ws, dir := overlayFixture(t)
	before := snapshotOS(t, dir)
	fsys := ws.FS()
	modelEdits(t, fsys)

	// Discard one file's deletion inside a deleted folder: the folder comes back with it.
	if err := ws.Discard("build/sub/more.txt"); err != nil {
		t.Fatal(err)
	}
	if get(t, fsys, "build/sub/more.txt") != "more\n" {
		t.Fatal("discarded deletion not restored")
	}
	if _, err := fsys.Stat("/build/out.txt"); err == nil {
		t.Fatal("build/out.txt is still deleted")
	}
	// Discard an added file: its new parent folder goes too.
	if err := ws.Discard("docs/new.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Stat("/docs"); err == nil {
		t.Fatal("docs/ should go with its only file")
	}
	// Discard a modification.
	if err := ws.Discard("notes.md"); err != nil {
		t.Fatal(err)
	}
	if get(t, fsys, "notes.md") != "# Notes\n\nfirst\nsecond\n" {
		t.Fatal("modification not discarded")
	}
	wantCode(t, ws.Discard("notes.md"), CodeNotFound)

	if err := ws.Discard(); err != nil {
		t.Fatal(err)
	}
	cs, err := ws.Changes()
	if err != nil || len(cs) != 0 {
		t.Fatalf("%+v %v", cs, err)
	}
	if get(t, fsys, "src/old.go") != "package main // old\n" || get(t, fsys, "build/out.txt") != "artifact\n" {
		t.Fatal("discard all")
	}
	if after := snapshotOS(t, dir); after != before {
		t.Fatal("discard touched the disk")
	}
}

func setMtime(t *testing.T, dir, name string, tm time.Time) {
	t.Helper()
	if err := os.Chtimes(filepath.Join(dir, name), tm, tm); err != nil {
		t.Fatal(err)
	}
}

func TestOverlayConflictAfterRead(t *testing.T) {
	ws, dir := overlayFixture(t)
	fsys := ws.FS()
	// The model reads notes.md; then the user edits it on disk; then the model edits it.
	mustCall(t, fsys, "read_file", map[string]any{"path": "notes.md"})
	writeDisk(t, dir, "notes.md", "# Notes\n\nfirst\nsecond\nuser line\n")
	setMtime(t, dir, "notes.md", time.Now().Add(time.Minute))
	mustCall(t, fsys, "edit_file", map[string]any{"path": "notes.md", "old_text": "first", "new_text": "FIRST"})
	mustCall(t, fsys, "write_file", map[string]any{"path": "other.txt", "content": "fine\n"})

	err := ws.Apply()
	wantCode(t, err, CodeConflict)
	if err.Error() != "notes.md changed on disk since the model read it; review and apply again" {
		t.Fatalf("message: %q", err)
	}
	var ce *chat.Error
	if !errors.As(err, &ce) {
		t.Fatal("not a *chat.Error")
	}
	// Nothing written for that file; the other change went through.
	if got, _ := readDisk(t, dir, "notes.md"); got != "# Notes\n\nfirst\nsecond\nuser line\n" {
		t.Fatalf("conflicting file was written: %q", got)
	}
	if got, _ := readDisk(t, dir, "other.txt"); got != "fine\n" {
		t.Fatal("non-conflicting change not applied")
	}
	cs, _ := ws.Changes()
	if len(cs) != 1 || cs[0].Path != "notes.md" {
		t.Fatalf("pending: %+v", cs)
	}
	// The edit was made on the content as it was on disk at the time, and
	// the diff is against the disk now: the user reviews it and applies again.
	contains(t, cs[0].Diff, "-first\n", "+FIRST\n", " user line\n")
	if err := ws.Apply("notes.md"); err != nil {
		t.Fatalf("second apply after review: %v", err)
	}
	if got, _ := readDisk(t, dir, "notes.md"); got != "# Notes\n\nFIRST\nsecond\nuser line\n" {
		t.Fatalf("got %q", got)
	}
}

func TestOverlayConflictAfterEdit(t *testing.T) {
	ws, dir := overlayFixture(t)
	fsys := ws.FS()
	mustCall(t, fsys, "edit_file", map[string]any{"path": "keep.txt", "old_text": "untouched", "new_text": "edited"})
	// Same size, same mtime: only the content hash can tell.
	fi, _ := os.Stat(filepath.Join(dir, "keep.txt"))
	writeDisk(t, dir, "keep.txt", "UNTOUCHED\n")
	setMtime(t, dir, "keep.txt", fi.ModTime())
	err := ws.Apply()
	wantCode(t, err, CodeConflict)
	contains(t, err.Error(), "keep.txt changed on disk since the model read it")
	if got, _ := readDisk(t, dir, "keep.txt"); got != "UNTOUCHED\n" {
		t.Fatal("overwritten")
	}
}

func TestOverlayConflictKinds(t *testing.T) {
	ws, dir := overlayFixture(t)
	fsys := ws.FS()
	mustCall(t, fsys, "write_file", map[string]any{"path": "fresh.txt", "content": "model\n"})
	mustCall(t, fsys, "delete_path", map[string]any{"path": "src/old.go"})
	mustCall(t, fsys, "delete_path", map[string]any{"path": "build", "recursive": true})
	mustCall(t, fsys, "edit_file", map[string]any{"path": "notes.md", "old_text": "first", "new_text": "1st"})

	writeDisk(t, dir, "fresh.txt", "user\n")                      // created meanwhile
	writeDisk(t, dir, "src/old.go", "package main // changed!\n") // changed after the model deleted it
	writeDisk(t, dir, "build/new-artifact.txt", "new\n")          // a new file in a deleted folder
	if err := os.Remove(filepath.Join(dir, "notes.md")); err != nil {
		t.Fatal(err) // deleted meanwhile
	}

	err := ws.Apply()
	wantCode(t, err, CodeConflict)
	contains(t, err.Error(),
		"fresh.txt was created on disk since the model started working on it",
		"src/old.go changed on disk since the model read it",
		"folder build holds files on disk that the model did not delete",
	)
	if got, _ := readDisk(t, dir, "fresh.txt"); got != "user\n" {
		t.Fatal("fresh.txt overwritten")
	}
	if _, ok := readDisk(t, dir, "src/old.go"); !ok {
		t.Fatal("src/old.go deleted despite the conflict")
	}
	if _, ok := readDisk(t, dir, "build/new-artifact.txt"); !ok {
		t.Fatal("a file the model never saw was deleted")
	}
	if _, ok := readDisk(t, dir, "notes.md"); ok {
		t.Fatal("notes.md was recreated although the user deleted it")
	}
	var ce *chat.Error
	if !errors.As(err, &ce) || !strings.Contains(ce.Message, "changes were not applied") {
		t.Fatalf("%v", err)
	}
}

func TestOverlayDeleteThenRecreate(t *testing.T) {
	ws, dir := overlayFixture(t)
	fsys := ws.FS()
	mustCall(t, fsys, "delete_path", map[string]any{"path": "build", "recursive": true})
	mustCall(t, fsys, "write_file", map[string]any{"path": "build/out.txt", "content": "rebuilt\n"})
	// The old build/sub stays deleted under the recreated folder.
	out := mustCall(t, fsys, "list_directory", map[string]any{"path": "build", "recursive": true})
	if out != "build/out.txt  8 bytes\n[1 file, 0 folders]" {
		t.Fatalf("got %q", out)
	}
	cs, _ := ws.Changes()
	var got []string
	for _, c := range cs {
		got = append(got, string(c.Op)+" "+c.Path)
	}
	if strings.Join(got, ",") != "modified build/out.txt,deleted build/sub,deleted build/sub/more.txt" {
		t.Fatalf("got %v", got)
	}
	if err := ws.Apply(); err != nil {
		t.Fatal(err)
	}
	if got, _ := readDisk(t, dir, "build/out.txt"); got != "rebuilt\n" {
		t.Fatal(got)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "sub")); !os.IsNotExist(err) {
		t.Fatal("build/sub should be gone")
	}
}

func TestOverlayFsSemantics(t *testing.T) {
	ws, _ := overlayFixture(t)
	fsys := ws.FS()
	// Removing a non-empty folder fails; removing a base file works (CopyOnWriteFs refuses it).
	if err := fsys.Remove("/build"); !errors.Is(err, syscall.ENOTEMPTY) {
		t.Fatalf("got %v", err)
	}
	if err := fsys.Remove("/keep.txt"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Rename("/notes.md", "/renamed.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Stat("/notes.md"); !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if err := fsys.Mkdir("/src", 0o755); !errors.Is(err, os.ErrExist) {
		t.Fatalf("mkdir existing: %v", err)
	}
	if _, err := fsys.OpenFile("/renamed.md", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); !errors.Is(err, os.ErrExist) {
		t.Fatalf("O_EXCL: %v", err)
	}
	if _, err := fsys.Create("/nodir/x.txt"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("create without parent: %v", err)
	}
	// Appending copies the disk content up first.
	f, err := fsys.OpenFile("/src/main.go", os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("// more\n")
	f.Close()
	if get(t, fsys, "src/main.go") != "package main\n\nfunc main() {}\n// more\n" {
		t.Fatal("append")
	}
}

// TestCopyOnWriteFsLimits records why the overlay is not afero's
// CopyOnWriteFs: it cannot delete or rename a file that exists only in the
// base, which the model must be able to do.
func TestCopyOnWriteFsLimits(t *testing.T) {
	base := afero.NewMemMapFs()
	afero.WriteFile(base, "/a.txt", []byte("a"), 0o644)
	cow := afero.NewCopyOnWriteFs(afero.NewReadOnlyFs(base), afero.NewMemMapFs())
	if err := cow.Remove("/a.txt"); err == nil {
		t.Fatal("CopyOnWriteFs learned to delete base files: reconsider overlayFs")
	}
	if err := cow.Rename("/a.txt", "/b.txt"); err == nil {
		t.Fatal("CopyOnWriteFs learned to rename base files: reconsider overlayFs")
	}
}

func TestChangesNeedAnOverlay(t *testing.T) {
	ws := NewScratch()
	_, err := ws.Changes()
	wantCode(t, err, CodeNotOverlay)
	wantCode(t, ws.Apply(), CodeNotOverlay)
	wantCode(t, ws.Discard(), CodeNotOverlay)
}

func TestOpenFolderErrors(t *testing.T) {
	_, err := OpenFolder(filepath.Join(t.TempDir(), "missing"))
	wantCode(t, err, CodeNotFound)
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o644)
	_, err = OpenOverlay(f)
	wantCode(t, err, CodeNotDirectory)
	_, err = OpenFolder("")
	wantCode(t, err, CodeInvalidArgs)
}
