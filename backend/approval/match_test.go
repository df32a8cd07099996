package approval

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// links is a fake workspace: clean paths that are symbolic links, and
// where they lead ("" for a loop).
type links map[string]string

func (l links) resolve(p string) (string, error) {
	for from, to := range l {
		if p == from || strings.HasPrefix(p, from+"/") {
			if to == "" {
				return "", errors.New("too many links")
			}
			return to + strings.TrimPrefix(p, from), nil
		}
	}
	return p, nil
}

var fakeLinks = links{"docs/x": "secrets", "docs/loop": "", "other/toDocs": "docs/real"}

func subject(tool, args string, pathArgs ...string) Subject {
	return Subject{Call: chat.Call{Name: tool, Arguments: json.RawMessage(args), ChatID: "c", MessageID: "m", State: chat.CallPending},
		PathArgs: pathArgs, Resolve: fakeLinks.resolve}
}

func pathRule(effect chat.RuleEffect, tool, folder string) chat.Rule {
	return chat.Rule{ID: 1, Effect: effect, Tool: tool, Match: chat.RuleMatch{Kind: chat.MatchPath, Path: folder}, Scope: chat.ScopeAlways}
}

func exactRule(effect chat.RuleEffect, tool, arg, value string) chat.Rule {
	return chat.Rule{ID: 2, Effect: effect, Tool: tool, Match: chat.RuleMatch{Kind: chat.MatchExact, Arg: arg, Value: json.RawMessage(value)}, Scope: chat.ScopeAlways}
}

const (
	cafeNFC = "docs/caf\u00e9"  // é as one code point
	cafeNFD = "docs/cafe\u0301" // e + combining acute
)

func TestPathRules(t *testing.T) {
	allowDocs := pathRule(chat.RuleAllow, "read_file", "docs")
	denySecrets := pathRule(chat.RuleDeny, "read_file", "secrets")
	read := func(path string) Subject { return subject("read_file", path, "path") }
	cases := []struct {
		name string
		rule chat.Rule
		s    Subject
		want bool
	}{
		{"a file in the folder", allowDocs, read(`{"path":"docs/a.md"}`), true},
		{"the folder itself", allowDocs, read(`{"path":"docs"}`), true},
		{"dot slash", allowDocs, read(`{"path":"./docs/a.md"}`), true},
		{"backslashes are separators", allowDocs, read(`{"path":"docs\\a.md"}`), true},
		{"dot-dot back in", allowDocs, read(`{"path":"docs/../docs/a.md"}`), true},
		{"traversal out of the folder", allowDocs, read(`{"path":"docs/../secrets/key"}`), false},
		{"traversal out of the workspace", allowDocs, read(`{"path":"../docs/a.md"}`), false},
		{"absolute", allowDocs, read(`{"path":"/docs/a.md"}`), false},
		{"drive letter", allowDocs, read(`{"path":"C:\\docs\\a.md"}`), false},
		{"NUL", allowDocs, read(`{"path":"docs/a.md\u0000"}`), false},
		{"a link out of the folder", allowDocs, read(`{"path":"docs/x/key"}`), false},
		{"a link that loops", allowDocs, read(`{"path":"docs/loop/a"}`), false},
		{"a link into the folder from outside", allowDocs, read(`{"path":"other/toDocs/a"}`), false},
		{"case differs", allowDocs, read(`{"path":"Docs/a.md"}`), false},
		{"a sibling sharing the prefix", allowDocs, read(`{"path":"docsx/a.md"}`), false},
		{"no path is the root", allowDocs, read(`{}`), false},
		{"null path is the root", allowDocs, read(`{"path":null}`), false},
		{"a path that is not a string", allowDocs, read(`{"path":5}`), false},
		{"arguments that are not an object", allowDocs, read(`["docs/a"]`), false},
		{"another tool", allowDocs, subject("write_file", `{"path":"docs/a.md"}`, "path"), false},
		{"a tool without path arguments", pathRule(chat.RuleAllow, "mcp__fs__read", "docs"), subject("mcp__fs__read", `{"path":"docs/a"}`), false},
		// Two names on Linux: an allow rule covers the bytes it names, a never rule both.
		{"NFD path, NFC rule", pathRule(chat.RuleAllow, "read_file", cafeNFC), read(`{"path":"` + cafeNFD + `/menu.md"}`), false},
		{"NFC path, NFD rule", pathRule(chat.RuleAllow, "read_file", cafeNFD), read(`{"path":"` + cafeNFC + `/menu.md"}`), false},
		{"never: NFD path, NFC rule", pathRule(chat.RuleDeny, "read_file", cafeNFC), read(`{"path":"` + cafeNFD + `/menu.md"}`), true},
		{"never: NFC path, NFD rule", pathRule(chat.RuleDeny, "read_file", cafeNFD), read(`{"path":"` + cafeNFC + `/menu.md"}`), true},
		{"the root folder covers the workspace", pathRule(chat.RuleAllow, "read_file", "."), read(`{"path":"a/b"}`), true},
		{"the root folder does not cover outside", pathRule(chat.RuleAllow, "read_file", "."), read(`{"path":"../a"}`), false},
		{"glob of folders", pathRule(chat.RuleAllow, "read_file", "src/*/gen"), read(`{"path":"src/api/gen/x.go"}`), true},
		{"glob of folders, deeper", pathRule(chat.RuleAllow, "read_file", "src/*/gen"), read(`{"path":"src/a/b/gen/x.go"}`), false},
		{"doublestar", pathRule(chat.RuleAllow, "read_file", "docs/**"), read(`{"path":"docs/a/b/c.md"}`), true},
		{"file glob", pathRule(chat.RuleAllow, "read_file", "docs/*.md"), read(`{"path":"docs/a.md"}`), true},
		{"file glob, other extension", pathRule(chat.RuleAllow, "read_file", "docs/*.md"), read(`{"path":"docs/a.txt"}`), false},
		{"a glob never covers the root", pathRule(chat.RuleAllow, "list_directory", "*"), subject("list_directory", `{}`, "path"), false},
		{"tool glob", pathRule(chat.RuleAllow, "*_file", "docs"), read(`{"path":"docs/a"}`), true},

		{"never: in the folder", denySecrets, read(`{"path":"secrets/key"}`), true},
		{"never: case differs", denySecrets, read(`{"path":"SECRETS/key"}`), true},
		{"never: traversal into it", denySecrets, read(`{"path":"docs/../secrets/key"}`), true},
		{"never: a link into it", denySecrets, read(`{"path":"docs/x/key"}`), true},
		{"never: elsewhere", denySecrets, read(`{"path":"docs/a.md"}`), false},
		{"never: outside the workspace", denySecrets, read(`{"path":"/secrets/key"}`), false},
		{"never: glob anywhere", pathRule(chat.RuleDeny, "read_file", "**/secrets"), read(`{"path":"a/b/Secrets/key"}`), true},
	}
	for _, c := range cases {
		if got := Matches(c.rule, c.s); got != c.want {
			t.Errorf("%s: Matches = %v, want %v", c.name, got, c.want)
		}
	}
}

