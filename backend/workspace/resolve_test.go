package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	os.MkdirAll(filepath.Join(dir, "secrets"), 0o755)
	if err := os.Symlink("../secrets", filepath.Join(dir, "docs", "x")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Symlink("../../elsewhere", filepath.Join(dir, "docs", "out"))
	os.Symlink("/etc", filepath.Join(dir, "docs", "abs"))
	os.Symlink("b", filepath.Join(dir, "a"))
	os.Symlink("a", filepath.Join(dir, "b"))
	os.Symlink("docs", filepath.Join(dir, "d"))
	for _, open := range []func(string) (*Workspace, error){OpenFolder, OpenOverlay} {
		w, err := open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		for in, want := range map[string]string{
			"docs/x/key":        "secrets/key",
			"docs/../secrets/k": "secrets/k",
			"./docs/new.md":     "docs/new.md",
			"d/x/key":           "secrets/key",
			"d":                 "docs",
			"":                  ".",
		} {
			if got, err := w.Resolve(in); err != nil || got != want {
				t.Errorf("%s: Resolve(%q) = %q, %v; want %q", w.Kind(), in, got, err, want)
			}
		}
		for _, bad := range []string{"docs/out/x", "docs/abs/passwd", "a/x", "../x", "/etc"} {
			if got, err := w.Resolve(bad); err == nil {
				t.Errorf("%s: Resolve(%q) = %q, want an error", w.Kind(), bad, got)
			}
		}
	}
	s := NewScratch()
	if got, err := s.Resolve("a/../b/./c"); err != nil || got != "b/c" {
		t.Errorf("scratch: %q %v", got, err)
	}
}
