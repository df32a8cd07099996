package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"
)

func TestRealPathStaysInsideTheFolder(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(os.WriteFile(filepath.Join(root, "src", "main.go"), []byte("package main"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("no"), 0o644))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "leak.txt")))
	must(os.Symlink(outside, filepath.Join(root, "out")))
	must(os.Symlink(filepath.Join(root, "src", "main.go"), filepath.Join(root, "inner.go")))

	got, err := RealPath(root, "src/main.go")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(filepath.Join(root, "src", "main.go"))
	if got != want {
		t.Errorf("RealPath = %s, want %s", got, want)
	}
	// A link that stays inside is followed to its target.
	if got, err := RealPath(root, "inner.go"); err != nil || got != want {
		t.Errorf("inner link: %s %v", got, err)
	}
	for rel, code := range map[string]string{
		"leak.txt":       CodePathOutside, // a link to a file outside
		"out/secret.txt": CodePathOutside, // through a linked folder
		"../secret.txt":  CodePathOutside,
		"/etc/passwd":    CodePathOutside,
		"src":            CodeIsDirectory,
		".":              CodeIsDirectory,
		"missing.txt":    CodeNotFound,
	} {
		if _, err := RealPath(root, rel); Code(err) != code {
			t.Errorf("%s: %v (code %q), want %s", rel, err, Code(err), code)
		}
	}
	if _, err := RealPath(filepath.Join(root, "gone"), "a.txt"); Code(err) != CodeNotFound {
		t.Errorf("a vanished folder: %v", err)
	}
}

func TestSaveCopyWritesTheFileAndReplacesWhole(t *testing.T) {
	fsys := afero.NewMemMapFs()
	_ = fsys.MkdirAll("/docs", 0o755)
	_ = afero.WriteFile(fsys, "/docs/report.md", []byte("# Report\nfrom scratch\n"), 0o644)
	dir := t.TempDir()
	dest := filepath.Join(dir, "report.md")
	if err := os.WriteFile(dest, []byte("an older, longer file that must be replaced whole"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SaveCopy(fsys, "docs/report.md", dest); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dest)
	if err != nil || string(b) != "# Report\nfrom scratch\n" {
		t.Fatalf("saved %q, %v", b, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	if err := SaveCopy(fsys, "docs", filepath.Join(dir, "x")); Code(err) != CodeIsDirectory {
		t.Errorf("a folder: %v", err)
	}
	if err := SaveCopy(fsys, "nope.md", filepath.Join(dir, "y")); Code(err) != CodeNotFound {
		t.Errorf("a missing file: %v", err)
	}
	if err := SaveCopy(fsys, "docs/report.md", filepath.Join(dir, "no-such-dir", "z")); err == nil {
		t.Error("saved into a folder that does not exist")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a failed save left files behind: %v", entries)
	}
}
