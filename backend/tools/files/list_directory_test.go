package files

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

func TestListDirectory(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		put(t, fsys, "README.md", "hello\n")
		put(t, fsys, "src/main.go", "package main\n")
		put(t, fsys, "src/util/str.go", "package util\n")
		put(t, fsys, ".git/HEAD", "ref\n")

		out := mustCall(t, fsys, "list_directory", map[string]any{})
		contains(t, out, ".git/\n", "README.md  6 bytes\n", "src/\n", "[1 file, 2 folders]")
		lacks(t, out, "src/main.go", "(not expanded)")

		out = mustCall(t, fsys, "list_directory", map[string]any{"recursive": true})
		contains(t, out, "src/main.go  13 bytes", "src/util/str.go", ".git/  (not expanded)")
		lacks(t, out, ".git/HEAD")
		if strings.Index(out, "src/\n") > strings.Index(out, "src/main.go") {
			t.Fatalf("folders come before their contents:\n%s", out)
		}

		out = mustCall(t, fsys, "list_directory", map[string]any{"path": "src", "depth": 1})
		contains(t, out, "src/main.go", "src/util/\n")
		lacks(t, out, "str.go", "README")

		out = mustCall(t, fsys, "list_directory", map[string]any{"path": ".git"})
		contains(t, out, ".git/HEAD")

		_, err := call(fsys, "list_directory", map[string]any{"path": "README.md"})
		wantCode(t, err, workspace.CodeNotDirectory)
		_, err = call(fsys, "list_directory", map[string]any{"path": "nope"})
		wantCode(t, err, workspace.CodeNotFound)

		if err := fsys.Mkdir("/empty", 0o755); err != nil {
			t.Fatal(err)
		}
		out = mustCall(t, fsys, "list_directory", map[string]any{"path": "empty/"})
		if out != "empty/ is empty." {
			t.Fatalf("got %q", out)
		}
	})
}

func TestListDirectoryCap(t *testing.T) {
	fsys := afero.NewMemMapFs()
	for i := range MaxListEntries + 50 {
		put(t, fsys, fmt.Sprintf("d/f%04d.txt", i), "x")
	}
	out := mustCall(t, fsys, "list_directory", map[string]any{"path": "d"})
	if n := strings.Count(out, "\n"); n != MaxListEntries {
		t.Fatalf("got %d lines", n)
	}
	contains(t, out, "[truncated: showing 1,000 of 1,050 entries;")
}
