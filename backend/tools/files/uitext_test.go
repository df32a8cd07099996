package files

import (
	"testing"

	"airlock/backend/tools"
	"airlock/backend/uitext"
	"github.com/spf13/afero"
)

// A card's summary and a tool's refusal reach the UI coded: the code, the
// parameters (counts and sizes as sentences of their own), and the English.
func TestPreviewsAndRefusalsAreCoded(t *testing.T) {
	fsys := afero.NewMemMapFs()
	pv, err := preview(fsys, "write_file", map[string]any{"path": "notes.md", "content": "a\nb\n"})
	if err != nil {
		t.Fatal(err)
	}
	tx := pv.SummaryText
	if tx == nil || tx.Code != "pv_create" || tx.English != pv.Summary || tx.Params["path"] != "notes.md" {
		t.Fatalf("summary text = %+v", tx)
	}
	lines, _ := tx.Params["lines"].(map[string]any)
	size, _ := tx.Params["size"].(map[string]any)
	if lines["code"] != "count_lines" || lines["params"].(map[string]any)["n"] != "2" || size["code"] != "size_bytes" {
		t.Fatalf("nested: lines %+v size %+v", lines, size)
	}

	put(t, fsys, "notes.md", "x\nx\n")
	_, err = tool("edit_file").Run(t.Context(), tools.Env{FS: fsys}, argsJSON(map[string]any{"path": "notes.md", "old_text": "x", "new_text": "y"}))
	rt, ok := uitext.Whole(err)
	if !ok || rt.Code != "edit_ambiguous" || rt.Params["n"] != "2" || rt.Params["path"] != "notes.md" || rt.Params["lines"] != "1, 2" {
		t.Fatalf("refusal = %+v (%v)", rt, err)
	}
}
