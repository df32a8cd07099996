package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSweepTemps: what opening a folder of 10,000 files (100 folders
// of 100) costs to look for left-over temporary files.
func BenchmarkSweepTemps(b *testing.B) {
	dir := b.TempDir()
	for i := range 100 {
		d := filepath.Join(dir, fmt.Sprintf("d%03d", i))
		os.Mkdir(d, 0o755)
		for j := range 100 {
			os.WriteFile(filepath.Join(d, fmt.Sprintf("f%03d.txt", j)), nil, 0o644)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	b.ResetTimer()
	for range b.N {
		sweepTemps(root)
	}
}
