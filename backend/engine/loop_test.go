package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/paradigm"
	"airlock/backend/store"
	"airlock/backend/tools"
)

// scripted answers each request with the next reply and records requests.
type scripted struct {
	mu      sync.Mutex
	replies []string
	reqs    []llm.Request
}

func (s *scripted) Stream(_ context.Context, req llm.Request, on func(llm.Delta)) (llm.Result, error) {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	reply := "done."
	if len(s.replies) > 0 {
		reply, s.replies = s.replies[0], s.replies[1:]
	}
	s.mu.Unlock()
	on(llm.Delta{Text: reply})
	return llm.Result{FinishReason: "stop"}, nil
}

func (s *scripted) requests() []llm.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Request(nil), s.reqs...)
}

// loopEnv is an engine with fake tools on a real SQLite file, recording events.
type loopEnv struct {
	t     *testing.T
	eng   *Engine
	st    *store.Store
	model *scripted
	chat  chat.Chat
	mu    sync.Mutex
	calls map[string]chat.Call // latest state seen by the UI
	ends  chan bridge.EndEvent
	notes chan bridge.Notice
}

func testTools(t *testing.T) *tools.Toolbox {
	obj := func(props string, required ...string) json.RawMessage {
		r, _ := json.Marshal(required)
		if required == nil {
			r = []byte("[]")
		}
		return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(r) + `}`)
	}
	box, err := tools.NewToolbox(
		tools.Tool{Spec: tools.Spec{Name: "echo", Description: "Echo text.", Parameters: obj(`"text":{"type":"string"}`, "text")},
			Run: tools.TextRun(func(_ context.Context, _ tools.Env, a json.RawMessage) (string, error) {
				var v struct{ Text string }
				_ = json.Unmarshal(a, &v)
				return "echo: " + v.Text, nil
			})},
		tools.Tool{Spec: tools.Spec{Name: "add", Description: "Add numbers.", Parameters: obj(`"a":{"type":"number"},"b":{"type":"number"}`, "a", "b")},
			Run: tools.TextRun(func(_ context.Context, _ tools.Env, a json.RawMessage) (string, error) {
				var v struct{ A, B float64 }
				_ = json.Unmarshal(a, &v)
				return fmt.Sprint(v.A + v.B), nil
			})},
		tools.Tool{Spec: tools.Spec{Name: "snapshot", Description: "A picture, or a reported failure.", Parameters: obj(`"fail":{"type":"boolean"}`)},
			Run: func(_ context.Context, _ tools.Env, a json.RawMessage) (tools.Output, error) {
				var v struct{ Fail bool }
				_ = json.Unmarshal(a, &v)
				if v.Fail {
					return tools.Output{Text: "the camera is off", IsError: true}, nil
				}
				return tools.Output{Text: "[image returned]", Images: []tools.Image{{MIME: "image/png", Data: []byte("png")}}}, nil
			}},
		tools.Tool{Spec: tools.Spec{Name: "sleep", Description: "Sleep until cancelled.", Parameters: obj(``)},
			Run: tools.TextRun(func(ctx context.Context, _ tools.Env, _ json.RawMessage) (string, error) {
				<-ctx.Done()
				return "", ctx.Err()
			})},
	)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

func newLoop(t *testing.T, dir, paradigmID string, replies ...string) *loopEnv {
	t.Helper()
	return newLoopWith(t, dir, paradigmID, testTools(t), replies...)
}

