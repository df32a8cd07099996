package paradigm

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run go test -update if the change is intended)\n--- got ---\n%s", path, got)
	}
}

func testSpecs(t *testing.T) []tools.Spec {
	specs, err := tools.ParseSpecs([]byte(testTools))
	if err != nil {
		t.Fatal(err)
	}
	return specs
}

var testResults = []chat.ToolResult{
	{CallID: "call_1", Name: "read_file", Status: chat.ToolSuccess, Content: "# Notes\n\n- buy \"milk\" <today>\n"},
	{CallID: "call_2", Name: "list_dir", Status: chat.ToolSuccess, Content: `{"entries": ["a.md", "b.md"]}`},
	{CallID: "call_3", Name: "write_file", Status: chat.ToolError, Content: "Tool \"write_file\": missing required argument \"content\"."},
	{CallID: "call_4", Name: "write_file", Status: chat.ToolDenied, Content: "The user denied this call."},
}

func TestGoldenPrompts(t *testing.T) {
	specs := testSpecs(t)
	for _, p := range All() {
		golden(t, "prompt_"+p.ID()+".golden", p.Prompt(specs))
		if p.Prompt(nil) != "" {
			t.Errorf("%s: a prompt without tools should be empty", p.ID())
		}
	}
}

func TestGoldenResults(t *testing.T) {
	for _, p := range All() {
		golden(t, "results_"+p.ID()+".golden", p.FormatResults(testResults))
	}
}

func TestGoldenFormats(t *testing.T) {
	data, err := json.MarshalIndent(Formats(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "formats.golden", string(data)+"\n")
}
