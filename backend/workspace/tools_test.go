package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/spf13/afero"
)

func TestToolsCatalogue(t *testing.T) {
	want := []string{"list_directory", "read_file", "write_file", "edit_file", "search_files",
		"find_files", "make_directory", "move_path", "delete_path"}
	defs := Tools()
	if len(defs) != len(want) {
		t.Fatalf("got %d tools", len(defs))
	}
	writers := map[string]bool{"write_file": true, "edit_file": true, "move_path": true, "delete_path": true, "make_directory": true}
	for i, d := range defs {
		if d.Name != want[i] {
			t.Errorf("tool %d is %s, want %s", i, d.Name, want[i])
		}
		if len(d.Description) < 150 {
			t.Errorf("%s: description too thin for a model: %q", d.Name, d.Description)
		}
		if (d.Preview != nil) != writers[d.Name] {
			t.Errorf("%s: preview presence wrong", d.Name)
		}
		// The schema compiles as JSON Schema and describes every property.
		c := jsonschema.NewCompiler()
		var doc any
		if err := json.Unmarshal(d.Parameters, &doc); err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource(d.Name+".json", doc); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Compile(d.Name + ".json"); err != nil {
			t.Errorf("%s: schema does not compile: %v", d.Name, err)
		}
		props := doc.(map[string]any)["properties"].(map[string]any)
		for k, v := range props {
			if desc, _ := v.(map[string]any)["description"].(string); desc == "" {
				t.Errorf("%s.%s has no description", d.Name, k)
			}
		}
	}
}

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
		wantCode(t, err, CodeNotDirectory)
		_, err = call(fsys, "list_directory", map[string]any{"path": "nope"})
		wantCode(t, err, CodeNotFound)

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
		wantCode(t, err, CodeInvalidArgs)
		contains(t, err.Error(), "past the end", "3 lines")

		put(t, fsys, "empty.txt", "")
		out = mustCall(t, fsys, "read_file", map[string]any{"path": "empty.txt"})
		if out != "[empty.txt is empty]" {
			t.Fatalf("got %q", out)
		}
		_, err = call(fsys, "read_file", map[string]any{"path": "missing.txt"})
		wantCode(t, err, CodeNotFound)
		if err := fsys.Mkdir("/dir", 0o755); err != nil {
			t.Fatal(err)
		}
		_, err = call(fsys, "read_file", map[string]any{"path": "dir"})
		wantCode(t, err, CodeIsDirectory)
		_, err = call(fsys, "read_file", map[string]any{})
		wantCode(t, err, CodeInvalidArgs)

		put(t, fsys, "img.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
		_, err = call(fsys, "read_file", map[string]any{"path": "img.png"})
		wantCode(t, err, CodeBinary)
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

func TestIsBinary(t *testing.T) {
	cases := []struct {
		data string
		want bool
	}{
		{"", false},
		{"plain text\n", false},
		{"héllo wörld ✓ 漢字\n", false},
		{"a\x00b", true},
		{"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", true},
		{strings.Repeat("é", BinarySniffBytes), false}, // a rune cut by the sample's end is not "invalid"
		{"mostly text with one bad byte \xff in it, which is fine", false},
	}
	for _, c := range cases {
		if got := IsBinary([]byte(c.data)); got != c.want {
			t.Errorf("IsBinary(%q) = %v", c.data[:min(len(c.data), 30)], got)
		}
	}
}

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
		wantCode(t, err, CodeIsDirectory)
		_, err = call(fsys, "write_file", map[string]any{"path": "docs/plan.md/x", "content": "x"})
		wantCode(t, err, CodeNotDirectory)
		contains(t, err.Error(), "docs/plan.md is a file, so docs/plan.md/x cannot be created inside it")
		_, err = call(fsys, "write_file", map[string]any{"path": "x.txt"})
		wantCode(t, err, CodeInvalidArgs)
		_, err = call(fsys, "write_file", map[string]any{"path": "big.txt", "content": strings.Repeat("x", MaxWriteBytes+1)})
		wantCode(t, err, CodeTooLarge)
		// An empty content is a valid (empty) file.
		mustCall(t, fsys, "write_file", map[string]any{"path": "empty", "content": ""})
		if get(t, fsys, "empty") != "" {
			t.Fatal("empty")
		}
	})
}

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
		wantCode(t, err, CodeInvalidArgs)
		_, err = call(fsys, "edit_file", map[string]any{"path": "main.go", "old_text": "x", "new_text": "x"})
		wantCode(t, err, CodeInvalidArgs)
		_, err = call(fsys, "edit_file", map[string]any{"path": "nope.go", "old_text": "x", "new_text": "y"})
		wantCode(t, err, CodeNotFound)
		put(t, fsys, "bin.dat", "ab\x00cd")
		_, err = call(fsys, "edit_file", map[string]any{"path": "bin.dat", "old_text": "ab", "new_text": "x"})
		wantCode(t, err, CodeBinary)
	})
}

