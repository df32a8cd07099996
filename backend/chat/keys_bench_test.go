package chat

import (
	"encoding/json"
	"strings"
	"testing"
)

// BenchmarkAmbiguousKeys: the check every call read from the store gets,
// on write_file arguments at the 5 MB cap.
func BenchmarkAmbiguousKeys(b *testing.B) {
	args, _ := json.Marshal(map[string]string{"path": "notes.md", "content": strings.Repeat("a line of text\n", 5<<20/15)})
	b.SetBytes(int64(len(args)))
	for range b.N {
		AmbiguousKeys(args)
	}
}
