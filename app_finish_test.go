package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The new chat's folder is checked at Save: a folder that does not exist is
// refused with the reason (issue 30, item 1).
func TestCheckWorkspaceFolderRefusesMissingFolder(t *testing.T) {
	a := testApp(t)
	dir := t.TempDir()
	if err := a.CheckWorkspaceFolder("folder", dir); err != nil {
		t.Fatalf("an existing folder: %v", err)
	}
	missing := filepath.Join(dir, "gone")
	err := a.CheckWorkspaceFolder("overlay", missing)
	if err == nil || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), "not_found") {
		t.Fatalf("a missing folder: %v", err)
	}
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.CheckWorkspaceFolder("folder", file); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("a file: %v", err)
	}
	if err := a.CheckWorkspaceFolder("folder", "rel/dir"); err == nil || !strings.Contains(err.Error(), "full path") {
		t.Fatalf("a relative path: %v", err)
	}
	if err := a.CheckWorkspaceFolder("scratch", ""); err != nil {
		t.Fatalf("scratch needs no folder: %v", err)
	}
}
