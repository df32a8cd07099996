package desktop

import (
	"slices"
	"testing"
)

func TestFolderOpener(t *testing.T) {
	dir := "/home/u/.config/Airlock; rm -rf ~" // passed as one argument, never through a shell
	for goos, want := range map[string]string{"linux": "xdg-open", "freebsd": "xdg-open", "windows": "explorer.exe", "darwin": "open"} {
		name, args := folderOpener(goos, dir)
		if name != want || !slices.Equal(args, []string{dir}) {
			t.Errorf("%s: %s %q, want %s [dir]", goos, name, args, want)
		}
	}
}
