package workspace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"

	. "airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
)

// The Fs given to tools (Workspace.FS) cleans every name itself, whoever calls it.
func TestWorkspaceFSRefusesHostileNames(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "ws")
	os.Mkdir(dir, 0o755)
	ws, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	fsys := ws.FS()
	for _, name := range []string{"../escape.txt", "/../escape.txt", "//escape.txt", `\\host\share\x`, "C:/x", "a/../../escape.txt", "x\x00y"} {
		if f, err := fsys.Create(name); err == nil {
			f.Close()
			t.Errorf("Create(%q) succeeded", name)
		} else if Code(err) == "" {
			t.Errorf("Create(%q): %v has no code", name, err)
		}
		if _, err := fsys.Stat(name); err == nil {
			t.Errorf("Stat(%q) succeeded", name)
		}
		if err := fsys.MkdirAll(name, 0o755); err == nil {
			t.Errorf("MkdirAll(%q) succeeded", name)
		}
		if err := fsys.RemoveAll(name); err == nil {
			t.Errorf("RemoveAll(%q) succeeded", name)
		}
	}
	if err := fsys.RemoveAll("/"); err == nil {
		t.Error("RemoveAll(/) must be refused")
	}
	if got := workspacetest.ListOS(t, parent); len(got) != 1 || got[0] != "ws" {
		t.Fatalf("outside the workspace: %v", got)
	}
	// "/x" is rooted at the workspace (afero's convention), not the disk root.
	if err := afero.WriteFile(fsys, "/rooted.txt", []byte("r"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, ok := readDisk(t, dir, "rooted.txt"); !ok || s != "r" {
		t.Fatal("rooted name not inside the folder")
	}
}

// Moving a folder that holds a link leading out fails as a whole in an
// overlay: nothing is half moved.
func TestOverlayMoveFolderWithEscapingLink(t *testing.T) {
	dir, _ := workspacetest.SymlinkFixture(t)
	ws, err := OpenOverlay(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	fsys := ws.FS()
	_, err = call(fsys, "move_path", map[string]any{"source": "sub", "destination": "moved"})
	wantCode(t, err, CodePathOutside)
	if get(t, fsys, "sub/real.txt") != "real inside\n" {
		t.Fatal("source damaged")
	}
	if _, err := fsys.Stat("/moved"); err == nil {
		t.Fatal("half-done move")
	}
	if cs, _ := ws.Changes(); len(cs) != 0 {
		t.Fatalf("changes after a failed move: %+v", cs)
	}
}
