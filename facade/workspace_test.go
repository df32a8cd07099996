package facade

import (
	"context"
	"strings"
	"testing"

	"airlock/backend/store"
)

func testApp(t *testing.T) *App {
	t.Helper()
	dir := t.TempDir()
	st, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := NewApp(st, dir, "", nil, nil)
	a.ctx = context.Background()
	t.Cleanup(func() { a.shutdown(a.ctx); st.Close() })
	return a
}

func TestSetWorkspaceValidatesBeforeSaving(t *testing.T) {
	a := testApp(t)
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetWorkspace(c.ID, "overlay", "relative/dir"); err == nil || !strings.Contains(err.Error(), "full path") {
		t.Fatalf("relative folder: %v", err)
	}
	if _, err := a.SetWorkspace(c.ID, "overlay", "/nonexistent/airlock-test"); err == nil {
		t.Fatal("a missing folder must be refused")
	}
	got, _ := a.store.GetChat(a.ctx, c.ID)
	if got.WorkspaceKind != "scratch" {
		t.Fatalf("a refused folder must not be saved: %+v", got.ChatOptions)
	}
	dir := t.TempDir()
	got, err = a.SetWorkspace(c.ID, "overlay", dir+"//")
	if err != nil || got.WorkspaceDir != dir {
		t.Fatalf("clean spelling: %q %v", got.WorkspaceDir, err)
	}
	if _, err := a.RunTool(c.ID, "write_file", []byte(`{"path":"a.txt","content":"x"}`)); err != nil {
		t.Fatal(err)
	}
	changes, err := a.WorkspaceChanges(c.ID)
	if err != nil || len(changes) != 1 || changes[0].Path != "a.txt" {
		t.Fatalf("the overlay kept its change: %+v %v", changes, err)
	}
	if _, err := a.RunTool(c.ID, "read_file", []byte(`{"path":"../../etc/passwd"}`)); err == nil || !strings.Contains(err.Error(), "path_outside") {
		t.Fatalf("hostile path: %v", err)
	}
}
