package workspace

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"airlock/backend/chat"
)

func TestCleanPathAccepts(t *testing.T) {
	cases := map[string]string{
		"":                  ".",
		".":                 ".",
		"./":                ".",
		"/":                 "", // refused, see below
		"notes.md":          "notes.md",
		"./notes.md":        "notes.md",
		"src/":              "src",
		"src//x.go":         "src/x.go",
		`src\x.go`:          "src/x.go",
		`.\src\x.go`:        "src/x.go",
		"a/../b":            "b",
		"a/b/../../c":       "c",
		"a/..":              ".",
		" spaced.txt ":      " spaced.txt ", // spaces belong to the name
		" ../x":             " ../x",        // a folder named " ..", inside
		"\u0610 /":          "\u0610 ",      // found by the fuzzer: no trimming, so idempotent
		"..foo":             "..foo",
		"foo..":             "foo..",
		"...":               "...",
		"~notes":            "~notes",
		"dir/~":             "dir/~",
		"héllo/世界.txt":      "héllo/世界.txt",
		"a/./b/.":           "a/b",
		"with space/f 1.md": "with space/f 1.md",
	}
	for in, want := range cases {
		if want == "" {
			continue
		}
		got, err := CleanPath(in)
		if err != nil || got != want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// hostilePaths is the traversal table every entry point is tested with.
var hostilePaths = []struct {
	path string
	code string
	msg  string
}{
	{"../x", CodePathOutside, "leaves the workspace; use a path relative to the workspace root"},
	{"..", CodePathOutside, "leaves the workspace"},
	{"a/../../x", CodePathOutside, "leaves the workspace"},
	{"../../etc/passwd", CodePathOutside, `path "../../etc/passwd" leaves the workspace; use a path relative to the workspace root`},
	{`..\..\x`, CodePathOutside, "leaves the workspace"},
	{`a\..\..\x`, CodePathOutside, "leaves the workspace"},
	{"/etc/passwd", CodePathOutside, `is absolute; use a path relative to the workspace root (for example "passwd")`},
	{"/", CodePathOutside, "is absolute"},
	{"//server/share/x", CodePathOutside, "is absolute"},
	{`\\host\share`, CodePathOutside, "is absolute"},
	{`\\?\C:\Windows`, CodePathOutside, "is absolute"},
	{`C:\Windows`, CodePathOutside, "names a drive"},
	{"C:/Windows", CodePathOutside, "names a drive"},
	{"c:foo", CodePathOutside, "names a drive"},
	{"C:", CodePathOutside, "names a drive"},
	{"~", CodePathOutside, "home folder"},
	{"~/.ssh/id_rsa", CodePathOutside, "home folder"},
	{"./~", CodePathOutside, "home folder"},    // found by the fuzzer
	{`.\A:`, CodePathOutside, "names a drive"}, // found by the fuzzer
	{"a/../C:/x", CodePathOutside, "names a drive"},
	{"a\x00b", CodePathInvalid, "contains a NUL byte"},
	{"notes.md\x00.png", CodePathInvalid, "NUL"},
	{"a\nb", CodePathInvalid, "control character"},
	{"a\x1bb", CodePathInvalid, "control character"},
	{"a\u0085b", CodePathInvalid, "control character"},
	{"bad\xffutf8", CodePathInvalid, "not valid UTF-8"},
	{strings.Repeat("a/", MaxPathBytes/2+1), CodePathInvalid, "too long"},
	{strings.Repeat("n", MaxNameBytes+1), CodePathInvalid, "longer than 255 bytes"},
}

func TestCleanPathRefuses(t *testing.T) {
	for _, c := range hostilePaths {
		got, err := CleanPath(c.path)
		if err == nil {
			t.Errorf("CleanPath(%q) = %q; want refusal", c.path, got)
			continue
		}
		var ce *chat.Error
		if !errors.As(err, &ce) || ce.Code != c.code || !strings.Contains(ce.Message, c.msg) {
			t.Errorf("CleanPath(%q): %v (code %q); want %s containing %q", c.path, err, Code(err), c.code, c.msg)
		}
		if !errors.Is(err, chat.ErrInvalid) {
			t.Errorf("CleanPath(%q): error should wrap chat.ErrInvalid", c.path)
		}
		if len(ce.Message) > 400 {
			t.Errorf("message too long for %q: %d bytes", c.path[:20], len(ce.Message))
		}
	}
}

func TestCleanPathWindowsColon(t *testing.T) {
	_, err := CleanPath("notes.txt:stream")
	if runtime.GOOS == "windows" {
		wantCode(t, err, CodePathInvalid)
	} else if err != nil {
		t.Fatalf("a colon is a valid name character here: %v", err)
	}
}

func checkCleanProperties(t *testing.T, in string) {
	out, err := CleanPath(in)
	if err != nil {
		if Code(err) == "" {
			t.Fatalf("CleanPath(%q): error without a code: %v", in, err)
		}
		return
	}
	if out == "" || strings.HasPrefix(out, "/") || strings.HasPrefix(out, `\`) {
		t.Fatalf("CleanPath(%q) = %q: empty or absolute", in, out)
	}
	if strings.ContainsRune(out, 0) || strings.Contains(out, `\`) || !utf8.ValidString(out) {
		t.Fatalf("CleanPath(%q) = %q: NUL, backslash or bad UTF-8", in, out)
	}
	if hasDrive(out) {
		t.Fatalf("CleanPath(%q) = %q: drive letter", in, out)
	}
	for _, part := range strings.Split(out, "/") {
		if part == ".." || part == "" || (part == "." && out != ".") {
			t.Fatalf("CleanPath(%q) = %q: component %q", in, out, part)
		}
	}
	if strings.HasPrefix(out, "..") && (len(out) == 2 || out[2] == '/') {
		t.Fatalf("CleanPath(%q) = %q starts with ..", in, out)
	}
	again, err := CleanPath(out)
	if err != nil || again != out {
		t.Fatalf("not idempotent: CleanPath(%q) = %q, then %q, %v", in, out, again, err)
	}
	// The jail's rooted form agrees.
	if n, err := jailName("/" + out); err != nil || n != fsName(out) {
		t.Fatalf("jailName(/%s) = %q, %v", out, n, err)
	}
}

func FuzzCleanPath(f *testing.F) {
	for _, c := range hostilePaths {
		f.Add(c.path)
	}
	for _, s := range []string{"", ".", "a/b", `a\b`, "./x", "a/../b", "..foo/..", "x/./../../y", " ../x", "\u00a0..", "C:", "~x/..", "a/b/../../..", "./../a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 4*MaxPathBytes {
			t.Skip() // refused by length alone; huge inputs only slow the minimiser down
		}
		checkCleanProperties(t, in)
	})
}
