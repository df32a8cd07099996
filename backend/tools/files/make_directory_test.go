package files

import (
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

func TestMakeDirectory(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		pv, err := preview(fsys, "make_directory", map[string]any{"path": "a/b/c"})
		if err != nil || pv.Summary != "Create folder a/b/c/" {
			t.Fatalf("%+v %v", pv, err)
		}
		out := mustCall(t, fsys, "make_directory", map[string]any{"path": "a/b/c"})
		if out != "Created folder a/b/c/." {
			t.Fatalf("got %q", out)
		}
		if fi, err := fsys.Stat("/a/b/c"); err != nil || !fi.IsDir() {
			t.Fatal("not created")
		}
		out = mustCall(t, fsys, "make_directory", map[string]any{"path": "a/b"})
		if out != "a/b/ already exists." {
			t.Fatalf("got %q", out)
		}
		put(t, fsys, "f", "x")
		_, err = call(fsys, "make_directory", map[string]any{"path": "f"})
		wantCode(t, err, workspace.CodeExists)
		_, err = call(fsys, "make_directory", map[string]any{"path": "f/g"})
		wantCode(t, err, workspace.CodeNotDirectory)
	})
}
