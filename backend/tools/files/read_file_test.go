package files

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

func TestReadFile(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		put(t, fsys, "a.txt", "one\ntwo\nthree")
		out := mustCall(t, fsys, "read_file", map[string]any{"path": "a.txt"})
		if out != "one\ntwo\nthree" {
			t.Fatalf("whole file comes back verbatim, got %q", out)
		}
		out = mustCall(t, fsys, "read_file", map[string]any{"path": "./a.txt", "offset": 2, "limit": 1})
		if out != "two\n[truncated: showing lines 2-2 of 3; call read_file with offset=3 to continue]" {
			t.Fatalf("got %q", out)
		}
		out = mustCall(t, fsys, "read_file", `{"path":"a.txt","offset":"3"}`)
		if out != "three\n[showing lines 3-3 of 3; end of file]" {
			t.Fatalf("got %q", out)
		}
		_, err := call(fsys, "read_file", map[string]any{"path": "a.txt", "offset": 9})
		wantCode(t, err, workspace.CodeInvalidArgs)
		contains(t, err.Error(), "past the end", "3 lines")

		put(t, fsys, "empty.txt", "")
		out = mustCall(t, fsys, "read_file", map[string]any{"path": "empty.txt"})
		if out != "[empty.txt is empty]" {
			t.Fatalf("got %q", out)
		}
		_, err = call(fsys, "read_file", map[string]any{"path": "missing.txt"})
		wantCode(t, err, workspace.CodeNotFound)
		if err := fsys.Mkdir("/dir", 0o755); err != nil {
			t.Fatal(err)
		}
		_, err = call(fsys, "read_file", map[string]any{"path": "dir"})
		wantCode(t, err, workspace.CodeIsDirectory)
		_, err = call(fsys, "read_file", map[string]any{})
		wantCode(t, err, workspace.CodeInvalidArgs)

		put(t, fsys, "img.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
		_, err = call(fsys, "read_file", map[string]any{"path": "img.png"})
		wantCode(t, err, workspace.CodeBinary)
		contains(t, err.Error(), "img.png is a binary file")
	})
}

func TestReadFilePagingLargeFile(t *testing.T) {
	fsys := afero.NewMemMapFs()
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	put(t, fsys, "big.log", b.String())

	out := mustCall(t, fsys, "read_file", map[string]any{"path": "big.log"})
	if !strings.HasPrefix(out, "line 1\n") || !strings.Contains(out, "line 2000\n[truncated: showing lines 1-2,000 of 5,000; call read_file with offset=2001 to continue]") {
		t.Fatalf("bad first page: ...%s", out[len(out)-200:])
	}
	lacks(t, out, "line 2001\n")
	// Following the note pages through the file.
	out = mustCall(t, fsys, "read_file", map[string]any{"path": "big.log", "offset": 4001})
	if !strings.HasPrefix(out, "line 4001\n") || !strings.HasSuffix(out, "line 5000\n[showing lines 4,001-5,000 of 5,000; end of file]") {
		t.Fatalf("bad last page: %s", out[len(out)-100:])
	}
	// limit above the cap is clamped.
	out = mustCall(t, fsys, "read_file", map[string]any{"path": "big.log", "limit": 2000})
	if strings.Count(out, "\n") != 2000 {
		t.Fatal("limit")
	}

	// The byte cap: 1,000 lines of 1 KB stop before 256 KB.
	line := strings.Repeat("x", 1023) + "\n"
	put(t, fsys, "wide.txt", strings.Repeat(line, 1000))
	out = mustCall(t, fsys, "read_file", map[string]any{"path": "wide.txt"})
	if len(out) > MaxReadBytes+300 {
		t.Fatalf("read returned %d bytes", len(out))
	}
	contains(t, out, "[truncated at 256 KB: showing lines 1-256 of 1,000; call read_file with offset=257 to continue]")

	// One enormous line (minified file) is cut, with a way past it.
	put(t, fsys, "min.js", strings.Repeat("a", 1<<20)+"\nnext\n")
	out = mustCall(t, fsys, "read_file", map[string]any{"path": "min.js"})
	contains(t, out, "[truncated: line 1 is 1 MB long; showing only its first 256 KB; the file has 2 lines; call read_file with offset=2 to continue after it]")
	if len(out) > MaxReadBytes+300 {
		t.Fatalf("read returned %d bytes", len(out))
	}
	out = mustCall(t, fsys, "read_file", map[string]any{"path": "min.js", "offset": 2})
	if out != "next\n[showing lines 2-2 of 2; end of file]" {
		t.Fatalf("got %q", out)
	}
}
