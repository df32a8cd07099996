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

// OpenFolder starts the file manager on dir (made first if missing).
func OpenFolder(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the folder %s cannot be created: %w", dir, err)
	}
	return openWith(dir, "no file manager opener (%s) was found; the folder is %s")
}

// openWith hands p to the system's opener as one argument (never through a
// shell). Openers that fail say so within moments (xdg-open without a
// handler); some stay until the window closes, so after a short wait the
// opener is left running and reaped in the background. missing is the
// sentence when there is no opener (with the opener's name and p).
func openWith(p, missing string) error {
	name, args := folderOpener(goruntime.GOOS, p)
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf(missing, name, p)
		}
		return fmt.Errorf("opening %s: %w", p, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		// explorer.exe exits with 1 even when it opened the folder.
		if err != nil && goruntime.GOOS != "windows" {
			return fmt.Errorf("%s could not open %s: %w", name, p, err)
		}
	case <-time.After(1500 * time.Millisecond):
	}
	slog.Info("opened with the system's opener", "path", p, "with", name)
	return nil
}
