//go:build unix

package facade

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadWorkspaceFile streams through its cap: a 1 GiB (sparse) file costs
// about the cap, not the file (it allocated 4 GiB); a FIFO is refused,
// not waited on.
func TestReadWorkspaceFileStreamsAndRefusesPipes(t *testing.T) {
	a := testApp(t)
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "huge.log"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("start\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetWorkspace(c.ID, "folder", dir); err != nil {
		t.Fatal(err)
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := a.ReadWorkspaceFile(c.ID, "huge.log")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("1 GiB file: %d KB allocated", alloc>>10)
	if alloc > 8*viewCap {
		t.Errorf("allocated %d MB to show %d KB", alloc>>20, viewCap>>10)
	}
	if v.Size != 1<<30 || !v.Binary && !v.Truncated {
		t.Errorf("view: size %d, binary %v, truncated %v", v.Size, v.Binary, v.Truncated)
	}

	done := make(chan error, 1)
	go func() { _, err := a.ReadWorkspaceFile(c.ID, "pipe"); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("pipe: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ReadWorkspaceFile blocked on a FIFO")
	}
}
