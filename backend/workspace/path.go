package workspace

import (
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// The sentences CleanPath refuses a path with.
var (
	txtPathTooLong  = uitext.Define("path_too_long", "path is too long ({{bytes}} bytes; at most {{max}}); use a shorter path relative to the workspace root")
	txtPathNotUTF8  = uitext.Define("path_not_utf8", "path {{path}} is not valid UTF-8")
	txtPathNUL      = uitext.Define("path_nul", "path {{path}} contains a NUL byte")
	txtPathControl  = uitext.Define("path_control", "path {{path}} contains a control character; file names must be printable")
	txtPathAbsolute = uitext.Define("path_absolute", "path {{path}} is absolute; use a path relative to the workspace root (for example {{example}})")
	txtPathDrive    = uitext.Define("path_drive", "path {{path}} names a drive; use a path relative to the workspace root")
	txtPathColon    = uitext.Define("path_colon", "path {{path}} contains ':', which is not allowed in file names here")
	txtPathLeaves   = uitext.Define("path_leaves", "path {{path}} leaves the workspace; use a path relative to the workspace root")
	txtPathNameLong = uitext.Define("path_name_long", "path {{path}} has a name longer than {{max}} bytes")
	txtPathHome     = uitext.Define("path_home", "path {{path}} refers to a home folder, which is outside the workspace; use a path relative to the workspace root")
)

// Path limits.
const (
	MaxPathBytes = 4096 // a whole path
	MaxNameBytes = 255  // one component
)

// CleanPath normalises a path given by the model (or the user) into a clean,
// slash-separated path relative to the workspace root; "." is the root.
//
// Accepted: "notes.md", "./src/x.go", "src\\x.go" (backslashes are
// separators), "src/", "a/../b" (stays inside), "" and "." (the root).
// Refused with a clear message: absolute paths ("/etc", "\\\\server\\x"),
// drive letters ("C:\\", "C:foo"), "~" home paths, ".." that leaves the root,
// NUL and other control characters, invalid UTF-8, paths over MaxPathBytes
// or with a component over MaxNameBytes.
//
// The result never is absolute, never has a ".." component, never contains
// NUL, and CleanPath(CleanPath(p)) == CleanPath(p).
func CleanPath(p string) (string, error) {
	if len(p) > MaxPathBytes {
		return "", coded(CodePathInvalid, chat.ErrInvalid, txtPathTooLong,
			"bytes", Commas(int64(len(p))), "max", Commas(MaxPathBytes))
	}
	if !utf8.ValidString(p) {
		return "", coded(CodePathInvalid, chat.ErrInvalid, txtPathNotUTF8, "path", quote(p))
	}
	for _, r := range p {
		if r == 0 {
			return "", coded(CodePathInvalid, chat.ErrInvalid, txtPathNUL, "path", quote(p))
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return "", coded(CodePathInvalid, chat.ErrInvalid, txtPathControl, "path", quote(p))
		}
	}
	// No trimming: spaces belong to names (trimming the whole string is not
	// idempotent, "./ a" → " a" → "a"; the fuzzer found it).
	s := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(s, "/") {
		return "", coded(CodePathOutside, chat.ErrInvalid, txtPathAbsolute,
			"path", quote(p), "example", quote(exampleRelative(s)))
	}
	if HasDrive(s) {
		return "", coded(CodePathOutside, chat.ErrInvalid, txtPathDrive, "path", quote(p))
	}
	if runtime.GOOS == "windows" && strings.Contains(s, ":") {
		return "", coded(CodePathInvalid, chat.ErrInvalid, txtPathColon, "path", quote(p))
	}
	parts := strings.Split(s, "/")
	out := make([]string, 0, len(parts))
	for _, c := range parts {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(out) == 0 {
				return "", coded(CodePathOutside, chat.ErrInvalid, txtPathLeaves, "path", quote(p))
			}
			out = out[:len(out)-1]
			continue
		}
		if len(c) > MaxNameBytes {
			return "", coded(CodePathInvalid, chat.ErrInvalid, txtPathNameLong, "path", quote(p), "max", MaxNameBytes)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return ".", nil
	}
	if HasDrive(out[0]) { // "./C:" cleans to "C:"
		return "", coded(CodePathOutside, chat.ErrInvalid, txtPathDrive, "path", quote(p))
	}
	if out[0] == "~" {
		return "", coded(CodePathOutside, chat.ErrInvalid, txtPathHome, "path", quote(p))
	}
	return strings.Join(out, "/"), nil
}

// HasDrive reports a Windows drive prefix: "C:", "C:\\x", "C:foo".
func HasDrive(s string) bool {
	return len(s) >= 2 && s[1] == ':' && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))
}

func exampleRelative(abs string) string {
	parts := strings.FieldsFunc(abs, func(r rune) bool { return r == '/' })
	if len(parts) == 0 {
		return "."
	}
	return parts[len(parts)-1]
}

// quote quotes a path for a message, shortening very long ones.
func quote(p string) string {
	const max = 120
	if len(p) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
		return strconv.Quote(p[:cut]) + "…"
	}
	return strconv.Quote(p)
}

// FSName is the name under which a clean path is passed to an afero.Fs:
// rooted at "/", afero's convention (MemMapFs, BasePathFs).
func FSName(clean string) string {
	if clean == "" || clean == "." {
		return "/"
	}
	return "/" + clean
}

// ParentOf returns the parent of a clean path ("." for top-level entries).
func ParentOf(clean string) string {
	i := strings.LastIndexByte(clean, '/')
	if i < 0 {
		return "."
	}
	return clean[:i]
}

// JoinPath joins a clean directory and a name.
func JoinPath(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

// Within reports whether clean path p is dir or lies beneath it.
func Within(p, dir string) bool {
	if dir == "." || dir == "" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}
