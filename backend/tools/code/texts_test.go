package code

import (
	"encoding/json"
	"testing"

	"airlock/backend/uitext"
)

// The code tools' refusals and the limits' checks are coded whole, so the
// card and the Settings form show them in the UI's language.
func TestCodeRefusalsAreCoded(t *testing.T) {
	for raw, code := range map[string]string{
		`[1]`:                          "code_args_not_object",
		`{}`:                           "code_needs_code",
		`{"code":"1","timeout":"abc"}`: "code_bad_timeout",
		`{"code":"1","read_only":"x"}`: "code_bad_read_only",
	} {
		_, err := decodeArgs("run_python", json.RawMessage(raw))
		if tx, ok := uitext.Whole(err); !ok || tx.Code != code {
			t.Errorf("%s: %v → %+v", raw, err, tx)
		}
	}
	l := DefaultLimits()
	l.MemoryMiB, l.OutputKiB = 1, 0
	tx, ok := uitext.Whole(l.Validate())
	list, _ := tx.Params["issues"].([]uitext.Text)
	if !ok || tx.Code != "code_limits" || len(list) != 2 || list[0].Code != "code_limit_memory" || list[1].Code != "code_limit_output" {
		t.Fatalf("%+v", tx)
	}
}
