package files

import (
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

func TestMovePath(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		put(t, fsys, "a.txt", "A\n")
		put(t, fsys, "b.txt", "B\n")
		put(t, fsys, "dir/x.txt", "X\n")
		put(t, fsys, "dir/sub/y.txt", "Y\n")

		// Rename.
		pv, err := preview(fsys, "move_path", map[string]any{"source": "a.txt", "destination": "c.txt"})
		if err != nil || pv.Summary != "Move a.txt → c.txt" || pv.Diff != "" {
			t.Fatalf("%+v %v", pv, err)
		}
		if out := mustCall(t, fsys, "move_path", map[string]any{"source": "a.txt", "destination": "c.txt"}); out != "Moved a.txt → c.txt." {
			t.Fatalf("got %q", out)
		}
		if get(t, fsys, "c.txt") != "A\n" {
			t.Fatal("content")
		}
		if _, err := fsys.Stat("/a.txt"); err == nil {
			t.Fatal("source still there")
		}

		// Overwrite needs consent, and the card says what is lost.
		_, err = call(fsys, "move_path", map[string]any{"source": "c.txt", "destination": "b.txt"})
		wantCode(t, err, workspace.CodeExists)
		contains(t, err.Error(), "overwrite=true")
		pv, err = preview(fsys, "move_path", map[string]any{"source": "c.txt", "destination": "b.txt", "overwrite": true})
		if err != nil {
			t.Fatal(err)
		}
		contains(t, pv.Summary, "Move c.txt → b.txt; this REPLACES the existing b.txt")
		contains(t, pv.Diff, "-B\n", "+A\n")
		contains(t, mustCall(t, fsys, "move_path", map[string]any{"source": "c.txt", "destination": "b.txt", "overwrite": true}), "replacing")
		if get(t, fsys, "b.txt") != "A\n" {
			t.Fatal("overwrite")
		}

		// Into an existing folder; missing parents are created.
		mustCall(t, fsys, "move_path", map[string]any{"source": "b.txt", "destination": "dir"})
		if get(t, fsys, "dir/b.txt") != "A\n" {
			t.Fatal("move into folder")
		}
		mustCall(t, fsys, "move_path", map[string]any{"source": "dir", "destination": "new/place/dir2"})
		if get(t, fsys, "new/place/dir2/sub/y.txt") != "Y\n" || get(t, fsys, "new/place/dir2/b.txt") != "A\n" {
			t.Fatal("folder move")
		}
		if _, err := fsys.Stat("/dir"); err == nil {
			t.Fatal("old folder still there")
		}

		_, err = call(fsys, "move_path", map[string]any{"source": "new", "destination": "new/inner"})
		wantCode(t, err, workspace.CodeInvalidArgs)
		_, err = call(fsys, "move_path", map[string]any{"source": "missing", "destination": "x"})
		wantCode(t, err, workspace.CodeNotFound)
		_, err = call(fsys, "move_path", map[string]any{"source": ".", "destination": "x"})
		wantCode(t, err, workspace.CodeInvalidArgs)
		put(t, fsys, "f.txt", "f")
		_, err = call(fsys, "move_path", map[string]any{"source": "new", "destination": "f.txt", "overwrite": true})
		wantCode(t, err, workspace.CodeExists)
	})
}
