package approval

import (
	"context"
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

type rules map[string]string

func (r rules) AllowedBy(_ context.Context, tool, _ string) (string, error) { return r[tool], nil }

func TestAuto(t *testing.T) {
	ctx := context.Background()
	c := call("calc", `{}`)
	if by, guard, _ := Auto(ctx, rules{}, nil, c); by != "" || guard != "" {
		t.Fatalf("default must ask: %q %q", by, guard)
	}
	if by, _, _ := Auto(ctx, rules{"calc": chat.ByRuleGlobal}, nil, c); by != chat.ByRuleGlobal {
		t.Fatalf("rule not applied: %q", by)
	}
	by, guard, _ := Auto(ctx, rules{"calc": chat.ByRuleChat}, []chat.Call{c, c}, c)
	if by != "" || !strings.Contains(guard, "Loop guard") {
		t.Fatalf("guard must override the rule: %q %q", by, guard)
	}
	problem := c
	problem.State = chat.CallProblem
	if by, _, _ := Auto(ctx, rules{"calc": chat.ByRuleChat}, nil, problem); by != "" {
		t.Fatal("a problem call never runs by itself")
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
