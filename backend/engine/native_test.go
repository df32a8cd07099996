package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/demomodel"
	"airlock/backend/llm"
	"airlock/backend/store"
	"airlock/backend/tools"
)

// nativeEnv is an engine talking HTTP to the demo model (a real
// OpenAI-compatible server), recording every request body it sends.
type nativeEnv struct {
	t    *testing.T
	kind string // the provider's wire
	eng  *Engine
	st   *store.Store
	chat chat.Chat

	mu      sync.Mutex
	bodies  []wireRequest
	raw     []string // every request body as sent (the Anthropic tests read these)
	forming []bridge.Forming
	notes   []bridge.Notice
}

type wireRequest struct {
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role       string  `json:"role"`
		Content    *string `json:"content"`
		ToolCallID string  `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
}

func newNative(t *testing.T, model string, mode chat.ToolMode) *nativeEnv {
	t.Helper()
	return newNativeOn(t, chat.APIOpenAI, model, mode)
}

// newNativeOn is newNative on a provider of the given kind.
func newNativeOn(t *testing.T, kind, model string, mode chat.ToolMode) *nativeEnv {
	t.Helper()
	return newNativeWith(t, kind, model, mode, demomodel.New(demomodel.Options{Models: demomodel.DefaultModels()}))
}

// newNativeWith is newNativeOn against another server.
func newNativeWith(t *testing.T, kind, model string, mode chat.ToolMode, demo http.Handler) *nativeEnv {
	t.Helper()
	n := &nativeEnv{t: t, kind: kind}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var req wireRequest
			if kind == chat.APIOpenAI {
				if err := json.Unmarshal(body, &req); err != nil {
					t.Errorf("request body: %v", err)
				}
			}
			n.mu.Lock()
			n.bodies = append(n.bodies, req)
			n.raw = append(n.raw, string(body))
			n.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		demo.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	st, err := store.Open(t.TempDir() + "/airlock.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	box, _ := tools.NewToolbox(tools.Builtins()...)
	client := llm.New(llm.Config{Kind: kind, BaseURL: srv.URL + "/v1", Model: model})
	n.st = st
	n.eng = New(Deps{Store: st, Tools: Fixed(box), Emit: n.emit,
		Connect: func(context.Context, chat.Chat) (chat.Provider, Model, error) {
			return chat.Provider{ID: "demo", Model: model}, client, nil
		}})
	t.Cleanup(n.eng.Shutdown)
	ctx := context.Background()
	n.chat, _ = st.CreateChat(ctx, DefaultTitle)
	if n.chat, err = st.SetChatOptions(ctx, n.chat.ID, chat.ChatOptions{Paradigm: "json", RecognizeOthers: true, ToolMode: mode}); err != nil {
		t.Fatal(err)
	}
	return n
}

func (n *nativeEnv) emit(name string, p any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch v := p.(type) {
	case bridge.Forming:
		n.forming = append(n.forming, v)
	case bridge.Notice:
		n.notes = append(n.notes, v)
	}
}

func (n *nativeEnv) send(text string) {
	n.t.Helper()
	if _, err := n.eng.Send(context.Background(), n.chat.ID, text); err != nil {
		n.t.Fatal(err)
	}
}

func (n *nativeEnv) requests(want int) []wireRequest {
	n.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n.mu.Lock()
		got := append([]wireRequest(nil), n.bodies...)
		n.mu.Unlock()
		if len(got) >= want {
			for _, r := range got {
				if n.kind != chat.APIAnthropic { // its rules are checked by the demo
					checkConversation(n.t, r)
				}
			}
			return got
		}
		if time.Now().After(deadline) {
			n.t.Fatalf("the model got %d requests, want %d", len(got), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (n *nativeEnv) calls(what string, ok func([]chat.Call) bool) []chat.Call {
	n.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		calls, _ := n.st.ListCalls(context.Background(), n.chat.ID)
		if ok(calls) {
			return calls
		}
		if time.Now().After(deadline) {
			n.t.Fatalf("timed out waiting for %s; calls: %+v", what, calls)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// lastAnswer waits for the chat's last message to be a complete answer.
func (n *nativeEnv) lastAnswer(containing string) chat.Message {
	n.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		msgs, _ := n.st.ListMessages(context.Background(), n.chat.ID)
		if l := len(msgs); l > 0 && msgs[l-1].Role == chat.RoleAssistant && msgs[l-1].Status != chat.StatusStreaming &&
			strings.Contains(msgs[l-1].Content, containing) {
			return msgs[l-1]
		}
		if time.Now().After(deadline) {
			n.t.Fatalf("no answer containing %q; messages: %+v", containing, msgs)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkConversation holds a request to the API's rules for native calls:
// an assistant message with tool_calls is followed by exactly one tool
// message per call, before anything else; a tool message answers a call of
// the assistant message before it; re-sent arguments are JSON objects.
func checkConversation(t *testing.T, r wireRequest) {
	t.Helper()
	open := map[string]bool{}
	for i, m := range r.Messages {
		if m.Role == "tool" {
			if !open[m.ToolCallID] {
				t.Errorf("message %d: a tool message for %q, which no open call has", i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
			continue
		}
		if len(open) > 0 {
			t.Errorf("message %d (%s) comes before the tool messages of calls %v", i, m.Role, open)
			open = map[string]bool{}
		}
		if m.Content == nil {
			t.Errorf("message %d (%s) has no content", i, m.Role)
		}
		for _, c := range m.ToolCalls {
			if m.Role != "assistant" {
				t.Errorf("message %d: tool_calls on a %s message", i, m.Role)
			}
			var obj map[string]any
			if err := json.Unmarshal([]byte(c.Function.Arguments), &obj); err != nil {
				t.Errorf("message %d: re-sent arguments are not a JSON object: %q", i, c.Function.Arguments)
			}
			if c.ID == "" || open[c.ID] {
				t.Errorf("message %d: call id %q empty or repeated", i, c.ID)
			}
			open[c.ID] = true
		}
	}
	if len(open) > 0 {
		t.Errorf("calls %v are never answered", open)
	}
}

func approve(t *testing.T, eng *Engine, id string) {
	t.Helper()
	if _, err := eng.Approve(context.Background(), id, nil); err != nil {
		t.Fatal(err)
	}
}

func TestNativeCallFormsRunsAndGoesBackAsAToolMessage(t *testing.T) {
	n := newNative(t, demomodel.DefaultModel, chat.ToolModeNative)
	n.send("please calculate 17*23")
	c := n.calls("a native card", count(1))[0]
	if c.Format != FormatNative || c.State != chat.CallPending || c.Name != "calculate" || string(c.Arguments) != `{"expression":"17*23"}` {
		t.Fatalf("card: %+v", c)
	}
	reqs := n.requests(1)
	if len(reqs[0].Tools) != 2 || strings.Contains(*reqs[0].Messages[0].Content, "tool_calls") {
		t.Fatalf("a native request offers the tools as tools, not in the prompt: %+v", reqs[0])
	}
	// The card formed while the model wrote: its name first, then arguments growing.
	n.mu.Lock()
	var seen []string
	for _, f := range n.forming {
		for _, fc := range f.Calls {
			seen = append(seen, fc.Name+fc.Arguments)
		}
	}
	n.mu.Unlock()
	if len(seen) < 2 || !strings.HasPrefix(seen[0], "calculate") || len(seen[0]) >= len(seen[len(seen)-1]) || !strings.Contains(seen[len(seen)-1], "17*23") {
		t.Fatalf("forming: %q", seen)
	}

	approve(t, n.eng, c.ID)
	reqs = n.requests(2)
	msgs := reqs[1].Messages
	last, asst := msgs[len(msgs)-1], msgs[len(msgs)-2]
	if asst.Role != "assistant" || len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != c.ModelCallID ||
		last.Role != "tool" || last.ToolCallID != c.ModelCallID || *last.Content != "391" {
		t.Fatalf("the next request: %+v", msgs)
	}
	n.lastAnswer("391")
}

func TestNativeDenialAndSupersededCallsKeepTheConversationValid(t *testing.T) {
	n := newNative(t, demomodel.DefaultModel, chat.ToolModeNative)
	n.send("time and calc 2+2")
	calls := n.calls("two cards", count(2))
	if _, err := n.eng.Deny(context.Background(), calls[0].ID, "not now"); err != nil {
		t.Fatal(err)
	}
	approve(t, n.eng, calls[1].ID)
	reqs := n.requests(2)
	var denied string
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" && m.ToolCallID == calls[0].ModelCallID {
			denied = *m.Content
		}
	}
	if !strings.Contains(denied, "Reason: not now") {
		t.Fatalf("the denial goes back as the call's tool message: %q", denied)
	}
	n.lastAnswer("")

	// A call left undecided when the user moves on is still answered.
	n.send("what time is it")
	n.calls("a third card", count(3))
	n.send("never mind, just say hi")
	reqs = n.requests(4)
	if got := reqs[3].Messages; got[len(got)-1].Role != "user" {
		t.Fatalf("the new message ends the request: %+v", got[len(got)-1])
	}
}

func TestAutoFallsBackToTextWhenToolsAreRefusedAndRemembers(t *testing.T) {
	n := newNative(t, demomodel.TextOnlyModel, chat.ToolModeAuto)
	n.send("what time is it")
	c := n.calls("a text card", count(1))[0]
	if c.Format == FormatNative || c.Name != "get_current_time" {
		t.Fatalf("card: %+v", c)
	}
	reqs := n.requests(2)
	if len(reqs[0].Tools) == 0 || len(reqs[1].Tools) != 0 || !strings.Contains(*reqs[1].Messages[0].Content, "tool_calls") {
		t.Fatal("asked natively, refused, asked again with text calls in the same answer")
	}
	msgs, _ := n.st.ListMessages(context.Background(), n.chat.ID)
	if len(msgs) != 2 || msgs[1].Status != chat.StatusComplete {
		t.Fatalf("one answer, complete, after the fallback: %+v", msgs)
	}
	m, _ := n.st.GetModelMode(context.Background(), "demo", demomodel.TextOnlyModel)
	if m.Learned != chat.ToolModeText || !strings.Contains(m.Reason, "does not support tools") || m.LearnedAt == 0 {
		t.Fatalf("learned: %+v", m)
	}
	n.mu.Lock()
	notes := append([]bridge.Notice(nil), n.notes...)
	n.mu.Unlock()
	if len(notes) != 1 || notes[0].Code != "tool_mode_learned" {
		t.Fatalf("the user is told: %+v", notes)
	}

	// Next time it asks with text calls straight away.
	approve(t, n.eng, c.ID)
	reqs = n.requests(3)
	if len(reqs[2].Tools) != 0 {
		t.Fatal("a model learned as text is asked with text calls")
	}
}

func TestAutoLearnsFromAServerThatIgnoresTools(t *testing.T) {
	n := newNative(t, demomodel.IgnoresToolsModel, chat.ToolModeAuto)
	n.send("calculate 6*7")
	c := n.calls("a card read from the text", count(1))[0]
	if c.Format == FormatNative || c.Name != "calculate" {
		t.Fatalf("card: %+v", c)
	}
	if m, _ := n.st.GetModelMode(context.Background(), "demo", demomodel.IgnoresToolsModel); m.Learned != chat.ToolModeText || !strings.Contains(m.Reason, "as text") {
		t.Fatalf("learned: %+v", m)
	}
}

func TestAutoKeepsNativeWhenItWorksAndSaysNothing(t *testing.T) {
	n := newNative(t, demomodel.DefaultModel, chat.ToolModeAuto)
	n.send("what time is it")
	if c := n.calls("a native card", count(1))[0]; c.Format != FormatNative {
		t.Fatalf("card: %+v", c)
	}
	time.Sleep(50 * time.Millisecond)
	if m, _ := n.st.GetModelMode(context.Background(), "demo", demomodel.DefaultModel); m.Learned != chat.ToolModeNative {
		t.Fatalf("learned: %+v", m)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.notes) != 0 {
		t.Fatalf("confirming native needs no notice: %+v", n.notes)
	}
}

func TestBrokenNativeArgumentsAreProblemCardsAndTwiceInARowMeanText(t *testing.T) {
	n := newNative(t, demomodel.DefaultModel, chat.ToolModeAuto)
	n.send("show me something broken")
	c := n.calls("a problem card", count(1))[0]
	if c.State != chat.CallProblem || c.Format != FormatNative || !strings.Contains(c.Raw, "oops") {
		t.Fatalf("card: %+v", c)
	}
	if string(c.Arguments) != `{"expression":"17*23"}` {
		t.Errorf("the card shows the arguments as read, not %s", c.Arguments)
	}
	if m, _ := n.st.GetModelMode(context.Background(), "demo", demomodel.DefaultModel); m.Learned == chat.ToolModeText {
		t.Fatal("one slip is not enough to switch")
	}
	if _, err := n.eng.TellModel(context.Background(), c.ID); err != nil {
		t.Fatal(err)
	}
	n.requests(2)
	n.lastAnswer("")
	n.send("broken again please")
	n.calls("a second problem card", count(2))
	time.Sleep(50 * time.Millisecond)
	if m, _ := n.st.GetModelMode(context.Background(), "demo", demomodel.DefaultModel); m.Learned != chat.ToolModeText || !strings.Contains(m.Reason, "2 answers in a row") {
		t.Fatalf("learned: %+v", m)
	}
}

func TestSwitchingToTextRewritesNativeCallsAsText(t *testing.T) {
	n := newNative(t, demomodel.DefaultModel, chat.ToolModeNative)
	n.send("calculate 17*23")
	c := n.calls("a native card", count(1))[0]
	approve(t, n.eng, c.ID)
	n.requests(2)
	n.lastAnswer("391")
	ctx := context.Background()
	if _, err := n.st.SetChatOptions(ctx, n.chat.ID, chat.ChatOptions{Paradigm: "json", RecognizeOthers: true, ToolMode: chat.ToolModeText}); err != nil {
		t.Fatal(err)
	}
	n.send("thanks")
	reqs := n.requests(3)
	for _, m := range reqs[2].Messages {
		if m.Role == "tool" || len(m.ToolCalls) > 0 {
			t.Fatalf("a text request carries no native messages: %+v", reqs[2].Messages)
		}
	}
	if len(reqs[2].Tools) != 0 || !strings.Contains(*reqs[2].Messages[2].Content, `"calculate"`) {
		t.Fatalf("the native call is written as text in the answer: %+v", reqs[2].Messages)
	}
}