func TestSearchFiles(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		put(t, fsys, "a.go", "package a\n// TODO: one\nfunc A() {}\n")
		put(t, fsys, "sub/b.go", "package sub\nfunc B() {} // todo two\n")
		put(t, fsys, "sub/c.md", "TODO three\r\nnothing\r\n")
		put(t, fsys, "bin.dat", "TODO\x00binary")
		put(t, fsys, "node_modules/x/i.js", "TODO hidden\n")
		put(t, fsys, "long.txt", "TODO "+strings.Repeat("y", 500)+"\n")

		out := mustCall(t, fsys, "search_files", map[string]any{"pattern": "TODO"})
		contains(t, out, "a.go:2:// TODO: one\n", "sub/c.md:1:TODO three\n", "long.txt:1:TODO yyy",
			"[3 matches in 3 files; searched 4 files; skipped 1 binary file]")
		lacks(t, out, "bin.dat", "node_modules", "todo two", "\r")
		if !strings.Contains(out, strings.Repeat("y", MaxSearchLineRunes-5)+"…\n") || strings.Contains(out, strings.Repeat("y", 300)) {
			t.Fatalf("long lines are cut at %d runes:\n%s", MaxSearchLineRunes, out)
		}
		// Sorted by path.
		if strings.Index(out, "a.go:") > strings.Index(out, "long.txt:") || strings.Index(out, "long.txt:") > strings.Index(out, "sub/c.md:") {
			t.Fatalf("not sorted:\n%s", out)
		}

		out = mustCall(t, fsys, "search_files", map[string]any{"pattern": "todo", "ignore_case": true, "glob": "*.go"})
		contains(t, out, "a.go:2:", "sub/b.go:2:func B() {} // todo two", "[2 matches in 2 files")
		lacks(t, out, "c.md")

		out = mustCall(t, fsys, "search_files", map[string]any{"pattern": `^func \w+\(`, "path": "sub"})
		contains(t, out, "sub/b.go:2:func B()", "[1 match in 1 file; searched 2 files under sub/]")
		lacks(t, out, "a.go")

		out = mustCall(t, fsys, "search_files", map[string]any{"pattern": "TODO", "glob": "sub/**/*.md"})
		contains(t, out, "sub/c.md:1:")
		lacks(t, out, "a.go")

		out = mustCall(t, fsys, "search_files", map[string]any{"pattern": "TODO", "path": "node_modules"})
		contains(t, out, "node_modules/x/i.js:1:TODO hidden")

		out = mustCall(t, fsys, "search_files", map[string]any{"pattern": "A", "path": "a.go"})
		contains(t, out, "a.go:3:func A() {}")

		out = mustCall(t, fsys, "search_files", map[string]any{"pattern": "absent"})
		contains(t, out, `No matches for "absent" in 4 files; skipped 1 binary file.`)

		_, err := call(fsys, "search_files", map[string]any{"pattern": "foo("})
		wantCode(t, err, CodeBadPattern)
		contains(t, err.Error(), "not a valid regular expression", "backslash")
		_, err = call(fsys, "search_files", map[string]any{"pattern": "x", "glob": "[a-"})
		wantCode(t, err, CodeBadPattern)
		_, err = call(fsys, "search_files", map[string]any{"pattern": "x", "path": "bin.dat"})
		wantCode(t, err, CodeBinary)
	})
}

func TestSearchFilesCap(t *testing.T) {
	fsys := afero.NewMemMapFs()
	put(t, fsys, "many.txt", strings.Repeat("hit\n", MaxSearchMatches+10))
	put(t, fsys, "z.txt", "hit\n")
	out := mustCall(t, fsys, "search_files", map[string]any{"pattern": "hit"})
	if n := strings.Count(out, "many.txt:"); n != MaxSearchMatches {
		t.Fatalf("got %d matches", n)
	}
	contains(t, out, "[truncated: showing the first 200 matches; narrow the pattern")
	lacks(t, out, "z.txt")
}

// Anchors and (?m) pre-filtering must not lose per-line matches.
func TestSearchFilesAnchors(t *testing.T) {
	fsys := afero.NewMemMapFs()
	put(t, fsys, "f.txt", "alpha\nbeta end\ngamma\n")
	for pat, want := range map[string]string{
		"^beta":     "f.txt:2:",
		"end$":      "f.txt:2:",
		`\Agamma`:   "f.txt:3:",
		`(?i)GAMMA`: "f.txt:3:",
		`^$`:        "No matches",
	} {
		out := mustCall(t, fsys, "search_files", map[string]any{"pattern": pat})
		contains(t, out, want)
	}
}

