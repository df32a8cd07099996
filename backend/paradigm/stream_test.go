package paradigm

import "testing"

// The call being written shows its own arguments so far, not the whole
// block with the call before it (issue 30, item 8).
func TestWritingShowsOnlyItsOwnArguments(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"```json\n[{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.md\"}},\n {\"name\": \"write_file\", \"arguments\": {\"path\": \"b.md\", \"cont",
			"{\"path\": \"b.md\", \"cont"},
		{"{\"name\": \"calculate\", \"arguments\": {\"expression\": \"2+", "{\"expression\": \"2+"},
		{"<invoke name=\"read_file\">\n<parameter name=\"path\">a", "<parameter name=\"path\">a"},
	} {
		got := Writing{Raw: c.raw}.Arguments()
		if got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.raw, got, c.want)
		}
	}
}
