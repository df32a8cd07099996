package workspace

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// backend is one kind of filesystem the tools must work on.
type backend struct {
	name string
	// open returns the fs the tools use, and the real folder behind it ("" for memory).
	open func(t *testing.T) (afero.Fs, string)
}

func backends() []backend {
	return []backend{
		{"memmap", func(t *testing.T) (afero.Fs, string) { return afero.NewMemMapFs(), "" }},
		{"scratch", func(t *testing.T) (afero.Fs, string) { return NewScratch().FS(), "" }},
		{"folder", func(t *testing.T) (afero.Fs, string) {
			dir := t.TempDir()
			ws, err := OpenFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ws.Close() })
			return ws.FS(), dir
		}},
		{"overlay", func(t *testing.T) (afero.Fs, string) {
			dir := t.TempDir()
			ws, err := OpenOverlay(dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ws.Close() })
			return ws.FS(), dir
		}},
	}
}

func eachBackend(t *testing.T, fn func(t *testing.T, fsys afero.Fs)) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			fsys, _ := b.open(t)
			fn(t, fsys)
		})
	}
}

func tool(name string) ToolDef {
	for _, d := range Tools() {
		if d.Name == name {
			return d
		}
	}
	panic("no tool " + name)
}

func argsJSON(args any) json.RawMessage {
	if s, ok := args.(string); ok {
		return json.RawMessage(s)
	}
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return b
}

func call(fsys afero.Fs, name string, args any) (string, error) {
	return tool(name).Run(context.Background(), fsys, argsJSON(args))
}

func preview(fsys afero.Fs, name string, args any) (Preview, error) {
	return tool(name).Preview(fsys, argsJSON(args))
}

func mustCall(t *testing.T, fsys afero.Fs, name string, args any) string {
	t.Helper()
	out, err := call(fsys, name, args)
	if err != nil {
		t.Fatalf("%s(%v): %v", name, string(argsJSON(args)), err)
	}
	return out
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got nil", code)
	}
	if got := Code(err); got != code {
		t.Fatalf("want code %s, got %q (%v)", code, got, err)
	}
}

func put(t *testing.T, fsys afero.Fs, name, content string) {
	t.Helper()
	if err := fsys.MkdirAll(fsName(parentOf(name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fsys, fsName(name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, fsys afero.Fs, name string) string {
	t.Helper()
	b, err := afero.ReadFile(fsys, fsName(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeDisk(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readDisk(t *testing.T, dir, name string) (string, bool) {
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

func contains(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Fatalf("want %q in:\n%s", sub, s)
		}
	}
}

func lacks(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			t.Fatalf("did not want %q in:\n%s", sub, s)
		}
	}
}
