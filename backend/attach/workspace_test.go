package attach

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/workspace"
)

// Attaching a workspace file: read from the chat's folder, checked like any
// attached file; a path or link leading outside, a directory, a file over
// the cap (refused before it is read) and an SVG named .png are refused.
func TestFromWorkspace(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "project")
	must(t, os.MkdirAll(filepath.Join(dir, "docs"), 0o755))
	var pic bytes.Buffer
	must(t, png.Encode(&pic, image.NewGray(image.Rect(0, 0, 7, 5))))
	must(t, os.WriteFile(filepath.Join(dir, "docs", "notes.md"), []byte("# Notes\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "shot.png"), pic.Bytes(), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "evil.png"), []byte(`<svg onload="alert(1)"/>`), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "secret.txt"), []byte("outside"), 0o644))
	must(t, os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(dir, "link.txt")))
	big, err := os.Create(filepath.Join(dir, "huge.log"))
	must(t, err)
	must(t, big.Truncate(MaxFileBytes+1)) // sparse: reading it would cost 20 MB
	big.Close()
	ws, err := workspace.OpenFolder(dir)
	must(t, err)

	got, err := FromWorkspace(ws.FS(), "docs/notes.md")
	if err != nil || got.Name != "notes.md" || string(got.Data) != "# Notes\n" {
		t.Fatalf("notes.md: %+v %v", got, err)
	}
	got, err = FromWorkspace(ws.FS(), "shot.png")
	if err != nil || got.Name != "shot.png" || !bytes.Equal(got.Data, pic.Bytes()) {
		t.Fatalf("shot.png: %q %v", got.Name, err)
	}
	for path, want := range map[string]string{
		"../secret.txt": "leaves the workspace",
		"link.txt":      "",
		"docs":          "",
		"huge.log":      "at most 20 MB",
		"evil.png":      "",
		"missing.txt":   "",
		"/etc/passwd":   "absolute",
	} {
		got, err := FromWorkspace(ws.FS(), path)
		if err == nil {
			t.Errorf("%s was attached (%d bytes)", path, len(got.Data))
			continue
		}
		if want != "" && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want it to say %q", path, err, want)
		}
		if strings.Contains(string(got.Data), "outside") {
			t.Errorf("%s: the file outside the workspace was read", path)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
