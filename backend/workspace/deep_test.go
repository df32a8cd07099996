package workspace

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// deepTree makes dir/d/d/…/d (depth folders) holding a file "f", through
// os.Root (the whole path is longer than the kernel takes at once).
func deepTree(tb testing.TB, depth int) (string, string) {
	tb.Helper()
	dir := tb.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		tb.Fatal(err)
	}
	for range depth {
		if err := r.Mkdir("d", 0o755); err != nil {
			tb.Fatal(err)
		}
		next, err := r.OpenRoot("d")
		r.Close()
		if err != nil {
			tb.Fatal(err)
		}
		r = next
	}
	if err := r.WriteFile("f", []byte("deep"), 0o644); err != nil {
		tb.Fatal(err)
	}
	r.Close()
	return dir, strings.Repeat("d/", depth) + "f"
}

// Reading a file at depth 2,047 through an overlay: path resolution walks
// the components once (it was cubic: 80 s at this depth).
func BenchmarkOverlayDeepPath(b *testing.B) {
	dir, rel := deepTree(b, 2047)
	ws, err := OpenOverlay(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	b.ResetTimer()
	for b.Loop() {
		if data, err := afero.ReadFile(ws.FS(), rel); err != nil || string(data) != "deep" {
			b.Fatalf("%q %v", data, err)
		}
	}
}

func BenchmarkFolderDeepPath(b *testing.B) {
	dir, rel := deepTree(b, 2047)
	ws, err := OpenFolder(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	for b.Loop() {
		if data, err := afero.ReadFile(ws.FS(), rel); err != nil || string(data) != "deep" {
			b.Fatalf("%q %v", data, err)
		}
	}
}

// Resolution is linear in depth: reading at depth 2,047 through an
// overlay made 2.1 million allocations (a system call and a copy of the
// prefix per component per component); now about the folder's few
// thousand per component walked.
func TestOverlayDeepPathIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 2,047 folders")
	}
	dir, rel := deepTree(t, 2047)
	ws, err := OpenOverlay(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	allocs := testing.AllocsPerRun(1, func() {
		if data, err := afero.ReadFile(ws.FS(), rel); err != nil || string(data) != "deep" {
			t.Fatalf("%q %v", data, err)
		}
	})
	if allocs > 100_000 {
		t.Errorf("%.0f allocations to read one file at depth 2,047", allocs)
	}
	// A write and the overlay's list of changes at that depth work too.
	if err := afero.WriteFile(ws.FS(), rel, []byte("deeper"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ch, err := ws.Changes(); err != nil || len(ch) != 1 {
		t.Fatalf("changes %v %v", ch, err)
	}
}
