package workspace

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/afero"
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
				before = listOS(t, filepath.Dir(dir))
			}
			for _, h := range hostilePaths {
				if !utf8.ValidString(h.path) {
					continue // JSON cannot carry it: encoding/json turns it into U+FFFD (CleanPath is tested directly)
				}
				calls := []struct {
					tool string
					args map[string]any
				}{
					{"list_directory", map[string]any{"path": h.path}},
					{"read_file", map[string]any{"path": h.path}},
					{"write_file", map[string]any{"path": h.path, "content": "pwned"}},
					{"edit_file", map[string]any{"path": h.path, "old_text": "a", "new_text": "b"}},
					{"search_files", map[string]any{"pattern": "x", "path": h.path}},
					{"find_files", map[string]any{"pattern": "*", "path": h.path}},
					{"make_directory", map[string]any{"path": h.path}},
					{"move_path", map[string]any{"source": "inside.txt", "destination": h.path}},
					{"move_path", map[string]any{"source": h.path, "destination": "x"}},
					{"delete_path", map[string]any{"path": h.path, "recursive": true}},
				}
				for _, c := range calls {
					_, err := call(fsys, c.tool, c.args)
					if err == nil || Code(err) != h.code {
						t.Errorf("%s(%q): got %v (code %q), want %s", c.tool, h.path, err, Code(err), h.code)
					}
					if d := tool(c.tool).Preview; d != nil {
						if _, err := d(fsys, argsJSON(c.args)); err == nil || Code(err) != h.code {
							t.Errorf("preview %s(%q): got %v, want %s", c.tool, h.path, err, h.code)
						}
					}
				}
			}
			if get(t, fsys, "inside.txt") != "inside\n" {
				t.Fatal("inside.txt changed")
			}
			if dir != "" {
				if after := listOS(t, filepath.Dir(dir)); strings.Join(after, "\n") != strings.Join(before, "\n") {
					t.Fatalf("something appeared next to the workspace:\nbefore %v\nafter  %v", before, after)
				}
			}
		})
	}
}

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
	if got := listOS(t, parent); len(got) != 1 || got[0] != "ws" {
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

// symlinkFixture builds ws/ with links pointing out of it, and a sibling
// folder "outside" holding a secret.
func symlinkFixture(t *testing.T) (ws, outside string) {
	t.Helper()
	parent := t.TempDir()
	ws = filepath.Join(parent, "ws")
	outside = filepath.Join(parent, "outside")
	for _, d := range []string{ws, outside, filepath.Join(ws, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeDisk(t, outside, "secret.txt", "TOP SECRET token\n")
	writeDisk(t, ws, "sub/real.txt", "real inside\n")
	links := map[string]string{
		"out":       outside,                              // absolute, to a sibling folder
		"outrel":    "../outside",                         // relative, leaving
		"secret":    filepath.Join(outside, "secret.txt"), // a file outside
		"etc":       "/etc",                               // a system folder
		"sub/up":    "../../outside/secret.txt",           // nested, leaving
		"inside":    "sub",                                // relative, staying inside: followed
		"insideabs": filepath.Join(ws, "sub", "real.txt"), // absolute, even if inside: refused
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, filepath.FromSlash(name))); err != nil {
			t.Skipf("symbolic links unavailable: %v", err)
		}
	}
	return ws, outside
}

func TestSymlinkEscapes(t *testing.T) {
	for _, kind := range []string{"folder", "overlay"} {
		t.Run(kind, func(t *testing.T) {
			dir, outside := symlinkFixture(t)
			open := OpenFolder
			if kind == "overlay" {
				open = OpenOverlay
			}
			ws, err := open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			fsys := ws.FS()
			beforeOut := snapshotOS(t, outside)

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
					if Code(err) != CodePathOutside {
						t.Errorf("%s %s: got %v (code %q), want path_outside", c.tool, p, err, Code(err))
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
					if Code(err) != CodePathOutside {
						t.Errorf("%s %s: got %v (code %q), want path_outside", c.tool, p, err, Code(err))
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
				if s, _ := readDisk(t, dir, "sub/new.txt"); s != "via link\n" {
					t.Fatal("apply through inside link")
				}
			}
			if after := snapshotOS(t, outside); after != beforeOut {
				t.Fatalf("the outside folder changed:\n%s\n---\n%s", beforeOut, after)
			}
			if _, err := os.Lstat(filepath.Join(dir, "secret")); err != nil {
				t.Fatal("the escaping link itself must not be deleted or moved")
			}
		})
	}
}

func listOS(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// snapshotOS describes a folder tree (names and contents) for comparison.
func snapshotOS(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + " " + fi.Mode().String())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			b.WriteString(" " + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Moving a folder that holds a link leading out fails as a whole in an
// overlay: nothing is half moved.
func TestOverlayMoveFolderWithEscapingLink(t *testing.T) {
	dir, _ := symlinkFixture(t)
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