// A rule on a tool with two paths (move_path) covers a call only when both
// are under the folder; a never rule, when either is.
func TestEveryPathArgument(t *testing.T) {
	move := func(src, dst string) Subject {
		return subject("move_path", `{"source":"`+src+`","destination":"`+dst+`"}`, "source", "destination")
	}
	allow := pathRule(chat.RuleAllow, "move_path", "docs")
	deny := pathRule(chat.RuleDeny, "move_path", "secrets")
	for _, c := range []struct {
		rule     chat.Rule
		src, dst string
		want     bool
	}{
		{allow, "docs/a", "docs/b", true},
		{allow, "docs/a", "out/b", false},
		{allow, "out/a", "docs/b", false},
		{deny, "docs/a", "secrets/a", true},
		{deny, "secrets/a", "docs/a", true},
		{deny, "docs/a", "docs/b", false},
	} {
		if got := Matches(c.rule, move(c.src, c.dst)); got != c.want {
			t.Errorf("%s %s → %s: %v, want %v", c.rule.Effect, c.src, c.dst, got, c.want)
		}
	}
}

func TestExactRules(t *testing.T) {
	read := func(path string) Subject { return subject("read_file", `{"path":"`+path+`","limit":5}`, "path") }
	git := func(args string) Subject { return subject("mcp__git__run", args) }
	cases := []struct {
		name string
		rule chat.Rule
		s    Subject
		want bool
	}{
		{"same path", exactRule(chat.RuleAllow, "read_file", "path", `"docs/a.md"`), read("docs/a.md"), true},
		{"same place, other spelling", exactRule(chat.RuleAllow, "read_file", "path", `"docs/a.md"`), read("./docs//a.md"), true},
		{"another file", exactRule(chat.RuleAllow, "read_file", "path", `"docs/a.md"`), read("docs/b.md"), false},
		{"traversal", exactRule(chat.RuleAllow, "read_file", "path", `"secrets/k"`), read("docs/../secrets/k"), true},
		{"the value through a link", exactRule(chat.RuleAllow, "read_file", "path", `"docs/x/k"`), read("docs/x/k"), false},
		{"never: the target of a link", exactRule(chat.RuleDeny, "read_file", "path", `"secrets/k"`), read("docs/x/k"), true},
		{"never: case", exactRule(chat.RuleDeny, "read_file", "path", `"secrets/k"`), read("Secrets/K"), true},
		{"allow: case", exactRule(chat.RuleAllow, "read_file", "path", `"docs/a.md"`), read("DOCS/a.md"), false},
		{"NFC and NFD values", exactRule(chat.RuleAllow, "read_file", "path", `"`+cafeNFC+`"`), read(cafeNFD), false},
		{"never: NFC and NFD values", exactRule(chat.RuleDeny, "read_file", "path", `"`+cafeNFC+`"`), read(cafeNFD), true},
		{"a plain value", exactRule(chat.RuleAllow, "mcp__git__run", "cmd", `"status"`), git(`{"cmd":"status"}`), true},
		{"a plain value, other", exactRule(chat.RuleAllow, "mcp__git__run", "cmd", `"status"`), git(`{"cmd":"status "}`), false},
		{"a plain value, other case", exactRule(chat.RuleAllow, "mcp__git__run", "cmd", `"status"`), git(`{"cmd":"STATUS"}`), false},
		{"the argument is missing", exactRule(chat.RuleAllow, "mcp__git__run", "cmd", `"status"`), git(`{}`), false},
		{"an object, keys in another order", exactRule(chat.RuleAllow, "mcp__git__run", "opts", `{"a":1,"b":[1,2]}`), git(`{"opts":{"b":[1,2],"a":1}}`), true},
		{"a number", exactRule(chat.RuleAllow, "mcp__git__run", "n", `1.0`), git(`{"n":1}`), true},
		{"a string is not a number", exactRule(chat.RuleAllow, "mcp__git__run", "n", `1`), git(`{"n":"1"}`), false},
		{"tool glob", exactRule(chat.RuleAllow, "mcp__git__*", "cmd", `"log"`), git(`{"cmd":"log"}`), true},
		{"tool glob, other server", exactRule(chat.RuleAllow, "mcp__git__*", "cmd", `"log"`), subject("mcp__gitx__run", `{"cmd":"log"}`), false},
	}
	for _, c := range cases {
		if got := Matches(c.rule, c.s); got != c.want {
			t.Errorf("%s: Matches = %v, want %v", c.name, got, c.want)
		}
	}
}

