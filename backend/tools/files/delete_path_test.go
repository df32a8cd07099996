package files

import (
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

func TestDeletePath(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		put(t, fsys, "a.txt", "one\ntwo\n")
		put(t, fsys, "dir/x.txt", "X\n")
		put(t, fsys, "dir/sub/y.bin", "\x00\x01")

		pv, err := preview(fsys, "delete_path", map[string]any{"path": "a.txt"})
		if err != nil {
			t.Fatal(err)
		}
		contains(t, pv.Summary, "Delete a.txt (8 bytes)")
		contains(t, pv.Diff, "--- a/a.txt", "+++ /dev/null", "-one\n", "-two\n")
		if out := mustCall(t, fsys, "delete_path", map[string]any{"path": "a.txt"}); out != "Deleted a.txt." {
			t.Fatalf("got %q", out)
		}
		if _, err := fsys.Stat("/a.txt"); err == nil {
			t.Fatal("not deleted")
		}

		_, err = call(fsys, "delete_path", map[string]any{"path": "dir"})
		wantCode(t, err, workspace.CodeNotEmpty)
		contains(t, err.Error(), "recursive=true")
		_, err = preview(fsys, "delete_path", map[string]any{"path": "dir"})
		wantCode(t, err, workspace.CodeNotEmpty)

		pv, err = preview(fsys, "delete_path", map[string]any{"path": "dir", "recursive": true})
		if err != nil {
			t.Fatal(err)
		}
		contains(t, pv.Summary, "Delete folder dir/ and everything in it: 2 files, 1 folder")
		contains(t, pv.Diff, "Binary file a/dir/sub/y.bin (2 bytes) deleted", "--- a/dir/x.txt", "-X\n")
		out := mustCall(t, fsys, "delete_path", map[string]any{"path": "dir", "recursive": true})
		if out != "Deleted folder dir/ (2 files, 1 folder)." {
			t.Fatalf("got %q", out)
		}
		if _, err := fsys.Stat("/dir"); err == nil {
			t.Fatal("not deleted")
		}

		_, err = call(fsys, "delete_path", map[string]any{"path": "."})
		wantCode(t, err, workspace.CodeInvalidArgs)
		_, err = call(fsys, "delete_path", map[string]any{"path": "dir"})
		wantCode(t, err, workspace.CodeNotFound)
		if err := fsys.Mkdir("/e", 0o755); err != nil {
			t.Fatal(err)
		}
		if out := mustCall(t, fsys, "delete_path", map[string]any{"path": "e"}); out != "Deleted the empty folder e/." {
			t.Fatalf("got %q", out)
		}
	})
}
