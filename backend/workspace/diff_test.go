package workspace_test

import (
	"strings"
	"testing"

	. "airlock/backend/workspace"
)

func TestIsBinary(t *testing.T) {
	cases := []struct {
		data string
		want bool
	}{
		{"", false},
		{"plain text\n", false},
		{"héllo wörld ✓ 漢字\n", false},
		{"a\x00b", true},
		{"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", true},
		{strings.Repeat("é", BinarySniffBytes), false}, // a rune cut by the sample's end is not "invalid"
		{"mostly text with one bad byte \xff in it, which is fine", false},
	}
	for _, c := range cases {
		if got := IsBinary([]byte(c.data)); got != c.want {
			t.Errorf("IsBinary(%q) = %v", c.data[:min(len(c.data), 30)], got)
		}
	}
}
