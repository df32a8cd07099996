package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"airlock/backend/tools"
	"airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
)

// Every tool refuses every hostile path, on every backend, before touching
// anything; and nothing appears outside the folder.
func TestTraversalRefusedByEveryTool(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			fsys, dir := b.open(t)
			put(t, fsys, "inside.txt", "inside\n")
			var before []string
			if dir != "" {
				before = workspacetest.ListOS(t, filepath.Dir(dir))
			}
			for _, h := range workspacetest.HostilePaths {
				if !utf8.ValidString(h.Path) {
					continue // JSON cannot carry it: encoding/json turns it into U+FFFD (CleanPath is tested directly)
				}
				calls := []struct {
					tool string
					args map[string]any
				}{
					{"list_directory", map[string]any{"path": h.Path}},
					{"read_file", map[string]any{"path": h.Path}},
					{"write_file", map[string]any{"path": h.Path, "content": "pwned"}},
					{"edit_file", map[string]any{"path": h.Path, "old_text": "a", "new_text": "b"}},
					{"search_files", map[string]any{"pattern": "x", "path": h.Path}},
					{"find_files", map[string]any{"pattern": "*", "path": h.Path}},
					{"make_directory", map[string]any{"path": h.Path}},
					{"move_path", map[string]any{"source": "inside.txt", "destination": h.Path}},
					{"move_path", map[string]any{"source": h.Path, "destination": "x"}},
					{"delete_path", map[string]any{"path": h.Path, "recursive": true}},
				}
				for _, c := range calls {
					_, err := call(fsys, c.tool, c.args)
					if err == nil || workspace.Code(err) != h.Code {
						t.Errorf("%s(%q): got %v (code %q), want %s", c.tool, h.Path, err, workspace.Code(err), h.Code)
					}
					if d := tool(c.tool).Preview; d != nil {
						if _, err := d(tools.Env{FS: fsys}, argsJSON(c.args)); err == nil || workspace.Code(err) != h.Code {
							t.Errorf("preview %s(%q): got %v, want %s", c.tool, h.Path, err, h.Code)
						}
					}
				}
			}
			if get(t, fsys, "inside.txt") != "inside\n" {
				t.Fatal("inside.txt changed")
			}
			if dir != "" {
				if after := workspacetest.ListOS(t, filepath.Dir(dir)); strings.Join(after, "\n") != strings.Join(before, "\n") {
					t.Fatalf("something appeared next to the workspace:\nbefore %v\nafter  %v", before, after)
				}
			}
		})
	}
}

func TestSymlinkEscapes(t *testing.T) {
	for _, kind := range []string{"folder", "overlay"} {
		t.Run(kind, func(t *testing.T) {
			dir, outside := workspacetest.SymlinkFixture(t)
			open := workspace.OpenFolder
			if kind == "overlay" {
				open = workspace.OpenOverlay
			}
			ws, err := open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			fsys := ws.FS()
			beforeOut := workspacetest.SnapshotOS(t, outside)

			escaping := []string{"out/secret.txt", "outrel/secret.txt", "secret", "etc/passwd", "sub/up", "insideabs"}
			for _, p := range escaping {
				for _, c := range []struct {
					tool string
					args map[string]any
				}{
					{"read_file", map[string]any{"path": p}},
					{"write_file", map[string]any{"path": p, "content": "pwned"}},
					{"edit_file", map[string]any{"path": p, "old_text": "TOP", "new_text": "PWN"}},
					{"search_files", map[string]any{"pattern": "SECRET", "path": p}},
					{"move_path", map[string]any{"source": p, "destination": "stolen.txt"}},
					{"delete_path", map[string]any{"path": p}},
				} {
					_, err := call(fsys, c.tool, c.args)
					if workspace.Code(err) != workspace.CodePathOutside {
						t.Errorf("%s %s: got %v (code %q), want path_outside", c.tool, p, err, workspace.Code(err))
					}
				}
			}
			for _, p := range []string{"out", "outrel", "etc"} {
				for _, c := range []struct {
					tool string
					args map[string]any
				}{
					{"list_directory", map[string]any{"path": p}},
					{"search_files", map[string]any{"pattern": ".", "path": p}},
					{"find_files", map[string]any{"pattern": "*", "path": p}},
					{"write_file", map[string]any{"path": p + "/new.txt", "content": "x"}},
					{"make_directory", map[string]any{"path": p + "/newdir"}},
					{"move_path", map[string]any{"source": "sub/real.txt", "destination": p + "/moved.txt"}},
					{"delete_path", map[string]any{"path": p, "recursive": true}},
				} {
					_, err := call(fsys, c.tool, c.args)
					if workspace.Code(err) != workspace.CodePathOutside {
						t.Errorf("%s %s: got %v (code %q), want path_outside", c.tool, p, err, workspace.Code(err))
					}
				}
			}

			// A whole-workspace search or find never goes through the links.
			out := mustCall(t, fsys, "search_files", map[string]any{"pattern": "SECRET|root:"})
			lacks(t, out, "TOP SECRET", "passwd:")
			out = mustCall(t, fsys, "find_files", map[string]any{"pattern": "**/secret*"})
			lacks(t, out, "out/secret.txt", "outrel/secret.txt")
			// Listing shows the links as links, and nothing behind them.
			out = mustCall(t, fsys, "list_directory", map[string]any{"recursive": true})
			contains(t, out, "out@  (symbolic link)", "secret@  (symbolic link)", "sub/real.txt")
			lacks(t, out, "secret.txt", "passwd")

			// A relative link that stays inside is followed.
			if got := mustCall(t, fsys, "read_file", map[string]any{"path": "inside/real.txt"}); got != "real inside\n" {
				t.Fatalf("inside link: %q", got)
			}
			mustCall(t, fsys, "write_file", map[string]any{"path": "inside/new.txt", "content": "via link\n"})
			if got := get(t, fsys, "sub/new.txt"); got != "via link\n" {
				t.Fatalf("write through an inside link: %q", got)
			}

			if kind == "overlay" {
				if err := ws.Apply(); err != nil {
					t.Fatal(err)
				}
				if s, _ := workspacetest.ReadDisk(t, dir, "sub/new.txt"); s != "via link\n" {
					t.Fatal("apply through inside link")
				}
			}
			if after := workspacetest.SnapshotOS(t, outside); after != beforeOut {
				t.Fatalf("the outside folder changed:\n%s\n---\n%s", beforeOut, after)
			}
			if _, err := os.Lstat(filepath.Join(dir, "secret")); err != nil {
				t.Fatal("the escaping link itself must not be deleted or moved")
			}
		})
	}
}
