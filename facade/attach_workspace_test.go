//go:build unix

package facade

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A workspace file attached from the Files panel comes with its name and
// bytes; a file over the cap is refused by its size before it is read (a
// 1 GiB sparse file costs nothing like the 20 MB a capped read would).
func TestWorkspaceAttachment(t *testing.T) {
	a := testApp(t)
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data.csv"), []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "huge.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := a.SetWorkspace(c.ID, "folder", dir); err != nil {
		t.Fatal(err)
	}
	got, err := a.WorkspaceAttachment(c.ID, "data.csv")
	if err != nil || got.Name != "data.csv" || string(got.Data) != "a,b\n1,2\n" {
		t.Fatalf("data.csv: %+v %v", got, err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = a.WorkspaceAttachment(c.ID, "huge.log")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "at most 20 MB") {
		t.Fatalf("huge.log: %v; want the cap named", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("refusing a 1 GiB file allocated %d bytes: it was read", grew)
	}
	if _, err := a.WorkspaceAttachment(c.ID, "../outside.txt"); err == nil {
		t.Error("a path leaving the workspace was read")
	}
}
