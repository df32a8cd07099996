package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunnableFilesAreNotOpened(t *testing.T) {
	for _, c := range []struct {
		goos, name string
		mode       os.FileMode
		refused    bool
	}{
		{"linux", "notes.md", 0o644, false},
		{"linux", "run.sh", 0o755, true}, // executable bit
		{"linux", "app.desktop", 0o644, true},
		{"linux", "Tool.AppImage", 0o644, true},
		{"windows", "setup.EXE", 0o644, true},
		{"windows", "x.js", 0o644, true}, // Windows Script Host runs it
		{"windows", "run.sh", 0o755, false},
		{"linux", "x.js", 0o644, false},
		{"darwin", "Launch.command", 0o644, true},
		{"freebsd", "a.desktop", 0o644, true},
	} {
		if got := runnable(c.goos, c.name, c.mode) != ""; got != c.refused {
			t.Errorf("%s %s %v: refused %v, want %v", c.goos, c.name, c.mode, got, c.refused)
		}
	}
}

func TestOpenFileRefusesBeforeStartingAnything(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "evil.desktop")
	if err := os.WriteFile(prog, []byte("[Desktop Entry]\nExec=rm -rf ~\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", "") // were an opener started, it would fail differently
	if err := OpenFile(prog); err == nil || !strings.Contains(err.Error(), "is not opened") {
		t.Fatalf("a .desktop file: %v", err)
	}
	if err := OpenFile(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a folder: %v", err)
	}
	if err := OpenFile(filepath.Join(dir, "missing.txt")); err == nil {
		t.Fatal("a missing file opened")
	}
	plain := filepath.Join(dir, "notes.md")
	_ = os.WriteFile(plain, []byte("x"), 0o644)
	if err := OpenFile(plain); err == nil || !strings.Contains(err.Error(), "no opener") {
		t.Fatalf("without an opener on PATH: %v", err)
	}
}
