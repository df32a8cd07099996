package workspace_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// A link planted on disk at a path the overlay also holds (issue 31,
// item 12): Apply refuses that one path, applies the rest, and names what
// it skipped; a pending delete whose target became a link is not dropped
// silently. Nothing outside the folder changes.
func TestOverlayApplySkipsPlantedLinks(t *testing.T) {
	ws, dir := overlayFixture(t)
	outside := t.TempDir()
	writeDisk(t, outside, "target.txt", "outside\n")
	fsys := ws.FS()
	for name, content := range map[string]string{"new.txt": "new\n", "notes.md": "# Notes\n\nedited\n", "src/added.go": "package main\n", "fine.txt": "fine\n"} {
		if err := afero.WriteFile(fsys, "/"+name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.Remove("/keep.txt"); err != nil {
		t.Fatal(err)
	}
	// Planted after the model worked: links where the overlay holds files.
	plant := func(rel, to string) {
		p := filepath.Join(dir, rel)
		os.RemoveAll(p)
		if err := os.Symlink(to, p); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	plant("new.txt", filepath.Join(outside, "target.txt"))
	plant("notes.md", filepath.Join(outside, "target.txt"))
	plant("keep.txt", filepath.Join(outside, "target.txt"))
	os.Rename(filepath.Join(dir, "src"), filepath.Join(dir, "src.moved"))
	plant("src", outside)

	err := ws.Apply()
	if err == nil {
		t.Fatal("Apply reported no skipped path")
	}
	for _, p := range []string{"new.txt", "notes.md", "keep.txt", "src/added.go"} {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("the error does not name %s: %v", p, err)
		}
	}
	if got, _ := readDisk(t, dir, "fine.txt"); got != "fine\n" {
		t.Errorf("the rest was not applied: fine.txt = %q (%v)", got, err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "target.txt")); string(b) != "outside\n" {
		t.Errorf("Apply wrote outside the folder: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "added.go")); err == nil {
		t.Error("Apply wrote into the linked folder")
	}
	changes, err := ws.Changes()
	if err != nil {
		t.Fatalf("Changes after the skip: %v", err)
	}
	left := map[string]bool{}
	for _, c := range changes {
		left[c.Path] = true
	}
	for _, p := range []string{"new.txt", "notes.md", "keep.txt", "src/added.go"} {
		if !left[p] {
			t.Errorf("%s is no longer pending (dropped silently): %+v", p, changes)
		}
	}
}