// The same rules on a real folder: the workspace's own resolution, with a
// real symbolic link leading out of docs.
func TestPathRulesOnAFolderWorkspace(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"docs", "secrets"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "secrets", "key"), []byte("k"), 0o600)
	if err := os.Symlink("../secrets", filepath.Join(dir, "docs", "x")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Symlink("../../outside", filepath.Join(dir, "docs", "out"))
	for _, open := range []func(string) (*workspace.Workspace, error){workspace.OpenFolder, workspace.OpenOverlay} {
		w, err := open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		s := func(p string) Subject {
			return Subject{Call: chat.Call{Name: "read_file", Arguments: json.RawMessage(`{"path":"` + p + `"}`)}, PathArgs: []string{"path"}, Resolve: w.Resolve}
		}
		allow, deny := pathRule(chat.RuleAllow, "read_file", "docs"), pathRule(chat.RuleDeny, "read_file", "secrets")
		if !Matches(allow, s("docs/new.md")) {
			t.Errorf("%s: a file not written yet is under docs", w.Kind())
		}
		if Matches(allow, s("docs/x/key")) {
			t.Errorf("%s: docs/x → ../secrets must not be under docs", w.Kind())
		}
		if !Matches(deny, s("docs/x/key")) {
			t.Errorf("%s: a never rule on secrets must catch the link into it", w.Kind())
		}
		if Matches(allow, s("docs/out/x")) {
			t.Errorf("%s: a link out of the workspace is under no folder", w.Kind())
		}
	}
}

func TestActive(t *testing.T) {
	const t0 = int64(1_700_000_000_000)
	c := chat.Call{ChatID: "c1", MessageID: "m1"}
	hour := chat.Rule{Scope: chat.ScopeHour, CreatedAt: t0, ExpiresAt: t0 + Hour}
	cases := []struct {
		name string
		r    chat.Rule
		now  int64
		want bool
	}{
		{"an hour rule within its hour", hour, t0 + Hour - 1, true},
		{"an hour rule at its end", hour, t0 + Hour, false},
		{"an hour rule after it", hour, t0 + 2*Hour, false},
		{"always", chat.Rule{Scope: chat.ScopeAlways}, t0 + 1000*Hour, true},
		{"this chat", chat.Rule{Scope: chat.ScopeChat, ChatID: "c1"}, t0, true},
		{"another chat", chat.Rule{Scope: chat.ScopeChat, ChatID: "c2"}, t0, false},
		{"a chat rule without its chat", chat.Rule{Scope: chat.ScopeChat}, t0, false},
		{"this answer", chat.Rule{Scope: chat.ScopeCall, ChatID: "c1", MessageID: "m1"}, t0, true},
		{"a later answer", chat.Rule{Scope: chat.ScopeCall, ChatID: "c1", MessageID: "m2"}, t0, false},
		{"a session rule tied to another chat", chat.Rule{Scope: chat.ScopeSession, ChatID: "c2"}, t0, false},
	}
	for _, x := range cases {
		if got := Active(x.r, c, x.now); got != x.want {
			t.Errorf("%s: Active = %v, want %v", x.name, got, x.want)
		}
	}
}
