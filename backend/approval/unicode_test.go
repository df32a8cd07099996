package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// Rules decide on the bytes the tool opens (issue 31, item 1). On Linux
// "déjà" written with one code point per letter (NFC) and with combining
// accents (NFD) are two folders, and so are "Kit" and "\u212Ait" (the
// Kelvin sign, which NFC turns into K): an allow rule under one must not
// cover the other, which here is a link to a private folder. A never rule
// reads broadly: any of those spellings, and Unicode case folding (ſ is s).
func TestRulesDecideOnTheBytesTheToolOpens(t *testing.T) {
	const (
		dejaNFC = "d\u00e9j\u00e0"
		dejaNFD = "de\u0301ja\u0300"
		kit     = "Kit"
		kelvin  = "\u212Ait"
	)
	dir := t.TempDir()
	for _, d := range []string{dejaNFC, kit, "private"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "private", "key"), []byte("k"), 0o600)
	if err := os.Symlink("private", filepath.Join(dir, dejaNFD)); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("private", filepath.Join(dir, kelvin)); err != nil {
		t.Fatal(err)
	}
	for _, open := range []func(string) (*workspace.Workspace, error){workspace.OpenFolder, workspace.OpenOverlay} {
		w, err := open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		read := func(p string) Subject {
			args, _ := json.Marshal(map[string]string{"path": p})
			return Subject{Call: chat.Call{Name: "read_file", Arguments: args}, PathArgs: []string{"path"}, Resolve: w.Resolve}
		}
		cases := []struct {
			name string
			rule chat.Rule
			s    Subject
			want bool
		}{
			{"allow NFC folder, NFC path", pathRule(chat.RuleAllow, "read_file", dejaNFC), read(dejaNFC + "/a"), true},
			{"allow NFC folder, NFD link to private", pathRule(chat.RuleAllow, "read_file", dejaNFC), read(dejaNFD + "/key"), false},
			{"allow Kit, Kelvin-sign link to private", pathRule(chat.RuleAllow, "read_file", kit), read(kelvin + "/key"), false},
			{"allow exact NFC path, NFD spelling", exactRule(chat.RuleAllow, "read_file", "path", `"`+dejaNFC+`/key"`), read(dejaNFD + "/key"), false},
			{"never NFC folder, NFD spelling", pathRule(chat.RuleDeny, "read_file", dejaNFC), read(dejaNFD + "/x"), true},
			{"never Kit, Kelvin sign", pathRule(chat.RuleDeny, "read_file", "kit"), read(kelvin + "/x"), true},
			{"never secrets, long s", pathRule(chat.RuleDeny, "read_file", "secrets"), read("\u017fecrets/key"), true},
			{"never glob, long s", pathRule(chat.RuleDeny, "read_file", "**/secrets"), read("a/\u017fECRETS/key"), true},
			{"never exact, long s", exactRule(chat.RuleDeny, "read_file", "path", `"secrets/key"`), read("\u017fecrets/key"), true},
			{"never private, through the NFD link", pathRule(chat.RuleDeny, "read_file", "private"), read(dejaNFD + "/key"), true},
		}
		for _, c := range cases {
			if got := Matches(c.rule, c.s); got != c.want {
				t.Errorf("%s: %s: Matches = %v, want %v", w.Kind(), c.name, got, c.want)
			}
		}
	}
}

// Keys written twice, or differing only by case, make the arguments
// ambiguous: Go reads the last, other readers the first, a case-insensitive
// server either (issue 31, item 3). No allow rule on a value or a path
// matches them; a never rule matches any reading.
func TestAmbiguousKeysNeverMatchAnExactRule(t *testing.T) {
	git := func(args string) Subject { return subject("mcp__git__push", args) }
	read := func(args string) Subject { return subject("read_file", args, "path") }
	origin := exactRule(chat.RuleAllow, "mcp__git__push", "remote", `"origin"`)
	cases := []struct {
		name string
		rule chat.Rule
		s    Subject
		want bool
	}{
		{"plain", origin, git(`{"remote":"origin"}`), true},
		{"a key differing by case", origin, git(`{"remote":"origin","REMOTE":"attacker"}`), false},
		{"a key written twice", origin, git(`{"remote":"attacker","remote":"origin"}`), false},
		{"a look-alike key (Kelvin sign)", exactRule(chat.RuleAllow, "mcp__git__push", "key", `1`), git(`{"key":1,"\u212Aey":2}`), false},
		{"a nested key written twice", exactRule(chat.RuleAllow, "mcp__git__push", "opts", `{"a":2}`), git(`{"opts":{"a":1,"a":2}}`), false},
		{"ambiguity elsewhere in the arguments", origin, git(`{"remote":"origin","force":false,"Force":true}`), false},
		{"never: the other reading", exactRule(chat.RuleDeny, "mcp__git__push", "remote", `"attacker"`), git(`{"remote":"origin","REMOTE":"attacker"}`), true},
		{"never: the first of two", exactRule(chat.RuleDeny, "mcp__git__push", "remote", `"attacker"`), git(`{"remote":"attacker","remote":"origin"}`), true},
		{"allow path, a second path key", pathRule(chat.RuleAllow, "read_file", "docs"), read(`{"path":"docs/a","PATH":"secrets/k"}`), false},
		{"never path, a second path key", pathRule(chat.RuleDeny, "read_file", "secrets"), read(`{"path":"docs/a","Path":"secrets/k"}`), true},
		{"allow path, a path written twice", exactRule(chat.RuleAllow, "read_file", "path", `"docs/a"`), read(`{"path":"secrets/k","path":"docs/a"}`), false},
	}
	for _, c := range cases {
		if got := Matches(c.rule, c.s); got != c.want {
			t.Errorf("%s: Matches = %v, want %v", c.name, got, c.want)
		}
	}
}
