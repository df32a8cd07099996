package engine

import (
	"context"
	"sync"
	"testing"

	"airlock/backend/tools"
)

// The environment of a run knows its call (a folder workspace keys its
// checkpoint to it); a run by hand has the tool but no call id.
func TestRunsTellTheEnvironmentTheirCall(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("call_1", "echo", `{"text":"hi"}`)), "ok")
	var mu sync.Mutex
	var seen []tools.CallInfo
	l.eng.envFor = func(ctx context.Context, _ string) (tools.Env, error) {
		mu.Lock()
		seen = append(seen, tools.CallFrom(ctx))
		mu.Unlock()
		return tools.Env{}, nil
	}
	l.send("echo")
	c := l.waitCalls("a card", count(1))[0]
	if _, err := l.eng.Approve(context.Background(), c.ID, nil); err != nil {
		t.Fatal(err)
	}
	l.waitRequests(2)
	if _, err := l.eng.RunByHand(context.Background(), l.chat.ID, "echo", []byte(`{"text":"x"}`)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var runs []tools.CallInfo
	for _, s := range seen {
		if s.Tool != "" { // previews ask for the environment without a call
			runs = append(runs, s)
		}
	}
	if len(runs) != 2 || runs[0] != (tools.CallInfo{ID: c.ID, Tool: "echo"}) || runs[1] != (tools.CallInfo{Tool: "echo"}) {
		t.Fatalf("calls seen by the environment: %+v", seen)
	}
}
