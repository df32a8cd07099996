package engine

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/store"
	"airlock/backend/tools"
	"airlock/backend/tools/files"
)

// editAgent changes a stored agent.
func editAgent(t *testing.T, st *store.Store, id string, edit func(*chat.Agent)) chat.Agent {
	t.Helper()
	a, err := st.GetAgent(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	edit(&a)
	a, err = st.SaveAgent(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// nativeScripted answers the first request with native calls, then text.
type nativeScripted struct {
	scripted
	calls []llm.ToolCall
}

func (s *nativeScripted) Stream(ctx context.Context, req llm.Request, on func(llm.Delta)) (llm.Result, error) {
	s.mu.Lock()
	first := len(s.reqs) == 0
	s.mu.Unlock()
	res, err := s.scripted.Stream(ctx, req, on)
	if first {
		res.ToolCalls, res.FinishReason = s.calls, "tool_calls"
	}
	return res, err
}

func toolNames(req llm.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Name)
	}
	return out
}

// A tool turned off in the chat is absent from the request in every mode
// (the text prompt and the native tools), and a call to it is a problem
// card saying the tool is unknown; it never runs.
func TestToolTurnedOffIsNeverOffered(t *testing.T) {
	for _, mode := range []chat.ToolMode{chat.ToolModeText, chat.ToolModeNative, chat.ToolModeAuto} {
		t.Run(string(mode), func(t *testing.T) {
			l := newLoop(t, "", "json", written(t, "json", tc("1", "add", `{"a":1,"b":2}`)), "ok")
			native := &nativeScripted{calls: []llm.ToolCall{{ID: "n1", Name: "add", Arguments: `{"a":1,"b":2}`}}}
			if mode != chat.ToolModeText {
				native.replies = []string{"Adding.", "ok"}
				l.eng.connect = func(context.Context, chat.Chat) (chat.Provider, Model, error) {
					return chat.Provider{ID: "p", Model: "m"}, native, nil
				}
			}
			ctx := context.Background()
			o := l.chat.ChatOptions
			o.ToolMode = mode
			if _, err := l.st.SetChatOptions(ctx, l.chat.ID, o); err != nil {
				t.Fatal(err)
			}
			if _, err := l.st.SetChatTools(ctx, l.chat.ID, map[string]bool{"add": false}); err != nil {
				t.Fatal(err)
			}
			l.send("add 1 and 2")
			calls := l.waitCalls("the problem card", count(1))
			var req llm.Request
			if mode == chat.ToolModeText {
				req = l.model.requests()[0]
			} else {
				req = native.requests()[0]
			}
			sys := ""
			if len(req.Messages) > 0 && req.Messages[0].Role == chat.RoleSystem {
				sys = req.Messages[0].Content
			}
			if mode == chat.ToolModeText {
				if strings.Contains(sys, "Add numbers.") || !strings.Contains(sys, "Echo text.") {
					t.Errorf("text prompt offers the wrong tools:\n%s", sys)
				}
			} else {
				names := strings.Join(toolNames(req), ",")
				if strings.Contains(names, "add") || !strings.Contains(names, "echo") || strings.Contains(sys, "Add numbers.") {
					t.Errorf("native tools = %s; system %q", names, sys)
				}
			}
			c := calls[0]
			if c.State != chat.CallProblem || !strings.Contains(c.Problem, "add") || !strings.Contains(strings.ToLower(c.Problem), "no tool") && !strings.Contains(strings.ToLower(c.Problem), "unknown") {
				t.Errorf("call to a tool turned off = %s %q", c.State, c.Problem)
			}
			// A person cannot run it either while it is off.
			if _, err := l.eng.FixAndRun(ctx, c.ID, "add", json.RawMessage(`{"a":1,"b":2}`)); err == nil {
				t.Error("FixAndRun ran a tool that is turned off")
			}
		})
	}
}

// The read-only reviewer offers no tool that writes, whatever a chat
// toggles on; the plain agent offers none at all.
func TestReadOnlyAgentOffersNoWriteTool(t *testing.T) {
	box, err := tools.NewToolbox(append(files.Tools(), tools.Builtins()...)...)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(t.TempDir() + "/a.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	reviewer, _ := st.GetAgent(ctx, chat.ReviewerAgentID)
	writers := 0
	for _, tl := range box.Tools() {
		if tl.Changes {
			writers++
		}
	}
	if writers == 0 {
		t.Fatal("the file tools have no writing tool to leave out")
	}
	on := map[string]bool{}
	for _, tl := range box.Tools() {
		on[tl.Name] = true // a chat turning every tool on
	}
	got := Offered(box, reviewer, on)
	if len(got.Tools()) == 0 {
		t.Fatal("the reviewer offers nothing")
	}
	for _, tl := range got.Tools() {
		if tl.Changes {
			t.Errorf("the read-only reviewer offers %s, which writes", tl.Name)
		}
	}
	if _, ok := got.Get("read_file"); !ok {
		t.Error("the reviewer does not offer read_file")
	}
	plain, _ := st.GetAgent(ctx, chat.PlainAgentID)
	if n := len(Offered(box, plain, nil).Tools()); n != 0 {
		t.Errorf("the plain agent offers %d tools", n)
	}
}

// The chat's agent gives the system prompt and the options; an edit of the
// agent applies to the next turn.
func TestAgentOptionsReachTheRequest(t *testing.T) {
	l := newLoop(t, "", "json", "one", "two")
	ctx := context.Background()
	a, err := l.st.SaveAgent(ctx, chat.Agent{Name: "Terse", SystemPrompt: "Be terse.", MaxOutputTokens: 100, Tools: chat.ToolChoice{Default: false}})
	if err != nil {
		t.Fatal(err)
	}
	topP := 0.9
	a.TopP = &topP
	if a, err = l.st.SaveAgent(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := l.st.SetChatAgent(ctx, l.chat.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	l.send("hi")
	<-l.ends
	r := l.waitRequests(1)[0]
	if r.Messages[0].Role != chat.RoleSystem || r.Messages[0].Content != "Be terse." || r.TopP == nil || *r.TopP != 0.9 || r.MaxTokens != 100 || r.Temperature != nil {
		t.Fatalf("request = %+v", r)
	}
	editAgent(t, l.st, a.ID, func(a *chat.Agent) { a.SystemPrompt = "Be kind." })
	l.send("again")
	<-l.ends
	if r := l.waitRequests(2)[1]; r.Messages[0].Content != "Be kind." {
		t.Errorf("after the edit the system prompt is %q", r.Messages[0].Content)
	}
}

// An agent that runs calls one at a time runs them in order, never two at
// once; the default runs them together.
func TestOneAtATimeOrParallel(t *testing.T) {
	for _, sequential := range []bool{false, true} {
		var (
			mu      sync.Mutex
			active  int
			most    int
			started []string
		)
		both := make(chan struct{})
		var once sync.Once
		slow := tools.Tool{Spec: tools.Spec{Name: "slow", Description: "Waits a little.", Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)},
			Run: tools.TextRun(func(ctx context.Context, _ tools.Env, a json.RawMessage) (string, error) {
				var v struct{ ID string }
				_ = json.Unmarshal(a, &v)
				mu.Lock()
				active++
				started = append(started, v.ID)
				if active > most {
					most = active
				}
				if active == 2 {
					once.Do(func() { close(both) })
				}
				mu.Unlock()
				// Wait until both run at once, or long enough to show they do not.
				select {
				case <-both:
				case <-time.After(300 * time.Millisecond):
				}
				mu.Lock()
				active--
				mu.Unlock()
				return "done " + v.ID, nil
			})}
		box, _ := tools.NewToolbox(slow)
		l := newLoopWith(t, "", "json", box, written(t, "json", tc("1", "slow", `{"id":"a"}`), tc("2", "slow", `{"id":"b"}`), tc("3", "slow", `{"id":"c"}`)), "ok")
		editAgent(t, l.st, chat.DefaultAgentID, func(a *chat.Agent) { a.Sequential = sequential })
		l.send("go")
		calls := l.waitCalls("cards", count(3))
		if err := l.eng.RunAll(context.Background(), calls[0].MessageID); err != nil {
			t.Fatal(err)
		}
		l.waitCalls("all done", func(cs []chat.Call) bool {
			for _, c := range cs {
				if c.State != chat.CallDone {
					return false
				}
			}
			return len(cs) == 3
		})
		mu.Lock()
		switch {
		case sequential && (most != 1 || strings.Join(started, "") != "abc"):
			t.Errorf("one at a time: %d at once, order %v", most, started)
		case !sequential && most < 2:
			t.Errorf("parallel: never more than %d at once", most)
		}
		mu.Unlock()
	}
}
