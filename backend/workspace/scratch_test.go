package workspace_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	. "airlock/backend/workspace"
)

// A scratch workspace survives a restart: Snapshot → JSON (as the store
// would save it) → RestoreScratch gives back the same files.
func TestScratchSnapshotRestoreRoundTrip(t *testing.T) {
	ws := NewScratch()
	if ws.Kind() != KindScratch || ws.Dir() != "" {
		t.Fatal("kind")
	}
	fsys := ws.FS()
	mustCall(t, fsys, "write_file", map[string]any{"path": "notes.md", "content": "# hi\n"})
	mustCall(t, fsys, "write_file", map[string]any{"path": "src/deep/x.go", "content": "package x\n"})
	mustCall(t, fsys, "make_directory", map[string]any{"path": "empty"})
	if err := afero.WriteFile(fsys, "/bin.dat", []byte{0, 1, 2, 255}, 0o600); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	if err := fsys.Chtimes("/notes.md", stamp, stamp); err != nil {
		t.Fatal(err)
	}

	snap, err := ws.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range snap {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "bin.dat,empty,notes.md,src,src/deep,src/deep/x.go" {
		t.Fatalf("paths %v", paths)
	}
	data, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}

	// "Restart".
	var loaded []File
	if err := json.Unmarshal(data, &loaded); err != nil {
		t.Fatal(err)
	}
	ws2, err := RestoreScratch(loaded)
	if err != nil {
		t.Fatal(err)
	}
	f2 := ws2.FS()
	if get(t, f2, "notes.md") != "# hi\n" || get(t, f2, "src/deep/x.go") != "package x\n" {
		t.Fatal("content")
	}
	if b := get(t, f2, "bin.dat"); b != "\x00\x01\x02\xff" {
		t.Fatalf("binary content %q", b)
	}
	fi, err := f2.Stat("/bin.dat")
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	fi, _ = f2.Stat("/notes.md")
	if !fi.ModTime().Equal(stamp) {
		t.Fatalf("mtime %v", fi.ModTime())
	}
	if fi, err := f2.Stat("/empty"); err != nil || !fi.IsDir() {
		t.Fatal("empty folder lost")
	}
	// And a second snapshot is identical.
	snap2, _ := ws2.Snapshot()
	data2, _ := json.Marshal(snap2)
	if string(data2) != string(data) {
		t.Fatalf("round trip differs:\n%s\n%s", data, data2)
	}
	folder, err := OpenFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer folder.Close()
	if _, err := folder.Snapshot(); err == nil {
		t.Fatal("a folder workspace has no snapshot")
	}
}

func TestRestoreRefusesHostileSnapshot(t *testing.T) {
	for _, p := range []string{"../escape", "/etc/passwd", "a/../../x", "C:/x", "a\x00b"} {
		_, err := Restore([]File{{Path: p, Content: []byte("x")}})
		if err == nil {
			t.Errorf("Restore(%q) accepted", p)
		}
	}
}

func TestScratchSizeCap(t *testing.T) {
	// A small cap on the same code path as the real one.
	ws := NewScratchCapped(1000)
	fsys := ws.FS()
	mustCall(t, fsys, "write_file", map[string]any{"path": "a.txt", "content": strings.Repeat("a", 600)})
	_, err := call(fsys, "write_file", map[string]any{"path": "b.txt", "content": strings.Repeat("b", 500)})
	wantCode(t, err, CodeTooLarge)
	contains(t, err.Error(), "the scratch workspace is full")
	// Replacing a file counts its new size, not old + new.
	mustCall(t, fsys, "write_file", map[string]any{"path": "a.txt", "content": strings.Repeat("c", 900)})
	// Appending is capped too.
	f, err := fsys.OpenFile("/a.txt", os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, 200)); Code(err) != CodeTooLarge {
		t.Fatalf("append over the cap: %v", err)
	}
	f.Close()
	if err := fsys.Remove("/a.txt"); err != nil {
		t.Fatal(err)
	}
	mustCall(t, fsys, "write_file", map[string]any{"path": "b.txt", "content": strings.Repeat("b", 500)})
}

func TestScratchCapOnSnapshotAndRestore(t *testing.T) {
	big := make([]byte, ScratchMaxBytes/2+1)
	_, err := Restore([]File{{Path: "a", Content: big}, {Path: "b", Content: big}})
	wantCode(t, err, CodeTooLarge)

	mem := afero.NewMemMapFs()
	afero.WriteFile(mem, "/a", big, 0o644)
	afero.WriteFile(mem, "/b", big, 0o644)
	_, err = Snapshot(mem)
	wantCode(t, err, CodeTooLarge)
}
