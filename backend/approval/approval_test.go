package approval

import (
	"encoding/json"
	"strings"
	"testing"

	"airlock/backend/chat"
)

func call(name, args string) chat.Call {
	return chat.Call{Name: name, Arguments: json.RawMessage(args), ChatID: "c", State: chat.CallPending}
}

func TestLoopGuard(t *testing.T) {
	same := call("calc", `{"a":1,"b":2}`)
	cases := []struct {
		name     string
		previous []chat.Call
		guarded  bool
	}{
		{"first call", nil, false},
		{"second identical", []chat.Call{same}, false},
		{"third identical", []chat.Call{same, same}, true},
		{"third identical, keys reordered", []chat.Call{call("calc", `{"b":2,"a":1}`), call("calc", `{"a": 1, "b": 2}`)}, true},
		{"different arguments in between", []chat.Call{same, call("calc", `{"a":9}`), same}, false},
		{"other tool in between", []chat.Call{same, call("time", `{}`)}, false},
	}
	for _, c := range cases {
		got := LoopGuard(c.previous, same)
		if (got != "") != c.guarded {
			t.Errorf("%s: guard = %q", c.name, got)
		}
	}
	// An edit counts as what ran.
	edited := same
	edited.Edited = json.RawMessage(`{"a":5}`)
	if LoopGuard([]chat.Call{same, edited}, same) != "" {
		t.Error("an edited call is not the same call")
	}
}

func TestDenialText(t *testing.T) {
	if !strings.Contains(DenialText(" too risky "), "Reason: too risky") {
		t.Fatal(DenialText("too risky"))
	}
	if !strings.Contains(DenialText(""), "denied") {
		t.Fatal(DenialText(""))
	}
}
