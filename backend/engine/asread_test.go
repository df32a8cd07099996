package engine

import "testing"

func TestArgsAsRead(t *testing.T) {
	for raw, want := range map[string]string{
		`{"expression": "17*23", oops}`: `{"expression":"17*23"`, // native arguments, broken
		"```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"teleport\",\"arguments\":{\"to\":\"Mars\"}}]}\n```": `{"to":"Mars"}`,
		`{"name":"calc","arguments":"{\"a\":1}"}`: `{"a":1}`,
		`{"name":"calc"}`:                         ``,
		`no braces at all`:                        ``,
	} {
		got := string(argsAsRead(raw))
		if want == "" && got != "" || want != "" && (len(got) < len(want) || got[:len(want)] != want) {
			t.Errorf("argsAsRead(%q) = %q, want %q…", raw, got, want)
		}
	}
}
