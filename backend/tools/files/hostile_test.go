//go:build unix

package files

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"airlock/backend/workspace"
)

// within fails the test when fn has not returned in a minute: a FIFO
// opened for reading blocks for ever, so "returned at all" is the check.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s blocked", what)
	}
}

// A FIFO in a folder (or under an overlay) is never opened: read_file,
// edit_file and write_file's preview say so, search_files passes over it.
func TestToolsOpenRegularFilesOnly(t *testing.T) {
	for _, b := range backends()[2:] { // folder, overlay
		t.Run(b.name, func(t *testing.T) {
			fsys, dir := b.open(t)
			if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
				t.Fatal(err)
			}
			put(t, fsys, "note.txt", "pipe dreams\n")
			within(t, "read_file", func() {
				_, err := call(fsys, "read_file", map[string]any{"path": "pipe"})
				wantCode(t, err, workspace.CodeNotRegular)
			})
			within(t, "edit_file", func() {
				_, err := call(fsys, "edit_file", map[string]any{"path": "pipe", "old_text": "a", "new_text": "b"})
				wantCode(t, err, workspace.CodeNotRegular)
			})
			within(t, "write_file preview", func() {
				_, err := preview(fsys, "write_file", map[string]any{"path": "pipe", "content": "x"})
				wantCode(t, err, workspace.CodeNotRegular)
			})
			within(t, "search_files", func() {
				out := mustCall(t, fsys, "search_files", map[string]any{"pattern": "pipe"})
				contains(t, out, "note.txt:1:pipe dreams")
			})
		})
	}
}

// Under an overlay, a file changed in the layer whose disk copy became a
// pipe is listed in Changes() without reading the pipe.
func TestOverlayChangesSkipPipes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.OpenOverlay(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	mustCall(t, ws.FS(), "write_file", map[string]any{"path": "x", "content": "new"})
	os.Remove(filepath.Join(dir, "x"))
	if err := syscall.Mkfifo(filepath.Join(dir, "x"), 0o644); err != nil {
		t.Fatal(err)
	}
	within(t, "Changes", func() {
		cs, err := ws.Changes()
		if err != nil || len(cs) != 1 || !strings.Contains(cs[0].Note, "not a regular file") {
			t.Errorf("changes %+v %v", cs, err)
		}
	})
}

// write_file on a file hard-linked to one outside the folder replaces the
// folder's name only: the outside file keeps its content.
func TestWriteFileLeavesHardLinksOutsideAlone(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("outside stays"), 0o600); err != nil {
		t.Fatal(err)
	}
	fsys, dir := backends()[2].open(t) // folder
	if err := os.Link(outside, filepath.Join(dir, "linked.txt")); err != nil {
		t.Fatal(err)
	}
	mustCall(t, fsys, "write_file", map[string]any{"path": "linked.txt", "content": "inside changed"})
	if b, _ := os.ReadFile(outside); string(b) != "outside stays" {
		t.Fatalf("the outside file changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "linked.txt")); string(b) != "inside changed" {
		t.Fatalf("the folder's file: %q", b)
	}
	fi, _ := os.Stat(filepath.Join(dir, "linked.txt"))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", fi.Mode().Perm())
	}
	// edit_file too, and nothing is left behind.
	if err := os.Link(outside, filepath.Join(dir, "again.txt")); err != nil {
		t.Fatal(err)
	}
	mustCall(t, fsys, "edit_file", map[string]any{"path": "again.txt", "old_text": "stays", "new_text": "moved"})
	if b, _ := os.ReadFile(outside); string(b) != "outside stays" {
		t.Fatalf("edit_file changed the outside file: %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("entries left: %v", ents)
	}
}

// A name holding a line break cannot forge lines in a listing.
func TestListingsEscapeControlCharacters(t *testing.T) {
	fsys, dir := backends()[2].open(t)
	if err := os.WriteFile(filepath.Join(dir, "a\n[3 files, 9 folders]\nevil.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"list_directory", "find_files"} {
		args := map[string]any{"path": "."}
		if name == "find_files" {
			args = map[string]any{"pattern": "**"}
		}
		out := mustCall(t, fsys, name, args)
		contains(t, out, `"a\n[3 files, 9 folders]\nevil.txt"`)
		for _, line := range strings.Split(out, "\n") {
			if line == "[3 files, 9 folders]" || strings.HasPrefix(line, "evil.txt") {
				t.Errorf("%s printed a forged line: %q", name, out)
			}
		}
	}
}
