package workspace_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"airlock/backend/tools"
	. "airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
)

const tornChildEnv = "AIRLOCK_TORN_CHILD_DIR"

// The child half of TestAWriteKilledMidwayLeavesTheFileWhole: a real
// process that writes a large file into a folder workspace, over and over,
// until it is killed.
func TestTornWriteChild(t *testing.T) {
	dir := os.Getenv(tornChildEnv)
	if dir == "" {
		t.Skip("run by TestAWriteKilledMidwayLeavesTheFileWhole")
	}
	m := NewManager(newMemKeep())
	ctx := tools.WithCall(context.Background(), tools.CallInfo{ID: "w", Tool: "write_file"})
	env, err := m.Env(ctx, "c", folderOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Tool("write_file").Run(ctx, env, workspacetest.ArgsJSON(map[string]any{"path": "data.txt", "content": tornNew})); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Hour) // until killed
}

// tornNew is what the child writes: 4.9 MB, under write_file's cap.
var tornNew = strings.Repeat("new content, line after line\n", 4_900_000/29)

// A write_file killed by SIGKILL midway leaves the file whole, as it was
// or as written, never a prefix (issue 31, item 10); a temporary file it
// leaves is cleared when the folder is next opened.
func TestAWriteKilledMidwayLeavesTheFileWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	defer SetStaleTempAge(0)()
	const rounds = 8
	torn := 0
	for range rounds {
		if killMidWrite(t) {
			torn++
		}
	}
	if torn > 0 {
		t.Errorf("%d of %d writes killed midway left a torn file", torn, rounds)
	}
}

// killMidWrite runs one child, kills it as its write begins, and reports a
// torn file.
func killMidWrite(t *testing.T) (torn bool) {
	dir := t.TempDir()
	old := bytes.Repeat([]byte("old content\n"), 1<<20/12*4) // ~4 MB
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), old, 0o640); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTornWriteChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), tornChildEnv+"="+dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it as soon as the write has begun: the file changed, or a
	// temporary file is being written.
	deadline := time.Now().Add(20 * time.Second)
	for {
		fi, err := os.Stat(filepath.Join(dir, "data.txt"))
		tmps, _ := filepath.Glob(filepath.Join(dir, ".airlock-*.tmp"))
		began := err != nil || fi.Size() != int64(len(old))
		for _, p := range tmps {
			if fi, err := os.Stat(p); err == nil && fi.Size() > 0 {
				began = true
			}
		}
		if began || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Microsecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	got, err := os.ReadFile(filepath.Join(dir, "data.txt"))
	if err != nil || (!bytes.Equal(got, old) && string(got) != tornNew) {
		t.Logf("after a kill mid-write the file holds %d bytes (was %d, written %d; %v)", len(got), len(old), len(tornNew), err)
		torn = true
	}
	if fi, err := os.Stat(filepath.Join(dir, "data.txt")); err == nil && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".airlock-*.tmp")); len(tmps) > 0 {
		t.Logf("killed with %d temporary file(s) left", len(tmps))
	}
	w, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	w.WaitSweep()
	w.Close()
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".airlock-*.tmp")); len(tmps) != 0 {
		t.Errorf("temporary files left after the folder was opened again: %v", tmps)
	}
	return torn
}

// A write keeps the file's mode, and leaves no temporary file behind.
func TestWriteFileReplacesWholeKeepingMode(t *testing.T) {
	m, _, dir := folderFixture(t)
	mustRun(t, m, "c1", folderOpts(dir), "call-1", "write_file", map[string]any{"path": "notes.md", "content": "replaced\n"})
	mustRun(t, m, "c1", folderOpts(dir), "call-2", "edit_file", map[string]any{"path": "notes.md", "old_text": "replaced", "new_text": "edited"})
	fi, err := os.Stat(filepath.Join(dir, "notes.md"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode after write and edit: %v %v", fi.Mode(), err)
	}
	if got, _ := readDisk(t, dir, "notes.md"); got != "edited\n" {
		t.Errorf("content %q", got)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".*airlock*")); len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}

// A change cut short after its before-image was saved (the app stopped
// before the checkpoint was finished) can still be undone.
func TestAnInterruptedCheckpointCanBeUndone(t *testing.T) {
	m, keep, dir := folderFixture(t)
	ctx := tools.WithCall(context.Background(), tools.CallInfo{ID: "call-1", Tool: "write_file"})
	env, err := m.Env(ctx, "c1", folderOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Tool("write_file").Run(ctx, env, workspacetest.ArgsJSON(map[string]any{"path": "notes.md", "content": "half\n"})); err != nil {
		t.Fatal(err)
	}
	// No env.Commit: the app stopped here.
	cp := onlyCheckpoint(t, keep, "c1")
	if cp.Complete {
		t.Fatal("the checkpoint was finished")
	}
	if b := cp.Blocker(); b != "" {
		t.Fatalf("an interrupted checkpoint with its copies is blocked: %s", b)
	}
	undo(t, m, cp.ID)
	if got, _ := readDisk(t, dir, "notes.md"); got != "# Notes\n\nfirst\nsecond\n" {
		t.Errorf("after undo: %q", got)
	}
}

// A write through a link inside the folder replaces the link's target
// whole and keeps the link.
func TestWriteThroughALinkKeepsTheLink(t *testing.T) {
	m, _, dir := folderFixture(t)
	if err := os.Symlink("src/main.go", filepath.Join(dir, "main-link.go")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	mustRun(t, m, "c1", folderOpts(dir), "call-1", "write_file", map[string]any{"path": "main-link.go", "content": "package x\n"})
	if fi, err := os.Lstat(filepath.Join(dir, "main-link.go")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if got, _ := readDisk(t, dir, "src/main.go"); got != "package x\n" {
		t.Errorf("target: %q", got)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, "*", ".airlock-*.tmp")); len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}
