//go:build unix

package files

import (
	"os"
	"path/filepath"
	"testing"
)

// Deleting a link to "." deletes the link: the preview and the result say
// so, and count none of the files it points to.
func TestDeleteLinkToDotSaysLinkOnly(t *testing.T) {
	for _, b := range backends()[2:] { // folder, overlay
		t.Run(b.name, func(t *testing.T) {
			fsys, dir := b.open(t)
			for i := range 20 {
				put(t, fsys, filepath.Join("src", string(rune('a'+i))+".txt"), "x")
			}
			if b.name == "overlay" {
				// The files are on disk, the link too: only the link goes.
				for i := range 20 {
					os.MkdirAll(filepath.Join(dir, "src"), 0o755)
					os.WriteFile(filepath.Join(dir, "src", string(rune('a'+i))+".txt"), []byte("x"), 0o644)
				}
			}
			if err := os.Symlink(".", filepath.Join(dir, "here")); err != nil {
				t.Fatal(err)
			}
			pv, err := preview(fsys, "delete_path", map[string]any{"path": "here"})
			if err != nil {
				t.Fatal(err)
			}
			contains(t, pv.Summary, "Delete the symbolic link here", "only the link; what it points to stays")
			lacks(t, pv.Summary, "files", "everything")
			out := mustCall(t, fsys, "delete_path", map[string]any{"path": "here"})
			contains(t, out, "Deleted the symbolic link here", "what it pointed to is untouched.")
			lacks(t, out, "20 files")
			if got := mustCall(t, fsys, "read_file", map[string]any{"path": "src/a.txt"}); got != "x" {
				t.Errorf("src/a.txt = %q", got)
			}
		})
	}
}
