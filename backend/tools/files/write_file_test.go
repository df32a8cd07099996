package files

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

func TestWriteFile(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		pv, err := preview(fsys, "write_file", map[string]any{"path": "docs/plan.md", "content": "a\nb\n"})
		if err != nil {
			t.Fatal(err)
		}
		contains(t, pv.Summary, "Create docs/plan.md (2 lines, 4 bytes)")
		contains(t, pv.Diff, "--- /dev/null", "+++ b/docs/plan.md", "+a\n", "+b\n")
		if _, err := fsys.Stat("/docs"); err == nil {
			t.Fatal("the preview must not write")
		}

		out := mustCall(t, fsys, "write_file", map[string]any{"path": "docs/plan.md", "content": "a\nb\n"})
		if out != "Created docs/plan.md (2 lines, 4 bytes)." {
			t.Fatalf("got %q", out)
		}
		if get(t, fsys, "docs/plan.md") != "a\nb\n" {
			t.Fatal("content")
		}

		pv, err = preview(fsys, "write_file", map[string]any{"path": "docs/plan.md", "content": "a\nc\n"})
		if err != nil {
			t.Fatal(err)
		}
		contains(t, pv.Summary, "Overwrite docs/plan.md: +1 −1 lines")
		contains(t, pv.Diff, "--- a/docs/plan.md", "+++ b/docs/plan.md", "-b\n", "+c\n", " a\n")
		out = mustCall(t, fsys, "write_file", map[string]any{"path": "docs/plan.md", "content": "a\nc\n"})
		contains(t, out, "Replaced the content of docs/plan.md (2 lines, 4 bytes; it had 2 lines).")
		if get(t, fsys, "docs/plan.md") != "a\nc\n" {
			t.Fatal("content")
		}

		_, err = call(fsys, "write_file", map[string]any{"path": "docs", "content": "x"})
		wantCode(t, err, workspace.CodeIsDirectory)
		_, err = call(fsys, "write_file", map[string]any{"path": "docs/plan.md/x", "content": "x"})
		wantCode(t, err, workspace.CodeNotDirectory)
		contains(t, err.Error(), "docs/plan.md is a file, so docs/plan.md/x cannot be created inside it")
		_, err = call(fsys, "write_file", map[string]any{"path": "x.txt"})
		wantCode(t, err, workspace.CodeInvalidArgs)
		_, err = call(fsys, "write_file", map[string]any{"path": "big.txt", "content": strings.Repeat("x", MaxWriteBytes+1)})
		wantCode(t, err, workspace.CodeTooLarge)
		// An empty content is a valid (empty) file.
		mustCall(t, fsys, "write_file", map[string]any{"path": "empty", "content": ""})
		if get(t, fsys, "empty") != "" {
			t.Fatal("empty")
		}
	})
}
