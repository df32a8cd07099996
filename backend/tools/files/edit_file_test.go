package files

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

func TestEditFile(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		put(t, fsys, "main.go", "package main\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n")

		// Zero matches: clear error, nothing changed.
		_, err := call(fsys, "edit_file", map[string]any{"path": "main.go", "old_text": "return 2", "new_text": "return 3"})
		wantCode(t, err, CodeEditNoMatch)
		contains(t, err.Error(), "old_text was not found in main.go", "read_file")
		// Whitespace-only difference: the error points at the line.
		_, err = call(fsys, "edit_file", map[string]any{"path": "main.go", "old_text": "func a() {\n    return 1", "new_text": "x"})
		wantCode(t, err, CodeEditNoMatch)
		contains(t, err.Error(), "differs only in whitespace starts at line 3")

		// Several matches: clear error with the lines.
		_, err = call(fsys, "edit_file", map[string]any{"path": "main.go", "old_text": "return 1", "new_text": "return 2"})
		wantCode(t, err, CodeEditAmbiguous)
		contains(t, err.Error(), "appears 2 times in main.go (at lines 4, 8)", "replace_all=true")
		if !strings.Contains(get(t, fsys, "main.go"), "return 1") {
			t.Fatal("a failed edit must change nothing")
		}

		// A unique match, previewed then run.
		args := map[string]any{"path": "main.go", "old_text": "func b() {\n\treturn 1", "new_text": "func b() {\n\treturn 2"}
		pv, err := preview(fsys, "edit_file", args)
		if err != nil {
			t.Fatal(err)
		}
		contains(t, pv.Summary, "Edit main.go: replace 1 occurrence (+1 −1 lines)")
		contains(t, pv.Diff, "--- a/main.go", "-\treturn 1\n", "+\treturn 2\n", "@@ -5,5 +5,5 @@")
		out := mustCall(t, fsys, "edit_file", args)
		if out != "Edited main.go: replaced 1 occurrence at line 7; the file now has 9 lines." {
			t.Fatalf("got %q", out)
		}
		if !strings.Contains(get(t, fsys, "main.go"), "func b() {\n\treturn 2\n}") {
			t.Fatal("edit not applied")
		}

		// replace_all.
		out = mustCall(t, fsys, "edit_file", map[string]any{"path": "main.go", "old_text": "func", "new_text": "fn", "replace_all": true})
		contains(t, out, "replaced 2 occurrences (the first at line 3)")
		if strings.Contains(get(t, fsys, "main.go"), "func") {
			t.Fatal("replace_all")
		}

		// CRLF files accept "\n" in old_text and keep their line endings.
		put(t, fsys, "win.txt", "one\r\ntwo\r\nthree\r\n")
		mustCall(t, fsys, "edit_file", map[string]any{"path": "win.txt", "old_text": "one\ntwo", "new_text": "1\n2"})
		if got := get(t, fsys, "win.txt"); got != "1\r\n2\r\nthree\r\n" {
			t.Fatalf("got %q", got)
		}

		_, err = call(fsys, "edit_file", map[string]any{"path": "main.go", "old_text": "", "new_text": "x"})
		wantCode(t, err, workspace.CodeInvalidArgs)
		_, err = call(fsys, "edit_file", map[string]any{"path": "main.go", "old_text": "x", "new_text": "x"})
		wantCode(t, err, workspace.CodeInvalidArgs)
		_, err = call(fsys, "edit_file", map[string]any{"path": "nope.go", "old_text": "x", "new_text": "y"})
		wantCode(t, err, workspace.CodeNotFound)
		put(t, fsys, "bin.dat", "ab\x00cd")
		_, err = call(fsys, "edit_file", map[string]any{"path": "bin.dat", "old_text": "ab", "new_text": "x"})
		wantCode(t, err, workspace.CodeBinary)
	})
}
