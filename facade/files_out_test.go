package facade

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/desktop"
)

func TestSaveWorkspaceFileCopiesTheScratchFile(t *testing.T) {
	a := testApp(t)
	c, _ := a.CreateChat()
	w, err := a.workspace(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	f, err := w.FS().Create("/plan.md")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("step 1\n")
	_ = f.Close()
	dest := filepath.Join(t.TempDir(), "plan copy.md")
	if err := a.saveWorkspaceFile(c.ID, "plan.md", dest); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(dest); err != nil || string(b) != "step 1\n" {
		t.Fatalf("saved %q %v", b, err)
	}
	if err := a.saveWorkspaceFile(c.ID, "../../etc/passwd", dest); err == nil || !strings.Contains(err.Error(), "path_outside") {
		t.Fatalf("a path leaving the workspace: %v", err)
	}
}

func TestOpenWorkspaceFileOnlyInsideAFolderWorkspace(t *testing.T) {
	a := testApp(t)
	var opened []string
	openFile = func(p string) error { opened = append(opened, p); return nil }
	t.Cleanup(func() { openFile = desktop.OpenFile })
	dir := t.TempDir()
	outside := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "notes.md"), []byte("x"), 0o644)
	_ = os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o644)
	_ = os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "link"))

	c, _ := a.CreateChat()
	if err := a.OpenWorkspaceFile(c.ID, "notes.md"); err == nil || !strings.Contains(err.Error(), "not_folder") {
		t.Fatalf("a scratch chat: %v", err)
	}
	if _, err := a.SetWorkspace(c.ID, "folder", dir); err != nil {
		t.Fatal(err)
	}
	if err := a.OpenWorkspaceFile(c.ID, "notes.md"); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(filepath.Join(dir, "notes.md"))
	if len(opened) != 1 || opened[0] != want {
		t.Fatalf("opened %v, want [%s]", opened, want)
	}
	for _, bad := range []string{"link", "../x", "/etc/passwd", "missing.md", "."} {
		if err := a.OpenWorkspaceFile(c.ID, bad); err == nil {
			t.Errorf("%s opened", bad)
		}
	}
	if len(opened) != 1 {
		t.Errorf("opened more than the one file: %v", opened)
	}
}
