package workspace

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"airlock/backend/chat"
)

// Taking a workspace file out to the rest of the computer: a copy saved
// where the user picked (Files ▸ Save as…), or a folder workspace's file
// handed to the system's default application (Files ▸ Open in editor).

// RealPath resolves rel (a path as CleanPath takes it) inside the real
// folder root to the file's real path, symbolic links followed, and checks
// that the result still lies inside root (itself resolved): a link leading
// out of the folder is refused, like the workspace's own jail refuses it.
// Only a regular file is returned (a folder, pipe or device is refused).
func RealPath(root, rel string) (string, error) {
	clean, err := CleanPath(rel)
	if err != nil {
		return "", err
	}
	if clean == "." {
		return "", errf(CodeIsDirectory, chat.ErrInvalid, "the workspace root is a folder, not a file")
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", errf(CodeNotFound, chat.ErrNotFound, "the workspace folder %s is not there any more", quote(root))
	}
	if realRoot, err = filepath.Abs(realRoot); err != nil {
		return "", errf(CodeIO, err, "the workspace folder %s cannot be read: %v", quote(root), err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(realRoot, filepath.FromSlash(clean)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", errf(CodeNotFound, chat.ErrNotFound, "%s is not in the workspace folder any more", quote(clean))
	}
	if err != nil {
		return "", errf(CodeIO, err, "%s cannot be read: %v", quote(clean), err)
	}
	inside, err := filepath.Rel(realRoot, real)
	if err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) || filepath.IsAbs(inside) {
		return "", errf(CodePathOutside, chat.ErrInvalid, "%s is a link leading out of the workspace folder; it is not opened", quote(clean))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", errf(CodeIO, err, "%s cannot be read: %v", quote(clean), err)
	}
	if fi.IsDir() {
		return "", errf(CodeIsDirectory, chat.ErrInvalid, "%s is a folder, not a file", quote(clean))
	}
	if !fi.Mode().IsRegular() {
		return "", errf(CodeNotRegular, chat.ErrInvalid, "%s is not a regular file (a pipe, socket or device); it is not opened", quote(clean))
	}
	return real, nil
}

// SaveCopy writes a copy of the workspace file rel to dest (a path the user
// chose on the computer), replacing dest if it exists. It is written to a
// temporary file beside dest first and renamed into place, so a failure
// half-way leaves dest as it was.
func SaveCopy(fsys afero.Fs, rel, dest string) error {
	clean, err := CleanPath(rel)
	if err != nil {
		return err
	}
	src, err := fsys.Open(FSName(clean))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errf(CodeNotFound, chat.ErrNotFound, "%s is not in the workspace", quote(clean))
		}
		return err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return errf(CodeIO, err, "%s cannot be read: %v", quote(clean), err)
	}
	if fi.IsDir() {
		return errf(CodeIsDirectory, chat.ErrInvalid, "%s is a folder; save its files one by one", quote(clean))
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), ".airlock-save-*")
	if err != nil {
		return errf(CodeIO, err, "cannot write in %s: %v", quote(filepath.Dir(dest)), err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := io.Copy(tmp, src); err != nil {
		return errf(CodeIO, err, "saving %s to %s failed: %v", quote(clean), quote(dest), err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return errf(CodeIO, err, "saving %s to %s failed: %v", quote(clean), quote(dest), err)
	}
	if err := tmp.Close(); err != nil {
		return errf(CodeIO, err, "saving %s to %s failed: %v", quote(clean), quote(dest), err)
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return errf(CodeIO, err, "saving %s to %s failed: %v", quote(clean), quote(dest), err)
	}
	done = true
	return nil
}
