package workspace_test

import (
	"os"
	"path/filepath"
	"testing"
)

// Undo holds the same jail as the tools (issue 31, item 11): when the
// workspace folder, or a parent entry of it, is replaced by a link to
// another folder after a change, Undo restores nothing in that other
// folder; it works on the folder the tools had open.
func TestUndoHoldsTheToolsJail(t *testing.T) {
	for _, swap := range []string{"the folder", "a parent"} {
		t.Run(swap, func(t *testing.T) {
			base := t.TempDir()
			parent := filepath.Join(base, "parent")
			dir := filepath.Join(parent, "ws")
			outside := filepath.Join(base, "outside")
			for _, d := range []string{dir, filepath.Join(outside, "ws")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			writeDisk(t, dir, "notes.md", "mine\n")
			// The other folder holds what the change left, so only the
			// jail, not the conflict check, can keep Undo out of it.
			writeDisk(t, outside, "notes.md", "changed\n")
			writeDisk(t, filepath.Join(outside, "ws"), "notes.md", "changed\n")
			m, keep, _ := folderFixture(t)
			mustRun(t, m, "c1", folderOpts(dir), "call-1", "write_file", map[string]any{"path": "notes.md", "content": "changed\n"})
			cp := onlyCheckpoint(t, keep, "c1")

			// The entry is swapped for a link to the other folder.
			moved, from, to := parent+".moved", parent, filepath.Join(outside)
			if swap == "the folder" {
				moved, from, to = dir+".moved", dir, outside
			}
			if err := os.Rename(from, moved); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(to, from); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			res, err := m.Undo(t.Context(), cp.ID)
			t.Logf("undo: %v %v", res.Restored, err)
			for _, p := range []string{filepath.Join(outside, "notes.md"), filepath.Join(outside, "ws", "notes.md")} {
				if b, _ := os.ReadFile(p); string(b) != "changed\n" {
					t.Errorf("undo wrote outside the workspace: %s holds %q", p, b)
				}
			}
		})
	}
}
