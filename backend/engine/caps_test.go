package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/tools"
	"airlock/backend/tools/files"
	"airlock/backend/workspace"
)

// nativeFlood answers once with n native calls of echo.
type nativeFlood struct {
	n    int
	once sync.Once
}

func (m *nativeFlood) Stream(_ context.Context, _ llm.Request, on func(llm.Delta)) (llm.Result, error) {
	var res llm.Result
	m.once.Do(func() {
		for i := range m.n {
			res.ToolCalls = append(res.ToolCalls, llm.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "echo", Arguments: fmt.Sprintf(`{"text":"%d"}`, i)})
		}
	})
	on(llm.Delta{Text: "ok"})
	return res, nil
}

// 20,000 calls in one answer (whatever let them through) make a bounded
// number of cards and events, one of which says how many were left out.
func TestCallsPerAnswerAreCapped(t *testing.T) {
	l := newLoop(t, "", "json")
	flood := &nativeFlood{n: 20_000}
	l.eng.connect = func(context.Context, chat.Chat) (chat.Provider, Model, error) {
		return chat.Provider{Model: "m"}, flood, nil
	}
	l.send("go")
	calls := l.waitCalls("cards", func(cs []chat.Call) bool { return len(cs) > 0 })
	if len(calls) != MaxCallsPerAnswer+1 {
		t.Fatalf("%d cards", len(calls))
	}
	last := calls[len(calls)-1]
	if last.State != chat.CallProblem || !strings.Contains(last.Problem, "asked for 20000 tool calls") ||
		!strings.Contains(last.Problem, "The other 19950 were left out") {
		t.Fatalf("last card: %+v", last)
	}
	l.mu.Lock()
	events := len(l.calls)
	l.mu.Unlock()
	if events > MaxCallsPerAnswer+1 {
		t.Errorf("%d calls reached the UI", events)
	}
}

// The store holds a cap of its own.
func TestStoreRefusesAFloodOfCalls(t *testing.T) {
	l := newLoop(t, "", "json")
	m, err := l.st.AddMessage(context.Background(), chat.Message{ChatID: l.chat.ID, Role: chat.RoleAssistant, Status: chat.StatusComplete})
	if err != nil {
		t.Fatal(err)
	}
	many := make([]chat.Call, 20_000)
	for i := range many {
		many[i] = chat.Call{ChatID: l.chat.ID, MessageID: m.ID, Index: i, Name: "echo", Arguments: json.RawMessage("{}"), State: chat.CallPending}
	}
	if _, err := l.st.AddCalls(context.Background(), many); err == nil || !strings.Contains(err.Error(), "at most 1000") {
		t.Fatalf("AddCalls = %v", err)
	}
}

// The results message of one answer is bounded, whatever each output is.
func TestResultsMessageIsBounded(t *testing.T) {
	rs := make([]chat.ToolResult, MaxCallsPerAnswer+1)
	for i := range rs {
		rs[i] = chat.ToolResult{CallID: fmt.Sprint(i), Name: "echo", Status: chat.ToolSuccess, Content: strings.Repeat("x", OutputCap)}
	}
	total := 0
	for _, r := range capResults(rs) {
		total += len(r.Content)
	}
	if total > MaxResultsBytes+len(rs)*200 {
		t.Fatalf("results: %d bytes", total)
	}
	if !strings.Contains(rs[len(rs)-1].Content, "output left out") {
		t.Errorf("last result: %.80s", rs[len(rs)-1].Content)
	}
}

// A preview that never ends does not hold the cards back: they appear
// with "preview unavailable" and the reason.
func TestPreviewsHaveATimeBudget(t *testing.T) {
	defer func(d time.Duration) { PreviewBudget = d }(PreviewBudget)
	PreviewBudget = 50 * time.Millisecond
	release := make(chan struct{})
	defer close(release)
	box, err := tools.NewToolbox(tools.Tool{
		Spec: tools.Spec{Name: "slow", Description: "Slow to preview.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
		Run:  tools.TextRun(func(context.Context, tools.Env, json.RawMessage) (string, error) { return "ran", nil }),
		Preview: func(tools.Env, json.RawMessage) (json.RawMessage, error) {
			<-release
			return json.RawMessage(`{"summary":"late"}`), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	l := newLoopWith(t, "", "json", box, written(t, "json", tc("a", "slow", `{}`), tc("b", "slow", `{}`), tc("c", "slow", `{}`)))
	l.send("go")
	calls := l.waitCalls("cards", count(3))
	for _, c := range calls {
		if c.State != chat.CallPending || !strings.Contains(string(c.Preview), "preview unavailable") {
			t.Errorf("card: %s %s", c.State, c.Preview)
		}
	}
}

// read_file's "continue at offset=" note survives the engine's 32 KB cap,
// and the offset it gives is the line after the last one shown.
func TestReadFileNoteSurvivesTheOutputCap(t *testing.T) {
	ws := workspace.NewScratch()
	line := strings.Repeat("x", 1023) + "\n"
	var b strings.Builder
	for range 1000 {
		b.WriteString(line)
	}
	if err := afero.WriteFile(ws.FS(), "/wide.txt", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	box, err := tools.NewToolbox(files.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	l := newLoopWith(t, "", "json", box, written(t, "json", tc("a", "read_file", `{"path":"wide.txt"}`)))
	l.eng.envFor = func(context.Context, string) (tools.Env, error) { return tools.Env{FS: ws.FS()}, nil }
	l.send("go")
	c := l.waitCalls("card", count(1))[0]
	if _, err := l.eng.Approve(context.Background(), c.ID, nil); err != nil {
		t.Fatal(err)
	}
	done := l.waitCalls("result", func(cs []chat.Call) bool { return len(cs) == 1 && cs[0].State == chat.CallDone })[0]
	shown := strings.Count(done.Result, line)
	want := fmt.Sprintf("call read_file with offset=%d to continue]", shown+1)
	if len(done.Result) > OutputCap || !strings.HasSuffix(done.Result, want) || done.Truncated {
		t.Fatalf("result: %d bytes, %d lines, ends %q", len(done.Result), shown, done.Result[len(done.Result)-120:])
	}
	// And a tool that knows nothing of the limit keeps its closing note.
	out, cut := capOutput(strings.Repeat("y", 40<<10) + "\n[showing 1-9 of 20; call more_tool with page=2 to continue]")
	if !cut || !strings.HasSuffix(out, "\n[showing 1-9 of 20; call more_tool with page=2 to continue]") || len(out) > OutputCap+100 {
		t.Fatalf("capOutput kept no note: %q", out[len(out)-150:])
	}
}
