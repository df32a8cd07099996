package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/code"
	"airlock/backend/workspace"
)

// A code run takes the one run path: its report is stored with the call
// (the card shows it), and the card's Cancel ends a run that would loop for
// its whole wall-time bound at once.
func TestCodeRunReportStoredAndCancelEndsItAtOnce(t *testing.T) {
	box, err := tools.NewToolbox(code.Tools(code.Config{})...)
	if err != nil {
		t.Fatal(err)
	}
	l := newLoopWith(t, "", "json", box,
		written(t, "json", tc("a", "run_javascript", `{"code":"6 * 7"}`), tc("b", "run_javascript", `{"code":"while (true) {}"}`)), "ok")
	ws := workspace.NewScratch()
	l.eng.envFor = func(context.Context, string) (tools.Env, error) { return tools.Env{FS: ws.FS()}, nil }
	ctx := context.Background()
	l.send("go")
	calls := l.waitCalls("cards", count(2))
	if _, err := l.eng.Approve(ctx, calls[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	calls = l.waitCalls("a done", func(cs []chat.Call) bool { return cs[0].State == chat.CallDone })
	var rep code.Report
	if err := json.Unmarshal(calls[0].Structured, &rep); err != nil || rep.Value != "42" || rep.Engine == "" {
		t.Fatalf("stored report %s (%v)", calls[0].Structured, err)
	}

	if _, err := l.eng.Approve(ctx, calls[1].ID, nil); err != nil {
		t.Fatal(err)
	}
	l.waitCalls("b running", func(cs []chat.Call) bool { return cs[1].State == chat.CallRunning })
	time.Sleep(200 * time.Millisecond)
	started := time.Now()
	l.eng.Cancel(calls[1].ID)
	calls = l.waitCalls("b settled", func(cs []chat.Call) bool { return cs[1].Settled() })
	if calls[1].State != chat.CallError || !strings.Contains(calls[1].Result, "cancelled") {
		t.Fatalf("cancel: %+v", calls[1])
	}
	// The wall-time bound is 10 s; Cancel must not wait for it.
	if took := time.Since(started); took > 5*time.Second {
		t.Fatalf("cancel took %s", took)
	}
}
