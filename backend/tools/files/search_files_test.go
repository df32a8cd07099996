package files

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

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
		wantCode(t, err, workspace.CodeBinary)
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
