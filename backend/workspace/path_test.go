package workspace_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"airlock/backend/chat"
	. "airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
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

func TestCleanPathRefuses(t *testing.T) {
	for _, c := range workspacetest.HostilePaths {
		got, err := CleanPath(c.Path)
		if err == nil {
			t.Errorf("CleanPath(%q) = %q; want refusal", c.Path, got)
			continue
		}
		var ce *chat.Error
		if !errors.As(err, &ce) || ce.Code != c.Code || !strings.Contains(ce.Message, c.Msg) {
			t.Errorf("CleanPath(%q): %v (code %q); want %s containing %q", c.Path, err, Code(err), c.Code, c.Msg)
		}
		if !errors.Is(err, chat.ErrInvalid) {
			t.Errorf("CleanPath(%q): error should wrap chat.ErrInvalid", c.Path)
		}
		if len(ce.Message) > 400 {
			t.Errorf("message too long for %q: %d bytes", c.Path[:20], len(ce.Message))
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
	if HasDrive(out) {
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
	if n, err := JailName("/" + out); err != nil || n != FSName(out) {
		t.Fatalf("jailName(/%s) = %q, %v", out, n, err)
	}
}

func FuzzCleanPath(f *testing.F) {
	for _, c := range workspacetest.HostilePaths {
		f.Add(c.Path)
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
