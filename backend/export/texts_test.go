package export

import (
	"strings"
	"testing"

	"airlock/backend/uitext"
)

// A file the Data panel cannot import says why in a coded sentence: the
// frame always, the reasons met most by their own codes; the English reads
// as before.
func TestImportRefusalsAreCoded(t *testing.T) {
	for in, reason := range map[string]string{
		"":                            "import_empty",
		`{"format": "airlock-export"`: "import_truncated",
		`{"format": "other", "version": 1, "chats": []}`: "import_wrong_format",
		`"hello"`: "import_not_recognised",
	} {
		_, _, err := Read(strings.NewReader(in))
		tx, ok := uitext.Whole(err)
		if !ok || tx.Code != "cannot_import" || !strings.HasPrefix(err.Error(), "cannot import: ") {
			t.Fatalf("%q: %v → %+v", in, err, tx)
		}
		if r, _ := tx.Params["reason"].(uitext.Text); r.Code != reason {
			t.Errorf("%q: reason %+v, want %s", in, r, reason)
		}
	}
	tx, _ := uitext.Whole(importError("%s.id: empty", "chats[0]"))
	if r, _ := tx.Params["reason"].(uitext.Text); r.Code != "" || r.English != "chats[0].id: empty" {
		t.Fatalf("a field's path is kept as written: %+v", r)
	}
}