func TestFindFiles(t *testing.T) {
	eachBackend(t, func(t *testing.T, fsys afero.Fs) {
		put(t, fsys, "README.md", "")
		put(t, fsys, "docs/guide.md", "")
		put(t, fsys, "docs/api/ref.md", "")
		put(t, fsys, "src/main.go", "")
		put(t, fsys, "src/main_test.go", "")
		put(t, fsys, ".git/x.md", "")

		out := mustCall(t, fsys, "find_files", map[string]any{"pattern": "*.md"})
		if out != "README.md\ndocs/api/ref.md\ndocs/guide.md\n[3 matches]" {
			t.Fatalf("got %q", out)
		}
		out = mustCall(t, fsys, "find_files", map[string]any{"pattern": "docs/*.md"})
		if out != "docs/guide.md\n[1 match]" {
			t.Fatalf("got %q", out)
		}
		out = mustCall(t, fsys, "find_files", map[string]any{"pattern": "**/*_test.go"})
		if out != "src/main_test.go\n[1 match]" {
			t.Fatalf("got %q", out)
		}
		out = mustCall(t, fsys, "find_files", map[string]any{"pattern": "*.{go,md}", "path": "src"})
		contains(t, out, "src/main.go\nsrc/main_test.go\n[2 matches]")
		out = mustCall(t, fsys, "find_files", map[string]any{"pattern": "api"})
		if out != "docs/api/\n[1 match]" {
			t.Fatalf("got %q", out)
		}
		out = mustCall(t, fsys, "find_files", map[string]any{"pattern": ".git/*.md"})
		contains(t, out, ".git/x.md")
		out = mustCall(t, fsys, "find_files", map[string]any{"pattern": "*.rs"})
		if out != `Nothing matches "*.rs".` {
			t.Fatalf("got %q", out)
		}
		_, err := call(fsys, "find_files", map[string]any{"pattern": "../*"})
		wantCode(t, err, CodeBadPattern)
		_, err = call(fsys, "find_files", map[string]any{"pattern": "/etc/*"})
		wantCode(t, err, CodeBadPattern)
		_, err = call(fsys, "find_files", map[string]any{"pattern": "[x"})
		wantCode(t, err, CodeBadPattern)
	})
}

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
		wantCode(t, err, CodeExists)
		_, err = call(fsys, "make_directory", map[string]any{"path": "f/g"})
		wantCode(t, err, CodeNotDirectory)
	})
}

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
		wantCode(t, err, CodeExists)
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
		wantCode(t, err, CodeInvalidArgs)
		_, err = call(fsys, "move_path", map[string]any{"source": "missing", "destination": "x"})
		wantCode(t, err, CodeNotFound)
		_, err = call(fsys, "move_path", map[string]any{"source": ".", "destination": "x"})
		wantCode(t, err, CodeInvalidArgs)
		put(t, fsys, "f.txt", "f")
		_, err = call(fsys, "move_path", map[string]any{"source": "new", "destination": "f.txt", "overwrite": true})
		wantCode(t, err, CodeExists)
	})
}

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
		wantCode(t, err, CodeNotEmpty)
		contains(t, err.Error(), "recursive=true")
		_, err = preview(fsys, "delete_path", map[string]any{"path": "dir"})
		wantCode(t, err, CodeNotEmpty)

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
		wantCode(t, err, CodeInvalidArgs)
		_, err = call(fsys, "delete_path", map[string]any{"path": "dir"})
		wantCode(t, err, CodeNotFound)
		if err := fsys.Mkdir("/e", 0o755); err != nil {
			t.Fatal(err)
		}
		if out := mustCall(t, fsys, "delete_path", map[string]any{"path": "e"}); out != "Deleted the empty folder e/." {
			t.Fatalf("got %q", out)
		}
	})
}

func TestArgumentLeniency(t *testing.T) {
	fsys := afero.NewMemMapFs()
	put(t, fsys, "a.txt", "1\n2\n3\n")
	// Numbers and booleans written as strings are accepted.
	out := mustCall(t, fsys, "read_file", `{"path":"a.txt","offset":"2","limit":1.0}`)
	contains(t, out, "2\n[truncated: showing lines 2-2")
	mustCall(t, fsys, "list_directory", `{"recursive":"true"}`)
	_, err := call(fsys, "read_file", `{"path":"a.txt","offset":"two"}`)
	wantCode(t, err, CodeInvalidArgs)
	_, err = call(fsys, "read_file", `["a.txt"]`)
	wantCode(t, err, CodeInvalidArgs)
	_, err = call(fsys, "read_file", `{"path":5}`)
	wantCode(t, err, CodeInvalidArgs)
	contains(t, err.Error(), `"path" must be a string`)
}

func TestToolsHonourCancellation(t *testing.T) {
	fsys := afero.NewMemMapFs()
	for i := range 50 {
		put(t, fsys, fmt.Sprintf("d%d/f.txt", i), "x\n")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tool("search_files").Run(ctx, fsys, argsJSON(map[string]any{"pattern": "x"}))
	if err == nil {
		t.Fatal("a cancelled search must stop")
	}
}
