package workspace

import (
	"io/fs"
	"os"
	"strings"
	"time"
)

// Temporary files: every whole-file write in a real folder (write_file,
// edit_file, an overlay's Apply, Undo) goes to .airlock-<random>.tmp in the
// target's folder and is renamed over the target (TempName). A process
// killed midway leaves its temporary file; opening the folder again clears
// those old enough not to belong to a write under way.

// MaxTempSweep bounds how many entries an open looks at for left-over
// temporary files (a folder with more is swept in part).
const MaxTempSweep = 100_000

// staleTempAge is how old a temporary file must be to be cleared.
var staleTempAge = time.Minute

// sweep clears the folder's left-over temporary files in the background:
// a large folder takes a while to look through (about 10 µs an entry
// here), and opening it need not wait.
func (w *Workspace) sweep() {
	w.swept = make(chan struct{})
	go func() {
		defer close(w.swept)
		sweepTemps(w.root)
	}()
}

// isTempName reports a name TempName makes.
func isTempName(name string) bool {
	return strings.HasPrefix(name, ".airlock-") && strings.HasSuffix(name, ".tmp")
}

// sweepTemps removes the old temporary files under root, looking at no
// more than MaxTempSweep entries and following no links; it returns how
// many it removed.
func sweepTemps(root *os.Root) int {
	removed, seen := 0, 0
	cutoff := time.Now().Add(-staleTempAge)
	_ = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if seen++; seen > MaxTempSweep {
			return fs.SkipAll
		}
		if err != nil || d.IsDir() || !d.Type().IsRegular() || !isTempName(d.Name()) {
			return nil
		}
		if fi, err := d.Info(); err == nil && !fi.ModTime().After(cutoff) && root.Remove(p) == nil {
			removed++
		}
		return nil
	})
	return removed
}
