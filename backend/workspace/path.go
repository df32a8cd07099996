package workspace

import (
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"airlock/backend/chat"
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
		return "", errf(CodePathInvalid, chat.ErrInvalid,
			"path is too long (%s bytes; at most %s); use a shorter path relative to the workspace root",
			Commas(int64(len(p))), Commas(MaxPathBytes))
	}
	if !utf8.ValidString(p) {
		return "", errf(CodePathInvalid, chat.ErrInvalid, "path %s is not valid UTF-8", quote(p))
	}
	for _, r := range p {
		if r == 0 {
			return "", errf(CodePathInvalid, chat.ErrInvalid, "path %s contains a NUL byte", quote(p))
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return "", errf(CodePathInvalid, chat.ErrInvalid,
				"path %s contains a control character; file names must be printable", quote(p))
		}
	}
	// No trimming: spaces belong to names (trimming the whole string is not
	// idempotent, "./ a" → " a" → "a"; the fuzzer found it).
	s := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(s, "/") {
		return "", errf(CodePathOutside, chat.ErrInvalid,
			"path %s is absolute; use a path relative to the workspace root (for example %s)",
			quote(p), quote(exampleRelative(s)))
	}
	if HasDrive(s) {
		return "", errf(CodePathOutside, chat.ErrInvalid,
			"path %s names a drive; use a path relative to the workspace root", quote(p))
	}
	if runtime.GOOS == "windows" && strings.Contains(s, ":") {
		return "", errf(CodePathInvalid, chat.ErrInvalid,
			"path %s contains ':', which is not allowed in file names here", quote(p))
	}
	parts := strings.Split(s, "/")
	out := make([]string, 0, len(parts))
	for _, c := range parts {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(out) == 0 {
				return "", errf(CodePathOutside, chat.ErrInvalid,
					"path %s leaves the workspace; use a path relative to the workspace root", quote(p))
			}
			out = out[:len(out)-1]
			continue
		}
		if len(c) > MaxNameBytes {
			return "", errf(CodePathInvalid, chat.ErrInvalid,
				"path %s has a name longer than %d bytes", quote(p), MaxNameBytes)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return ".", nil
	}
	if HasDrive(out[0]) { // "./C:" cleans to "C:"
		return "", errf(CodePathOutside, chat.ErrInvalid,
			"path %s names a drive; use a path relative to the workspace root", quote(p))
	}
	if out[0] == "~" {
		return "", errf(CodePathOutside, chat.ErrInvalid,
			"path %s refers to a home folder, which is outside the workspace; use a path relative to the workspace root", quote(p))
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
