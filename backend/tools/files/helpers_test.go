package files

import (
	"encoding/json"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
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
		{"scratch", func(t *testing.T) (afero.Fs, string) { return workspace.NewScratch().FS(), "" }},
		{"folder", func(t *testing.T) (afero.Fs, string) {
			dir := t.TempDir()
			ws, err := workspace.OpenFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ws.Close() })
			return ws.FS(), dir
		}},
		{"overlay", func(t *testing.T) (afero.Fs, string) {
			dir := t.TempDir()
			ws, err := workspace.OpenOverlay(dir)
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

var runner = workspacetest.NewRunner(Tools())

var (
	tool     = runner.Tool
	call     = runner.Call
	mustCall = runner.MustCall
	argsJSON = workspacetest.ArgsJSON
	put      = workspacetest.Put
	get      = workspacetest.Get
	contains = workspacetest.Contains
	lacks    = workspacetest.Lacks
	wantCode = workspacetest.WantCode
)

// preview asks a tool that changes files what it would do.
func preview(fsys afero.Fs, name string, args any) (Preview, error) {
	raw, err := tool(name).Preview(tools.Env{FS: fsys}, argsJSON(args))
	if err != nil {
		return Preview{}, err
	}
	var pv Preview
	err = json.Unmarshal(raw, &pv)
	return pv, err
}
