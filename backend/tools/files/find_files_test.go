package files

import (
	"testing"

	"github.com/spf13/afero"
)

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
