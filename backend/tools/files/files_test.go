package files

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

func TestToolsCatalogue(t *testing.T) {
	want := []string{"list_directory", "read_file", "write_file", "edit_file", "search_files",
		"find_files", "make_directory", "move_path", "delete_path"}
	defs := Tools()
	if len(defs) != len(want) {
		t.Fatalf("got %d tools", len(defs))
	}
	writers := map[string]bool{"write_file": true, "edit_file": true, "move_path": true, "delete_path": true, "make_directory": true}
	for i, d := range defs {
		if d.Name != want[i] {
			t.Errorf("tool %d is %s, want %s", i, d.Name, want[i])
		}
		if len(d.Description) < 150 {
			t.Errorf("%s: description too thin for a model: %q", d.Name, d.Description)
		}
		if (d.Preview != nil) != writers[d.Name] || d.Changes != writers[d.Name] {
			t.Errorf("%s: preview presence or Changes wrong", d.Name)
		}
		if d.Kind != tools.KindFiles {
			t.Errorf("%s: kind %q", d.Name, d.Kind)
		}
		// The schema compiles as JSON Schema and describes every property.
		c := jsonschema.NewCompiler()
		var doc any
		if err := json.Unmarshal(d.Parameters, &doc); err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource(d.Name+".json", doc); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Compile(d.Name + ".json"); err != nil {
			t.Errorf("%s: schema does not compile: %v", d.Name, err)
		}
		props := doc.(map[string]any)["properties"].(map[string]any)
		for k, v := range props {
			if desc, _ := v.(map[string]any)["description"].(string); desc == "" {
				t.Errorf("%s.%s has no description", d.Name, k)
			}
		}
	}
}

var update = flag.Bool("update", false, "rewrite testdata/specs.golden.json")

// The specs are what the model is told; derived from the argument types,
// they change only when this golden file is updated on purpose.
func TestSpecsGolden(t *testing.T) {
	var specs []tools.Spec
	for _, tl := range Tools() {
		specs = append(specs, tl.Spec)
	}
	got, err := json.MarshalIndent(specs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const path = "testdata/specs.golden.json"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the specs differ from %s (run go test -update if the change is intended)\n%s", path, got)
	}
}

func TestArgumentLeniency(t *testing.T) {
	fsys := afero.NewMemMapFs()
	put(t, fsys, "a.txt", "1\n2\n3\n")
	// Numbers and booleans written as strings are accepted.
	out := mustCall(t, fsys, "read_file", `{"path":"a.txt","offset":"2","limit":1.0}`)
	contains(t, out, "2\n[truncated: showing lines 2-2")
	mustCall(t, fsys, "list_directory", `{"recursive":"true"}`)
	_, err := call(fsys, "read_file", `{"path":"a.txt","offset":"two"}`)
	wantCode(t, err, workspace.CodeInvalidArgs)
	_, err = call(fsys, "read_file", `["a.txt"]`)
	wantCode(t, err, workspace.CodeInvalidArgs)
	_, err = call(fsys, "read_file", `{"path":5}`)
	wantCode(t, err, workspace.CodeInvalidArgs)
	contains(t, err.Error(), `"path" must be a string`)
}

func TestToolsHonourCancellation(t *testing.T) {
	fsys := afero.NewMemMapFs()
	for i := range 50 {
		put(t, fsys, fmt.Sprintf("d%d/f.txt", i), "x\n")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tool("search_files").Run(ctx, tools.Env{FS: fsys}, argsJSON(map[string]any{"pattern": "x"}))
	if err == nil {
		t.Fatal("a cancelled search must stop")
	}
}
