package tools

import (
	"strings"
	"testing"

	"airlock/backend/tools/ojson"
	"airlock/backend/uitext"
)

// The registry's refusals reach a problem card coded (issue 30 item 7);
// the English the model reads is unchanged.
func TestRegistryRefusalsAreCodedWhole(t *testing.T) {
	r, err := NewRegistry([]Spec{{Name: "read_file", Description: "Read.", Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string"},"mode":{"enum":["a","b"]}},"required":["path"],"additionalProperties":false}`)}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, args ojson.Object, code string, issues ...string) {
		t.Helper()
		_, _, err := r.Check(name, args)
		tx, ok := uitext.Whole(err)
		if !ok || tx.Code != code || tx.English != err.Error() {
			t.Fatalf("%s: %+v %v (%v)", name, tx, ok, err)
		}
		list, _ := tx.Params["issues"].([]uitext.Text)
		for i, want := range issues {
			if i >= len(list) || list[i].Code != want {
				t.Fatalf("issues %+v, want %v", list, issues)
			}
		}
	}
	check("read_fil", nil, "unknown_tool_suggest")
	check("zzz", nil, "unknown_tool")
	check("read_file", ojson.Object{}, "argument_error_hint", "issue_missing_argument")
	check("read_file", ojson.Object{{Key: "path", Value: "a"}, {Key: "x", Value: "1"}}, "argument_error_hint", "issue_unknown_argument")
	check("read_file", ojson.Object{{Key: "path", Value: "a"}, {Key: "mode", Value: "c"}}, "argument_error_hint", "issue_enum")
	many := make([]string, 35)
	for i := range many {
		many[i] = "tool_" + strings.Repeat("x", i+1)
	}
	tx := (&UnknownToolError{Name: "q", Known: many}).UIText()
	if inner, ok := tx.Params["tools"].(uitext.Text); !ok || inner.Code != "tools_and_more" || !strings.HasSuffix(tx.English, " and 5 more.") {
		t.Fatalf("%+v", tx)
	}
	if tx := (&UnknownToolError{Name: "q"}).UIText(); tx.Code != "unknown_tool_none" {
		t.Fatalf("%+v", tx)
	}
}
