package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/paradigm"
	"airlock/backend/store"
)

// fakeModel streams scripted deltas; block makes it wait for cancellation
// after sending them, like a slow model.
type fakeModel struct {
	deltas []llm.Delta
	err    error
	block  bool
	gotReq chan llm.Request
}

func (f *fakeModel) Stream(ctx context.Context, req llm.Request, on func(llm.Delta)) (llm.Result, error) {
	if f.gotReq != nil {
		f.gotReq <- req
	}
	for _, d := range f.deltas {
		on(d)
	}
	if f.block {
		<-ctx.Done()
		return llm.Result{}, &llm.Error{Kind: llm.KindCanceled, Message: "canceled"}
	}
	if f.err != nil {
		return llm.Result{}, f.err
	}
	return llm.Result{Usage: chat.Usage{PromptTokens: 3, CompletionTokens: 5, TotalTokens: 8}, FinishReason: "stop", Model: "fake-1"}, nil
}

type events struct {
	mu   sync.Mutex
	all  []string
	ends chan bridge.EndEvent
}

func (e *events) emit(name string, p any) {
	e.mu.Lock()
	e.all = append(e.all, name)
	e.mu.Unlock()
	if end, ok := p.(bridge.EndEvent); ok {
		e.ends <- end
	}
}

func setup(t *testing.T, m Model, connErr error) (*Engine, *store.Store, *events, chat.Chat) {
	t.Helper()
	st, err := store.Open(t.TempDir() + "/airlock.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ev := &events{ends: make(chan bridge.EndEvent, 10)}
	eng := New(Deps{Store: st, Connect: func(context.Context, chat.Chat) (chat.Provider, Model, error) {
		return chat.Provider{Name: "Fake", Model: "fake-1"}, m, connErr
	}, Emit: ev.emit})
	t.Cleanup(eng.Shutdown)
	c, err := st.CreateChat(context.Background(), DefaultTitle)
	if err != nil {
		t.Fatal(err)
	}
	return eng, st, ev, c
}

func waitEnd(t *testing.T, ev *events) bridge.EndEvent {
	t.Helper()
	select {
	case e := <-ev.ends:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no stream:end event")
	}
	return bridge.EndEvent{}
}

func TestSendStreamsAndCompletes(t *testing.T) {
	ctx := context.Background()
	m := &fakeModel{deltas: []llm.Delta{{Reasoning: "hmm "}, {Text: "Hel"}, {Text: "lo!"}}, gotReq: make(chan llm.Request, 1)}
	eng, st, ev, c := setup(t, m, nil)
	editAgent(t, st, chat.DefaultAgentID, func(a *chat.Agent) {
		temp := 0.5
		a.SystemPrompt, a.Temperature = "Be brief.", &temp
	})
	msgs, err := eng.Send(ctx, c.ID, "Hi there\nsecond line")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].Role != chat.RoleUser || msgs[1].Status != chat.StatusStreaming {
		t.Fatalf("Send returned %+v", msgs)
	}
	req := <-m.gotReq
	if len(req.Messages) != 2 || req.Messages[0].Role != chat.RoleSystem || req.Messages[0].Content != "Be brief." ||
		req.Messages[1].Content != "Hi there\nsecond line" || req.Temperature == nil || *req.Temperature != 0.5 {
		t.Fatalf("request: %+v", req)
	}
	end := waitEnd(t, ev)
	if end.Message.Status != chat.StatusComplete || end.Message.Content != "Hello!" || end.Message.Reasoning != "hmm " ||
		end.Message.Usage.TotalTokens != 8 || end.Message.Model != "fake-1" {
		t.Fatalf("end: %+v", end.Message)
	}
	stored, err := st.GetMessage(ctx, msgs[1].ID)
	if err != nil || stored.Content != "Hello!" || stored.Status != chat.StatusComplete || stored.Usage.TotalTokens != 8 {
		t.Fatalf("stored: %+v %v", stored, err)
	}
	got, _ := st.GetChat(ctx, c.ID)
	if got.Title != "Hi there" {
		t.Fatalf("auto title = %q", got.Title)
	}
	if eng.Streaming(c.ID) {
		t.Fatal("still streaming after end")
	}
}

func TestStopKeepsPartialText(t *testing.T) {
	ctx := context.Background()
	eng, st, ev, c := setup(t, &fakeModel{deltas: []llm.Delta{{Text: "partial "}, {Text: "answer"}}, block: true}, nil)
	msgs, err := eng.Send(ctx, c.ID, "go")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Send(ctx, c.ID, "again"); !errors.Is(err, chat.ErrBusy) {
		t.Fatalf("second send while streaming: %v", err)
	}
	eng.Stop(c.ID)
	end := waitEnd(t, ev)
	if end.Message.Status != chat.StatusInterrupted || end.Message.Content != "partial answer" || end.Message.ErrorCode != "" {
		t.Fatalf("end: %+v", end.Message)
	}
	stored, _ := st.GetMessage(ctx, msgs[1].ID)
	if stored.Status != chat.StatusInterrupted || stored.Content != "partial answer" {
		t.Fatalf("stored: %+v", stored)
	}
}

