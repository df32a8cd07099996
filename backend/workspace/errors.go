package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"airlock/backend/chat"
)

// Error codes. Every error this package returns to a caller is a *chat.Error
// carrying one of them; its message is written for the user and the model
// alike (what went wrong, and what to do instead). The file tools return
// them too, so the UI sees one set of codes.
const (
	CodePathInvalid  = "path_invalid"   // NUL or control characters, too long, not UTF-8
	CodePathOutside  = "path_outside"   // absolute, "..", drive letter, or a symbolic link leading out
	CodeNotFound     = "not_found"      // no such file or folder
	CodeExists       = "exists"         // the target already exists
	CodeIsDirectory  = "is_directory"   // a folder where a file was expected
	CodeNotDirectory = "not_directory"  // a file where a folder was expected
	CodeNotEmpty     = "not_empty"      // a folder that still has entries
	CodeTooLarge     = "too_large"      // over one of the size caps
	CodeBinary       = "binary"         // a binary file where text was expected
	CodeInvalidArgs  = "invalid_args"   // arguments missing or malformed
	CodeConflict     = "apply_conflict" // overlay: the disk changed since the model read it
	CodeNotOverlay   = "not_overlay"    // Changes/Apply/Discard on a workspace without an overlay
	CodePermission   = "permission_denied"
	CodeNotRegular   = "not_regular" // a pipe, socket or device: never opened
	CodeIO           = "io_error"
)

// ErrNotRegular is why a pipe, socket or device file is not opened.
var ErrNotRegular = errors.New("not a regular file")

func errf(code string, wrapped error, format string, args ...any) *chat.Error {
	return chat.Errorf(code, wrapped, format, args...)
}

// errPathEscapes is the text of os.Root's (unexported) error for a path or
// symbolic link that leads outside the root.
const errPathEscapesText = "path escapes from parent"

func isEscape(err error) bool {
	for err != nil {
		if err.Error() == errPathEscapesText {
			return true
		}
		err = errors.Unwrap(err)
	}
	return false
}

// display is how a clean path is shown in messages.
func display(p string) string {
	if p == "" || p == "." {
		return "the workspace root"
	}
	return p
}

// FSError turns an error from a filesystem operation on the clean path p
// into a *chat.Error the model can act on. Errors that already are
// *chat.Error pass through.
func FSError(p string, err error) error {
	if err == nil {
		return nil
	}
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce
	}
	d := display(p)
	switch {
	case isEscape(err):
		return errf(CodePathOutside, chat.ErrInvalid,
			"%s leads outside the workspace through a symbolic link; it cannot be used", d)
	case errors.Is(err, fs.ErrNotExist):
		return errf(CodeNotFound, chat.ErrNotFound,
			"%s does not exist; use list_directory or find_files to see what is there", d)
	case errors.Is(err, fs.ErrExist):
		return errf(CodeExists, chat.ErrInvalid, "%s already exists", d)
	case errors.Is(err, syscall.ENOTDIR):
		return errf(CodeNotDirectory, chat.ErrInvalid, "a part of %s is a file, not a folder", d)
	case errors.Is(err, syscall.EISDIR):
		return errf(CodeIsDirectory, chat.ErrInvalid, "%s is a folder, not a file", d)
	case errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST):
		return errf(CodeNotEmpty, chat.ErrInvalid, "%s is a folder that is not empty", d)
	case errors.Is(err, ErrHardLinked):
		return errf(CodePermission, chat.ErrInvalid, "%s has other hard links (one may be outside the folder): it can be replaced whole (write_file) but not changed in place", d)
	case errors.Is(err, ErrNotRegular):
		return errf(CodeNotRegular, chat.ErrInvalid,
			"%s is not a regular file (a pipe, socket or device); the tools open regular files only", d)
	case errors.Is(err, fs.ErrPermission):
		return errf(CodePermission, chat.ErrInvalid, "permission denied for %s", d)
	}
	return errf(CodeIO, err, "%s: %s", d, scrubOSError(err))
}

// scrubOSError keeps the reason of an OS error but not the path it names
// (which might be the real location of the folder).
func scrubOSError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Op + ": " + le.Err.Error()
	}
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && strings.ContainsAny(s[:i], `/\`) {
		return s[i+2:]
	}
	return s
}

// Code returns the code of a *chat.Error in err's chain, or "".
func Code(err error) string {
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

func pathErr(op, name string, err error) error { return &os.PathError{Op: op, Path: name, Err: err} }

// Commas formats n with thousands separators: 5000 → "5,000".
func Commas(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// HumanSize formats a byte count: 512 bytes, 1.2 KB, 3.4 MB.
func HumanSize(n int64) string {
	switch {
	case n < 1024:
		if n == 1 {
			return "1 byte"
		}
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1024)) + " KB"
	case n < 1<<30:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<20))) + " MB"
	}
	return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<30))) + " GB"
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }
