package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"airlock/backend/chat"
	"airlock/backend/uitext"
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

// coded is an error whose sentence is the template filled with pairs.
func coded(code string, wrapped error, t uitext.Template, pairs ...any) *chat.Error {
	return chat.Coded(code, wrapped, t.With(pairs...))
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
func display(p string) string { return displayText(p).English }

// displayText is display as a Text: the root is a sentence of its own.
func displayText(p string) uitext.Text {
	if p == "" || p == "." {
		return txtRoot.With()
	}
	return uitext.Plain(p)
}

// The sentences of the filesystem errors (FSError).
var (
	txtRoot         = uitext.Define("ws_root", "the workspace root")
	txtFSLinkOut    = uitext.Define("fs_link_out", "{{path}} leads outside the workspace through a symbolic link; it cannot be used")
	txtFSNotFound   = uitext.Define("fs_not_found", "{{path}} does not exist; use list_directory or find_files to see what is there")
	txtFSExists     = uitext.Define("fs_exists", "{{path}} already exists")
	txtFSNotDir     = uitext.Define("fs_not_dir", "a part of {{path}} is a file, not a folder")
	txtFSIsDir      = uitext.Define("fs_is_dir", "{{path}} is a folder, not a file")
	txtFSNotEmpty   = uitext.Define("fs_not_empty", "{{path}} is a folder that is not empty")
	txtFSHardLinked = uitext.Define("fs_hard_linked", "{{path}} has other hard links (one may be outside the folder): it can be replaced whole (write_file) but not changed in place")
	txtFSNotRegular = uitext.Define("fs_not_regular", "{{path}} is not a regular file (a pipe, socket or device); the tools open regular files only")
	txtFSPermission = uitext.Define("fs_permission", "permission denied for {{path}}")
	txtFSOther      = uitext.Define("fs_other", "{{path}}: {{reason}}")
)

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
	d := displayText(p)
	switch {
	case isEscape(err):
		return coded(CodePathOutside, chat.ErrInvalid, txtFSLinkOut, "path", d)
	case errors.Is(err, fs.ErrNotExist):
		return coded(CodeNotFound, chat.ErrNotFound, txtFSNotFound, "path", d)
	case errors.Is(err, fs.ErrExist):
		return coded(CodeExists, chat.ErrInvalid, txtFSExists, "path", d)
	case errors.Is(err, syscall.ENOTDIR):
		return coded(CodeNotDirectory, chat.ErrInvalid, txtFSNotDir, "path", d)
	case errors.Is(err, syscall.EISDIR):
		return coded(CodeIsDirectory, chat.ErrInvalid, txtFSIsDir, "path", d)
	case errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST):
		return coded(CodeNotEmpty, chat.ErrInvalid, txtFSNotEmpty, "path", d)
	case errors.Is(err, ErrHardLinked):
		return coded(CodePermission, chat.ErrInvalid, txtFSHardLinked, "path", d)
	case errors.Is(err, ErrNotRegular):
		return coded(CodeNotRegular, chat.ErrInvalid, txtFSNotRegular, "path", d)
	case errors.Is(err, fs.ErrPermission):
		return coded(CodePermission, chat.ErrInvalid, txtFSPermission, "path", d)
	}
	return coded(CodeIO, err, txtFSOther, "path", d, "reason", scrubOSError(err))
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

// HumanSizeText is HumanSize as a Text ("bytes" is a word to translate).
func HumanSizeText(n int64) uitext.Text {
	switch {
	case n == 1:
		return txtOneByte.With()
	case n < 1024:
		return txtBytes.With("n", fmt.Sprint(n))
	}
	return uitext.Plain(HumanSize(n))
}

var (
	txtOneByte = uitext.Define("size_one_byte", "1 byte")
	txtBytes   = uitext.Define("size_bytes", "{{n}} bytes")
)

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
