package desktop

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	goruntime "runtime"
	"time"
)

// folderOpener is the command that shows a folder in the file manager.
func folderOpener(goos, dir string) (name string, args []string) {
	switch goos {
	case "windows":
		return "explorer.exe", []string{dir}
	case "darwin":
		return "open", []string{dir}
	}
	return "xdg-open", []string{dir}
}

// OpenFolder starts the file manager on dir. Openers that fail say so within
// moments (xdg-open without a handler); some stay until the window closes, so
// after a short wait the opener is left running and reaped in the background.
func OpenFolder(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the folder %s cannot be created: %w", dir, err)
	}
	name, args := folderOpener(goruntime.GOOS, dir)
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("no file manager opener (%s) was found; the folder is %s", name, dir)
		}
		return fmt.Errorf("opening %s: %w", dir, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		// explorer.exe exits with 1 even when it opened the folder.
		if err != nil && goruntime.GOOS != "windows" {
			return fmt.Errorf("%s could not open %s: %w", name, dir, err)
		}
	case <-time.After(1500 * time.Millisecond):
	}
	slog.Info("opened the folder in the file manager", "dir", dir, "with", name)
	return nil
}
