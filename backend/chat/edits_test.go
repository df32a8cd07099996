package chat

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestArgumentChanges(t *testing.T) {
	for _, c := range []struct{ before, after, want string }{
		{`{"path":"a.txt","force":true}`, `{"path":"b.txt"}`, `path "a.txt" → "b.txt"; removed "force"`},
		{`{"a":1}`, `{"a":1,"limit":5}`, `added "limit" = 5`},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, ``},
		{`{"o":{"x":1,"y":2}}`, `{"o":{"y":2,"x":1}}`, ``},
		{`[1]`, `[2]`, `arguments [1] → [2]`},
		{``, `{"a":"é"}`, `added "a" = "é"`},
	} {
		if got := ArgumentChanges(json.RawMessage(c.before), json.RawMessage(c.after)); got != c.want {
			t.Errorf("%s → %s: %q, want %q", c.before, c.after, got, c.want)
		}
	}
	long := ArgumentChanges(json.RawMessage(`{"c":"`+strings.Repeat("x", 5000)+`"}`), json.RawMessage(`{"c":"y"}`))
	if len(long) > 1100 || !strings.Contains(long, "…") {
		t.Errorf("a long value is cut: %d bytes", len(long))
	}
}

func TestEditNoteGoesToTheModel(t *testing.T) {
	edited := Call{ModelCallID: "c1", Name: "read_file", State: CallDone, Arguments: json.RawMessage(`{"path":"a.txt","force":true}`),
		Edited: json.RawMessage(`{"path":"b.txt"}`), Result: "B", ResultState: ToolSuccess}
	want := "The user edited the arguments before running: path \"a.txt\" → \"b.txt\"; removed \"force\".\n\nB"
	if got := edited.ToolResult().Content; got != want {
		t.Errorf("edited: %q", got)
	}
	plain := edited
	plain.Edited = nil
	if got := plain.ToolResult().Content; got != "B" {
		t.Errorf("not edited: %q", got)
	}
	denied := edited
	denied.State, denied.Result = CallDenied, "no"
	if got := denied.ToolResult().Content; got != "no" {
		t.Errorf("a denied call ran nothing: %q", got)
	}
	fixed := Call{Name: "echo", State: CallDone, Problem: "unknown tool ech", Arguments: json.RawMessage(`{"text":1}`),
		Edited: json.RawMessage(`{"text":"fixed"}`), Result: "echo: fixed", ResultState: ToolSuccess}
	got := fixed.ToolResult().Content
	if !strings.HasPrefix(got, `The user fixed this call before running it; it ran as echo with {"text":"fixed"}. Changes: text 1 → "fixed".`) ||
		!strings.HasSuffix(got, "echo: fixed") {
		t.Errorf("fixed: %q", got)
	}
	told := Call{Name: "ech", State: CallProblem, Problem: "unknown tool", Result: "unknown tool", ResultState: ToolError}
	if got := told.ToolResult().Content; got != "unknown tool" {
		t.Errorf("a problem told to the model is not a fix: %q", got)
	}
}

func TestBoundJSON(t *testing.T) {
	if BoundJSON(nil, 10) != nil || BoundJSON(json.RawMessage("null"), 10) != nil {
		t.Error("nothing stays nothing")
	}
	if got := string(BoundJSON(json.RawMessage(`{ "a" : 1 }`), 100)); got != `{"a":1}` {
		t.Errorf("small: %s", got)
	}
	big := json.RawMessage(`{"diff":"` + strings.Repeat("+line\\n", 20000) + `","path":"a"}`)
	got := BoundJSON(big, 8<<10)
	if len(got) > 8<<10 || !json.Valid(got) || !strings.Contains(string(got), `"path":"a"`) {
		t.Errorf("big: %d bytes: %.200s", len(got), got)
	}
	many := json.RawMessage(`[` + strings.Repeat(`"xxxxxxxxxx",`, 5000) + `"x"]`)
	if got := BoundJSON(many, 1000); !json.Valid(got) || len(got) > 1000 || !strings.Contains(string(got), "truncated") {
		t.Errorf("too many values: %s", got)
	}
	if got := BoundJSON(json.RawMessage(`not json`), 100); !json.Valid(got) {
		t.Errorf("not JSON: %s", got)
	}
}

func TestDeciders(t *testing.T) {
	for by, want := range map[string]int64{"rule:12": 12, "rule:0": 0, "rule:chat": 0, "rule:-3": 0, "user": 0, "rule:": 0} {
		if got := RuleID(by); got != want {
			t.Errorf("RuleID(%q) = %d", by, got)
		}
	}
	for by, want := range map[string]bool{"user": true, "rule:7": true, "rule:chat": true, "loop_guard": true, "turn_cap": true,
		"new_message": true, "timeout": true, "system": true, "rule:x": false, "admin": false, "": false} {
		if got := ValidDecidedBy(by); got != want {
			t.Errorf("ValidDecidedBy(%q) = %v", by, got)
		}
	}
	if (Rule{ID: 9}).By() != "rule:9" {
		t.Error("By")
	}
}
