package approval

import (
	"encoding/json"
	"strings"
	"testing"

	"airlock/backend/chat"
)

// BenchmarkMatchesALargeWrite: an allow and a never rule on folders,
// against write_file arguments at the 5 MB cap.
func BenchmarkMatchesALargeWrite(b *testing.B) {
	args, _ := json.Marshal(map[string]string{"path": "docs/notes.md", "content": strings.Repeat("a line of text\n", 5<<20/15)})
	s := subject("write_file", string(args), "path")
	allow, deny := pathRule(chat.RuleAllow, "write_file", "docs"), pathRule(chat.RuleDeny, "write_file", "secrets")
	b.SetBytes(int64(len(args)))
	for range b.N {
		Matches(allow, s)
		Matches(deny, s)
	}
}
