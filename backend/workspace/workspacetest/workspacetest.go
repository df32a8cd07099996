// Package workspacetest helps test the workspaces and the tools that run
// on them: files on an afero.Fs or on disk, the hostile paths every entry
// point must refuse, and running tools by name.
package workspacetest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

// Put writes a file of fsys, creating its folders; name is a clean path.
func Put(t *testing.T, fsys afero.Fs, name, content string) {
	t.Helper()
	if err := fsys.MkdirAll(workspace.FSName(workspace.ParentOf(name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fsys, workspace.FSName(name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Get reads a file of fsys; name is a clean path.
func Get(t *testing.T, fsys afero.Fs, name string) string {
	t.Helper()
	b, err := afero.ReadFile(fsys, workspace.FSName(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// WriteDisk writes a file under the real folder dir.
func WriteDisk(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadDisk reads a file under the real folder dir; false when it is absent.
func ReadDisk(t *testing.T, dir, name string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// ListOS lists the names in a real folder, sorted.
func ListOS(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// SnapshotOS describes a folder tree (names and contents) for comparison.
func SnapshotOS(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + " " + fi.Mode().String())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			b.WriteString(" " + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// SymlinkFixture builds ws/ with links pointing out of it, and a sibling
// folder "outside" holding a secret. It skips the test where links are
// unavailable.
func SymlinkFixture(t *testing.T) (ws, outside string) {
	t.Helper()
	parent := t.TempDir()
	ws = filepath.Join(parent, "ws")
	outside = filepath.Join(parent, "outside")
	for _, d := range []string{ws, outside, filepath.Join(ws, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	WriteDisk(t, outside, "secret.txt", "TOP SECRET token\n")
	WriteDisk(t, ws, "sub/real.txt", "real inside\n")
	links := map[string]string{
		"out":       outside,                              // absolute, to a sibling folder
		"outrel":    "../outside",                         // relative, leaving
		"secret":    filepath.Join(outside, "secret.txt"), // a file outside
		"etc":       "/etc",                               // a system folder
		"sub/up":    "../../outside/secret.txt",           // nested, leaving
		"inside":    "sub",                                // relative, staying inside: followed
		"insideabs": filepath.Join(ws, "sub", "real.txt"), // absolute, even if inside: refused
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, filepath.FromSlash(name))); err != nil {
			t.Skipf("symbolic links unavailable: %v", err)
		}
	}
	return ws, outside
}

// Contains fails unless s holds every one of subs.
func Contains(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Fatalf("want %q in:\n%s", sub, s)
		}
	}
}

// Lacks fails if s holds any of subs.
func Lacks(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			t.Fatalf("did not want %q in:\n%s", sub, s)
		}
	}
}

// WantCode fails unless err is a *chat.Error with the code.
func WantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got nil", code)
	}
	if got := workspace.Code(err); got != code {
		t.Fatalf("want code %s, got %q (%v)", code, got, err)
	}
}

// HostilePath is a path every entry point must refuse, with the code and a
// part of the message it is refused with.
type HostilePath struct {
	Path string
	Code string
	Msg  string
}

// HostilePaths is the traversal table every entry point is tested with.
var HostilePaths = []HostilePath{
	{"../x", workspace.CodePathOutside, "leaves the workspace; use a path relative to the workspace root"},
	{"..", workspace.CodePathOutside, "leaves the workspace"},
	{"a/../../x", workspace.CodePathOutside, "leaves the workspace"},
	{"../../etc/passwd", workspace.CodePathOutside, `path "../../etc/passwd" leaves the workspace; use a path relative to the workspace root`},
	{`..\..\x`, workspace.CodePathOutside, "leaves the workspace"},
	{`a\..\..\x`, workspace.CodePathOutside, "leaves the workspace"},
	{"/etc/passwd", workspace.CodePathOutside, `is absolute; use a path relative to the workspace root (for example "passwd")`},
	{"/", workspace.CodePathOutside, "is absolute"},
	{"//server/share/x", workspace.CodePathOutside, "is absolute"},
	{`\\host\share`, workspace.CodePathOutside, "is absolute"},
	{`\\?\C:\Windows`, workspace.CodePathOutside, "is absolute"},
	{`C:\Windows`, workspace.CodePathOutside, "names a drive"},
	{"C:/Windows", workspace.CodePathOutside, "names a drive"},
	{"c:foo", workspace.CodePathOutside, "names a drive"},
	{"C:", workspace.CodePathOutside, "names a drive"},
	{"~", workspace.CodePathOutside, "home folder"},
	{"~/.ssh/id_rsa", workspace.CodePathOutside, "home folder"},
	{"./~", workspace.CodePathOutside, "home folder"},    // found by the fuzzer
	{`.\A:`, workspace.CodePathOutside, "names a drive"}, // found by the fuzzer
	{"a/../C:/x", workspace.CodePathOutside, "names a drive"},
	{"a\x00b", workspace.CodePathInvalid, "contains a NUL byte"},
	{"notes.md\x00.png", workspace.CodePathInvalid, "NUL"},
	{"a\nb", workspace.CodePathInvalid, "control character"},
	{"a\x1bb", workspace.CodePathInvalid, "control character"},
	{"a\u0085b", workspace.CodePathInvalid, "control character"},
	{"bad\xffutf8", workspace.CodePathInvalid, "not valid UTF-8"},
	{strings.Repeat("a/", workspace.MaxPathBytes/2+1), workspace.CodePathInvalid, "too long"},
	{strings.Repeat("n", workspace.MaxNameBytes+1), workspace.CodePathInvalid, "longer than 255 bytes"},
}

// ArgsJSON is a tool call's arguments: a JSON string as is, anything else
// marshalled.
func ArgsJSON(args any) json.RawMessage {
	if s, ok := args.(string); ok {
		return json.RawMessage(s)
	}
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return b
}

// Runner runs tools by name on a filesystem, as the engine runs them on a
// chat's workspace.
type Runner map[string]tools.Tool

// NewRunner indexes the tools by name.
func NewRunner(ts []tools.Tool) Runner {
	r := Runner{}
	for _, tl := range ts {
		r[tl.Name] = tl
	}
	return r
}

// Tool returns the tool called name; there must be one.
func (r Runner) Tool(name string) tools.Tool {
	tl, ok := r[name]
	if !ok {
		panic("no tool " + name)
	}
	return tl
}

// Call runs a tool and returns the text the model would read.
func (r Runner) Call(fsys afero.Fs, name string, args any) (string, error) {
	out, err := r.Tool(name).Run(context.Background(), tools.Env{FS: fsys}, ArgsJSON(args))
	return out.Text, err
}

// MustCall runs a tool that must succeed.
func (r Runner) MustCall(t *testing.T, fsys afero.Fs, name string, args any) string {
	t.Helper()
	out, err := r.Call(fsys, name, args)
	if err != nil {
		t.Fatalf("%s(%v): %v", name, string(ArgsJSON(args)), err)
	}
	return out
}