func TestProviderErrorKeepsUserMessageAndRetryReplaces(t *testing.T) {
	ctx := context.Background()
	m := &fakeModel{deltas: []llm.Delta{{Text: "half"}}, err: &llm.Error{Kind: llm.KindServer, StatusCode: 500, Message: "The provider failed (HTTP 500): boom"}}
	eng, st, ev, c := setup(t, m, nil)
	msgs, err := eng.Send(ctx, c.ID, "question")
	if err != nil {
		t.Fatal(err)
	}
	end := waitEnd(t, ev)
	if end.Message.Status != chat.StatusError || end.Message.ErrorCode != "server" || !strings.Contains(end.Message.ErrorMessage, "HTTP 500") || end.Message.Content != "half" {
		t.Fatalf("end: %+v", end.Message)
	}
	m.err, m.deltas = nil, []llm.Delta{{Text: "whole answer"}}
	retried, err := eng.Retry(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	end = waitEnd(t, ev)
	if end.MessageID != retried.ID || end.Message.Status != chat.StatusComplete {
		t.Fatalf("retry end: %+v", end)
	}
	all, _ := st.ListMessages(ctx, c.ID)
	if len(all) != 2 || all[0].ID != msgs[0].ID || all[1].Content != "whole answer" {
		t.Fatalf("after retry: %+v", all)
	}
	if _, err := eng.Retry(ctx, c.ID); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("retry of a complete answer: %v", err)
	}
}

func TestNoProviderFailsVisibly(t *testing.T) {
	ctx := context.Background()
	eng, st, ev, c := setup(t, nil, chat.Errorf("no_model", chat.ErrInvalid, "No model is chosen."))
	msgs, err := eng.Send(ctx, c.ID, "hello")
	if err != nil || len(msgs) != 2 {
		t.Fatalf("send: %v %+v", err, msgs)
	}
	end := waitEnd(t, ev)
	if end.Message.Status != chat.StatusError || end.Message.ErrorCode != "no_model" {
		t.Fatalf("end: %+v", end.Message)
	}
	all, _ := st.ListMessages(ctx, c.ID)
	if len(all) != 2 || all[0].Content != "hello" {
		t.Fatalf("user message lost: %+v", all)
	}
}

func TestEmptyMessageRejected(t *testing.T) {
	eng, _, _, c := setup(t, &fakeModel{}, nil)
	if _, err := eng.Send(context.Background(), c.ID, "  \n "); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("got %v", err)
	}
}

// A slow stream is persisted while it grows: a crash loses at most a moment.
func TestGrowingAnswerIsPersisted(t *testing.T) {
	ctx := context.Background()
	eng, st, ev, c := setup(t, &fakeModel{deltas: []llm.Delta{{Text: "so far"}}, block: true}, nil)
	msgs, _ := eng.Send(ctx, c.ID, "go")
	deadline := time.Now().Add(3 * time.Second)
	for {
		m, _ := st.GetMessage(ctx, msgs[1].ID)
		if m.Content == "so far" && m.Status == chat.StatusStreaming {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("growing answer not persisted: %+v", m)
		}
		time.Sleep(20 * time.Millisecond)
	}
	eng.Shutdown()
	end := waitEnd(t, ev)
	if end.Message.Status != chat.StatusInterrupted {
		t.Fatalf("shutdown must interrupt: %+v", end.Message)
	}
}

func TestBuildMessagesSkipsPlaceholdersAndEmptyFailures(t *testing.T) {
	h := []chat.Message{
		{Role: chat.RoleUser, Content: "a", Status: chat.StatusComplete},
		{Role: chat.RoleAssistant, Content: "", Status: chat.StatusError},
		{Role: chat.RoleUser, Content: "b", Status: chat.StatusComplete},
		{Role: chat.RoleAssistant, Content: "part", Status: chat.StatusInterrupted},
		{Role: chat.RoleAssistant, Content: "", Status: chat.StatusStreaming},
	}
	par, _ := paradigm.Get("json")
	got := turnPlan{history: h}.messages("  ", par, false)
	var roles []string
	for _, m := range got {
		roles = append(roles, string(m.Role)+":"+m.Content)
	}
	if strings.Join(roles, ",") != "user:a,user:b,assistant:part" {
		t.Fatalf("got %v", roles)
	}
}

func TestTitleFrom(t *testing.T) {
	cases := map[string]string{
		"  Hello\nworld":            "Hello",
		"short":                     "short",
		strings.Repeat("word ", 30): strings.TrimSpace(strings.Repeat("word ", 12)) + "…",
		strings.Repeat("中", 70):     strings.Repeat("中", 60) + "…",
		// A paste: the title is its first line with words, capped; fences and heading marks are skipped.
		"```go\npackage main\n" + strings.Repeat("x := 1\n", 30) + "```":           "package main",
		"```\n\n  func main() {\n}":                                                "func main() {",
		"# Release notes\n\nmore":                                                  "Release notes",
		"---\n\t tab\t and   spaces \n":                                            "tab and spaces",
		strings.Repeat("line 0001: a pasted log line that goes on and on\n", 3000): "line 0001: a pasted log line that goes on and on",
		strings.Repeat("y", 200000):                                                strings.Repeat("y", 60) + "…",
		"\n\n   \n":                                                                "",
	}
	for in, want := range cases {
		if got := titleFrom(in); got != want {
			t.Errorf("titleFrom(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLiveMessageIsFresherThanTheStore(t *testing.T) {
	ctx := context.Background()
	eng, _, ev, c := setup(t, &fakeModel{deltas: []llm.Delta{{Text: "fresh"}}, block: true}, nil)
	msgs, _ := eng.Send(ctx, c.ID, "go")
	deadline := time.Now().Add(3 * time.Second)
	for {
		if m, ok := eng.Live(msgs[1].ID); ok && m.Content == "fresh" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("live message never showed the streamed text")
		}
		time.Sleep(5 * time.Millisecond)
	}
	eng.Stop(c.ID)
	waitEnd(t, ev)
	if _, ok := eng.Live(msgs[1].ID); ok {
		t.Fatal("a finished message is not live")
	}
}