// newLoopWith is newLoop with other tools.
func newLoopWith(t *testing.T, dir, paradigmID string, box *tools.Toolbox, replies ...string) *loopEnv {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	st, err := store.Open(dir + "/airlock.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	l := &loopEnv{t: t, st: st, model: &scripted{replies: replies}, calls: map[string]chat.Call{},
		ends: make(chan bridge.EndEvent, 20), notes: make(chan bridge.Notice, 20)}
	l.eng = New(Deps{Store: st, Tools: Fixed(box), Emit: l.emit,
		Connect: func(context.Context, chat.Chat) (chat.Provider, Model, error) {
			return chat.Provider{Model: "m"}, l.model, nil
		}})
	t.Cleanup(l.eng.Shutdown)
	ctx := context.Background()
	chats, _ := st.ListChats(ctx)
	if len(chats) > 0 {
		l.chat = chats[0]
	} else {
		l.chat, _ = st.CreateChat(ctx, DefaultTitle)
		l.chat, err = st.SetChatOptions(ctx, l.chat.ID, chat.ChatOptions{Paradigm: paradigmID, RecognizeOthers: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func (l *loopEnv) emit(name string, p any) {
	switch v := p.(type) {
	case bridge.EndEvent:
		l.ends <- v
	case chat.Call:
		l.mu.Lock()
		l.calls[v.ID] = v
		l.mu.Unlock()
	case bridge.Notice:
		l.notes <- v
	}
}

func (l *loopEnv) send(text string) {
	l.t.Helper()
	if _, err := l.eng.Send(context.Background(), l.chat.ID, text); err != nil {
		l.t.Fatal(err)
	}
}

// waitCalls waits until the message's calls satisfy ok, and returns them.
func (l *loopEnv) waitCalls(what string, ok func([]chat.Call) bool) []chat.Call {
	l.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		calls, _ := l.st.ListCalls(context.Background(), l.chat.ID)
		if ok(calls) {
			return calls
		}
		if time.Now().After(deadline) {
			l.t.Fatalf("timed out waiting for %s; calls: %+v", what, calls)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (l *loopEnv) waitRequests(n int) []llm.Request {
	l.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if r := l.model.requests(); len(r) >= n {
			return r
		}
		if time.Now().After(deadline) {
			l.t.Fatalf("the model got %d requests, want %d", len(l.model.requests()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func count(n int) func([]chat.Call) bool { return func(c []chat.Call) bool { return len(c) >= n } }

func lastContent(r llm.Request) string { return r.Messages[len(r.Messages)-1].Content }

// written renders calls the way each paradigm's prompt teaches.
func written(t *testing.T, paradigmID string, calls ...chat.ToolCall) string {
	p, ok := paradigm.Get(paradigmID)
	if !ok {
		t.Fatalf("no paradigm %s", paradigmID)
	}
	return "Let me check.\n\n" + p.FormatCalls(calls)
}

func tc(id, name, args string) chat.ToolCall {
	return chat.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// The whole loop, per paradigm: the call becomes a pending card, nothing runs
// until approved, the result goes back as a user message whose text is
// exactly the paradigm's formatting, and the model continues by itself.
func TestApproveRunsAndResultsFlowBack(t *testing.T) {
	for _, pid := range []string{"json", "xml", "vcp"} {
		t.Run(pid, func(t *testing.T) {
			l := newLoop(t, "", pid, written(t, pid, tc("call_1", "echo", `{"text":"hi <there> \"q\""}`)), "All done.")
			l.send("please echo")
			calls := l.waitCalls("a pending card", count(1))
			c := calls[0]
			if c.State != chat.CallPending || c.Name != "echo" || (pid != "vcp" && c.ModelCallID != "call_1") {
				t.Fatalf("card: %+v", c)
			}
			time.Sleep(50 * time.Millisecond)
			if got, _ := l.st.GetCall(context.Background(), c.ID); got.State != chat.CallPending || len(l.model.requests()) != 1 {
				t.Fatalf("something ran without approval: %+v", got)
			}
			// The system prompt taught this paradigm.
			if sys := l.model.requests()[0].Messages[0]; sys.Role != chat.RoleSystem || !strings.Contains(sys.Content, "echo") {
				t.Fatalf("system prompt: %q", sys.Content)
			}
			if _, err := l.eng.Approve(context.Background(), c.ID, nil); err != nil {
				t.Fatal(err)
			}
			reqs := l.waitRequests(2)
			p, _ := paradigm.Get(pid)
			want := p.FormatResults([]chat.ToolResult{{CallID: c.ModelCallID, Name: "echo", Status: chat.ToolSuccess, Content: `echo: hi <there> "q"`}})
			if got := lastContent(reqs[1]); got != want {
				t.Fatalf("the model received:\n%s\nwant:\n%s", got, want)
			}
			if reqs[1].Messages[len(reqs[1].Messages)-1].Role != chat.RoleUser {
				t.Fatal("results must go back as a user message")
			}
			done, _ := l.st.GetCall(context.Background(), c.ID)
			if done.State != chat.CallDone || done.DecidedBy != chat.ByUser || done.DecidedAt == 0 || done.StartedAt == 0 || done.FinishedAt < done.StartedAt {
				t.Fatalf("decision not recorded: %+v", done)
			}
			msgs, _ := l.st.ListMessages(context.Background(), l.chat.ID)
			if len(msgs) != 4 || msgs[2].Kind != chat.KindToolResults {
				t.Fatalf("messages: %+v", msgs)
			}
		})
	}
}

func TestDenyWithReasonIsAResult(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("c1", "echo", `{"text":"x"}`)), "OK, I won't.")
	l.send("go")
	c := l.waitCalls("card", count(1))[0]
	denied, err := l.eng.Deny(context.Background(), c.ID, "not now")
	if err != nil || denied.State != chat.CallDenied || denied.Reason != "not now" {
		t.Fatalf("deny: %+v %v", denied, err)
	}
	reqs := l.waitRequests(2)
	if got := lastContent(reqs[1]); !strings.Contains(got, `"status":"denied"`) || !strings.Contains(got, "not now") {
		t.Fatalf("model got: %s", got)
	}
	if _, err := l.eng.Approve(context.Background(), c.ID, nil); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("approving a denied call: %v", err)
	}
}

func TestEditIsValidatedAndRecorded(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("c1", "add", `{"a":1,"b":2}`)), "Sum given.")
	l.send("add")
	c := l.waitCalls("card", count(1))[0]
	if _, err := l.eng.Approve(context.Background(), c.ID, json.RawMessage(`{"a":"many"}`)); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("invalid edit accepted: %v", err)
	}
	if got, _ := l.st.GetCall(context.Background(), c.ID); got.State != chat.CallPending {
		t.Fatalf("a rejected edit changed the call: %+v", got)
	}
	if _, err := l.eng.Approve(context.Background(), c.ID, json.RawMessage(`{"a":40,"b":"2"}`)); err != nil {
		t.Fatal(err)
	}
	reqs := l.waitRequests(2)
	// The model is told what the user changed, then the result.
	if got := lastContent(reqs[1]); !strings.Contains(got, `"result":"The user edited the arguments before running: a 1 → 40.\n\n42"`) {
		t.Fatalf("edited args did not run, or the model was not told: %s", got)
	}
	got, _ := l.st.GetCall(context.Background(), c.ID)
	if string(got.Arguments) != `{"a":1,"b":2}` || string(got.Edited) != `{"a":40,"b":2}` {
		t.Fatalf("edit not recorded beside the proposal: args=%s edited=%s", got.Arguments, got.Edited)
	}
}

func TestAlwaysAllowRunsNextCallWithoutAClick(t *testing.T) {
	l := newLoop(t, "", "json",
		written(t, "json", tc("c1", "echo", `{"text":"one"}`)), "first done",
		written(t, "json", tc("c2", "echo", `{"text":"two"}`)), "second done")
	l.send("one")
	c := l.waitCalls("card", count(1))[0]
	if _, err := l.eng.AlwaysAllow(context.Background(), c.ID, false); err != nil {
		t.Fatal(err)
	}
	l.waitRequests(2)
	l.waitCalls("first done", func(cs []chat.Call) bool { return cs[0].State == chat.CallDone })
	time.Sleep(20 * time.Millisecond)
	l.send("two")
	calls := l.waitCalls("second ran by itself", func(cs []chat.Call) bool { return len(cs) == 2 && cs[1].State == chat.CallDone })
	rules, _ := l.st.ListRules(context.Background())
	if len(rules) != 1 || rules[0].Tool != "echo" || rules[0].ChatID != l.chat.ID || rules[0].Scope != chat.ScopeChat ||
		rules[0].Match.Kind != chat.MatchAny || rules[0].FromCall != c.ID {
		t.Fatalf("rules: %+v", rules)
	}
	if calls[1].DecidedBy != rules[0].By() || calls[0].DecidedBy != rules[0].By() {
		t.Fatalf("decided by %q and %q, want %q", calls[0].DecidedBy, calls[1].DecidedBy, rules[0].By())
	}
	if rules[0].Uses != 2 || rules[0].LastUsedAt == 0 {
		t.Fatalf("the rule allowed the card and the next call: %+v", rules[0])
	}
}

func TestSeveralCallsWaitForAllThenRunAll(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("a", "echo", `{"text":"1"}`), tc("b", "add", `{"a":1,"b":1}`), tc("c", "echo", `{"text":"3"}`)), "fin")
	l.send("three")
	calls := l.waitCalls("three cards", count(3))
	if _, err := l.eng.Approve(context.Background(), calls[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	l.waitCalls("first done", func(cs []chat.Call) bool { return cs[0].State == chat.CallDone })
	time.Sleep(30 * time.Millisecond)
	if n := len(l.model.requests()); n != 1 {
		t.Fatalf("results went back before every call was settled (%d requests)", n)
	}
	if err := l.eng.RunAll(context.Background(), calls[0].MessageID); err != nil {
		t.Fatal(err)
	}
	reqs := l.waitRequests(2)
	got := lastContent(reqs[1])
	if strings.Index(got, `"a"`) > strings.Index(got, `"b"`) || strings.Index(got, `"b"`) > strings.Index(got, `"c"`) || !strings.Contains(got, `"result":"2"`) {
		t.Fatalf("results out of order or missing: %s", got)
	}
}

func TestProblemCardTellTheModelAndFix(t *testing.T) {
	l := newLoop(t, "", "json", "```json\n{\"tool_calls\":[{\"id\":\"p1\",\"name\":\"teleport\",\"arguments\":{\"to\":\"mars\"}}]}\n```", "Sorry.")
	l.send("go")
	c := l.waitCalls("problem card", count(1))[0]
	if c.State != chat.CallProblem || !strings.Contains(c.Problem, "teleport") {
		t.Fatalf("card: %+v", c)
	}
	if string(c.Arguments) != `{"to":"mars"}` {
		t.Errorf("the problem card should keep the arguments it read: %s", c.Arguments)
	}
	if _, err := l.eng.Approve(context.Background(), c.ID, nil); err == nil {
		t.Fatal("a problem card must not be approvable as is")
	}
	var ce *chat.Error
	if _, err := l.eng.FixAndRun(context.Background(), c.ID, "teleport", json.RawMessage(`{}`)); !errors.Is(err, chat.ErrInvalid) || !errors.As(err, &ce) || ce.Code != "unknown_tool" {
		t.Fatalf("fixing into another unknown tool: %v (an unknown tool is not invalid_arguments)", err)
	}
	told, err := l.eng.TellModel(context.Background(), c.ID)
	if err != nil || !told.Settled() {
		t.Fatalf("tell: %+v %v", told, err)
	}
	reqs := l.waitRequests(2)
	if got := lastContent(reqs[1]); !strings.Contains(got, `"status":"error"`) || !strings.Contains(got, "teleport") {
		t.Fatalf("model got: %s", got)
	}

	l2 := newLoop(t, "", "json", "```json\n{\"tool_calls\":[{\"id\":\"p1\",\"name\":\"ech\",\"arguments\":{\"text\":1}}]}\n```", "ok")
	l2.send("go")
	c2 := l2.waitCalls("problem", count(1))[0]
	fixed, err := l2.eng.FixAndRun(context.Background(), c2.ID, "echo", json.RawMessage(`{"text":"fixed"}`))
	if err != nil || fixed.Name != "echo" {
		t.Fatalf("fix: %+v %v", fixed, err)
	}
	got := lastContent(l2.waitRequests(2)[1])
	if !strings.Contains(got, "echo: fixed") || !strings.Contains(got, "The user fixed this call before running it; it ran as echo") {
		t.Fatalf("fixed call result: %s", got)
	}
	if fixed, _ := l2.st.GetCall(context.Background(), c2.ID); string(fixed.Arguments) != `{"text":1}` || string(fixed.Edited) != `{"text":"fixed"}` {
		t.Fatalf("the call keeps what the model wrote beside the fix: %s / %s", fixed.Arguments, fixed.Edited)
	}
}

func TestLoopGuardStopsTheThirdIdenticalCall(t *testing.T) {
	same := written(t, "json", tc("x", "echo", `{"text":"again"}`))
	l := newLoop(t, "", "json", same, same, same, "never")
	ctx := context.Background()
	allowAlways(t, l.st, "echo")
	l.send("loop")
	calls := l.waitCalls("third call", func(cs []chat.Call) bool { return len(cs) == 3 })
	time.Sleep(30 * time.Millisecond)
	calls, _ = l.st.ListCalls(ctx, l.chat.ID)
	if calls[0].State != chat.CallDone || calls[1].State != chat.CallDone {
		t.Fatalf("the first two should run by rule: %s %s", calls[0].State, calls[1].State)
	}
	if calls[2].State != chat.CallPending || !strings.Contains(calls[2].Guard, "Loop guard") {
		t.Fatalf("third identical call: %+v", calls[2])
	}
}

func TestTurnCapPausesTheLoop(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("1", "echo", `{"text":"a"}`)), written(t, "json", tc("2", "echo", `{"text":"b"}`)), "never reached")
	ctx := context.Background()
	editAgent(t, l.st, chat.DefaultAgentID, func(a *chat.Agent) { a.MaxTurns = 2 })
	allowAlways(t, l.st, "echo")
	l.send("go")
	select {
	case n := <-l.notes:
		if n.Code != "turn_cap" {
			t.Fatalf("notice: %+v", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no turn-cap notice")
	}
	if n := len(l.model.requests()); n != 2 {
		t.Fatalf("model asked %d times with a cap of 2", n)
	}
	if _, err := l.eng.Continue(ctx, l.chat.ID); err != nil {
		t.Fatal(err)
	}
	l.waitRequests(3)
}

func TestTimeoutAndCancel(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("s1", "sleep", `{}`), tc("s2", "sleep", `{}`)), "ok")
	ctx := context.Background()
	editAgent(t, l.st, chat.DefaultAgentID, func(a *chat.Agent) { a.ToolTimeoutSeconds = 1 })
	l.send("sleep")
	calls := l.waitCalls("cards", count(2))
	_ = l.eng.RunAll(ctx, calls[0].MessageID)
	l.waitCalls("running", func(cs []chat.Call) bool { return cs[1].State == chat.CallRunning })
	l.eng.Cancel(calls[1].ID)
	calls = l.waitCalls("both settled", func(cs []chat.Call) bool { return cs[0].Settled() && cs[1].Settled() })
	if calls[0].State != chat.CallError || !strings.Contains(calls[0].Result, "timed out after 1s") {
		t.Fatalf("timeout: %+v", calls[0])
	}
	if calls[1].State != chat.CallError || !strings.Contains(calls[1].Result, "cancelled") {
		t.Fatalf("cancel: %+v", calls[1])
	}
	// Stored with the sentence coded for the UI; Result stays the model's English.
	if rt := calls[0].ResultText; rt == nil || rt.Code != "call_timed_out" || rt.Params["after"] != "1s" || rt.English != calls[0].Result {
		t.Fatalf("timeout text: %+v", rt)
	}
	if rt := calls[1].ResultText; rt == nil || rt.Code != "call_cancelled" || rt.Params["after"] == "" {
		t.Fatalf("cancel text: %+v", rt)
	}
}

// A restart in every state: pending stays pending; running becomes
// interrupted and is not re-run by itself; approving after the restart
// completes the loop.
func TestRestartKeepsDecisionsPending(t *testing.T) {
	dir := t.TempDir()
	l := newLoop(t, dir, "json", written(t, "json", tc("a", "echo", `{"text":"1"}`), tc("b", "sleep", `{}`), tc("c", "echo", `{"text":"3"}`)))
	ctx := context.Background()
	l.send("go")
	calls := l.waitCalls("cards", count(3))
	_, _ = l.eng.Approve(ctx, calls[0].ID, nil)
	_, _ = l.eng.Approve(ctx, calls[1].ID, nil)
	l.waitCalls("a done, b running", func(cs []chat.Call) bool { return cs[0].State == chat.CallDone && cs[1].State == chat.CallRunning })
	// Simulate a crash: the process dies with b running (state stays "running" on disk).
	l.st.Close()

	st, err := store.Open(dir + "/airlock.db")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := st.InterruptRunningCalls(ctx); err != nil || n != 1 {
		t.Fatalf("InterruptRunningCalls: %d %v", n, err)
	}
	st.Close()
	l2 := newLoop(t, dir, "json", "finished")
	calls, _ = l2.st.ListCalls(ctx, l2.chat.ID)
	if calls[0].State != chat.CallDone || calls[1].State != chat.CallInterrupted || calls[2].State != chat.CallPending {
		t.Fatalf("after restart: %s %s %s", calls[0].State, calls[1].State, calls[2].State)
	}
	time.Sleep(30 * time.Millisecond)
	if len(l2.model.requests()) != 0 {
		t.Fatal("something continued by itself after restart")
	}
	_, _ = l2.eng.Deny(ctx, calls[1].ID, "")
	_, _ = l2.eng.Approve(ctx, calls[2].ID, nil)
	reqs := l2.waitRequests(1)
	got := lastContent(reqs[0])
	if !strings.Contains(got, "echo: 1") || !strings.Contains(got, "denied") || !strings.Contains(got, "echo: 3") {
		t.Fatalf("results after restart: %s", got)
	}
}

func TestCapOutput(t *testing.T) {
	s, cut := capOutput(strings.Repeat("é", OutputCap))
	if !cut || !strings.Contains(s, "output truncated") || !strings.HasPrefix(s, "é") {
		t.Fatalf("cap: %v %q", cut, s[len(s)-60:])
	}
	if s, cut := capOutput("short"); cut || s != "short" {
		t.Fatal("short output changed")
	}
}

func TestNewMessageSupersedesUndecidedCalls(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("a", "echo", `{"text":"1"}`)), "plain answer")
	l.send("first")
	c := l.waitCalls("card", count(1))[0]
	l.send("never mind, something else")
	got, _ := l.st.GetCall(context.Background(), c.ID)
	if got.State != chat.CallDenied || !strings.Contains(got.Reason, "new message") {
		t.Fatalf("undecided call after a new message: %+v", got)
	}
	reqs := l.waitRequests(2)
	if lastContent(reqs[1]) != "never mind, something else" {
		t.Fatalf("the model got %q", lastContent(reqs[1]))
	}
	msgs, _ := l.st.ListMessages(context.Background(), l.chat.ID)
	for _, m := range msgs {
		if m.Kind == chat.KindToolResults {
			t.Fatal("superseded calls must not send results")
		}
	}
}

func TestApproveWithNullEditIsAPlainApprove(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("a", "echo", `{"text":"n"}`)), "ok")
	l.send("go")
	c := l.waitCalls("card", count(1))[0]
	got, err := l.eng.Approve(context.Background(), c.ID, json.RawMessage("null"))
	if err != nil || len(got.Edited) != 0 {
		t.Fatalf("null edit: %+v %v", got, err)
	}
	l.waitRequests(2)
}

func TestImagesAndReportedFailures(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("a", "snapshot", `{}`), tc("b", "snapshot", `{"fail":true}`)), "ok")
	l.send("go")
	calls := l.waitCalls("cards", count(2))
	for _, c := range calls {
		if _, err := l.eng.Approve(context.Background(), c.ID, nil); err != nil {
			t.Fatal(err)
		}
	}
	l.waitRequests(2)
	pic, _ := l.st.GetCall(context.Background(), calls[0].ID)
	if pic.State != chat.CallDone || len(pic.Images) != 1 || string(pic.Images[0].Data) != "png" || pic.Result != "[image returned]" {
		t.Fatalf("image call: %+v", pic)
	}
	failed, _ := l.st.GetCall(context.Background(), calls[1].ID)
	if failed.State != chat.CallError || failed.ResultState != chat.ToolError || failed.Result != "the camera is off" {
		t.Fatalf("a reported failure must be an error result: %+v", failed)
	}
}

// allowAlways stores an always-allow rule for a tool, any arguments, every chat.
func allowAlways(t *testing.T, st *store.Store, tool string) chat.Rule {
	t.Helper()
	r, err := st.AddRule(context.Background(), chat.Rule{Effect: chat.RuleAllow, Tool: tool, Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: chat.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
