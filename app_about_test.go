package main

import (
	"path/filepath"
	"slices"
	"strings"
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

func TestAbout(t *testing.T) {
	a := &App{dataDir: "/data/Airlock"}
	info := a.About()
	if info.Name != "Airlock" || info.Version != version || info.DataDir != "/data/Airlock" ||
		info.LogFile != filepath.Join("/data/Airlock", "logs", "airlock.log") || !strings.Contains(info.Platform, "/") {
		t.Errorf("About() = %+v", info)
	}
}
