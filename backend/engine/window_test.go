package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/store"
	"airlock/backend/tools"
)

// windowServer is an OpenAI-compatible server with a context window, like
// vLLM: a request longer than the window (counted as a token per four
// bytes of the messages and tools) is refused with HTTP 400 and vLLM's
// words. Otherwise it asks for the tool "fetch" in its first `turns`
// answers, then answers "done".
type windowServer struct {
	window, turns int
	mu            sync.Mutex
	bodies        []wireRequest
	sizes         []int
	refused       int
	answered      int
	summaries     int
	pageKB        int // the size of a fetched page (default 20)
	// cutAt, when set, makes the server cut a longer prompt silently, like
	// Ollama, and report what it kept.
	cutAt int
	notes []string // the codes of the chat notices the engine emitted
}

func (s *windowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req wireRequest
	_ = json.Unmarshal(body, &req)
	size := 0
	for _, m := range req.Messages {
		if m.Content != nil {
			size += len(*m.Content)
		}
		for _, tc := range m.ToolCalls {
			size += len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	for _, t := range req.Tools {
		size += len(t)
	}
	tokens := size / 4
	s.mu.Lock()
	s.bodies = append(s.bodies, req)
	s.sizes = append(s.sizes, tokens)
	if tokens > s.window {
		s.refused++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"object":"error","message":"This model's maximum context length is %d tokens. However, you requested %d tokens in the messages, Please reduce the length of the messages.","type":"BadRequestError","param":null,"code":400}`, s.window, tokens)
		return
	}
	summary := len(req.Tools) == 0 && len(req.Messages) > 0 && strings.HasPrefix(*req.Messages[0].Content, "You summarise")
	if summary {
		s.summaries++
	} else {
		s.answered++
	}
	n := s.answered
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta string, finish string) {
		fin := "null"
		if finish != "" {
			fin = `"` + finish + `"`
		}
		fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, fin)
	}
	if summary {
		chunk(fmt.Sprintf(`{"role":"assistant","content":"The user asked for the pages; %d were fetched so far."}`, n), "")
		chunk(`{}`, "stop")
	} else if n <= s.turns {
		chunk(fmt.Sprintf(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_%d","type":"function","function":{"name":"fetch","arguments":"{\"page\":%d}"}}]}`, n, n), "")
		chunk(`{}`, "tool_calls")
	} else {
		chunk(`{"role":"assistant","content":"done"}`, "")
		chunk(`{}`, "stop")
	}
	if s.cutAt > 0 && tokens > s.cutAt {
		tokens = s.cutAt - 30
	}
	fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":5,\"total_tokens\":%d}}\n\n", tokens, tokens+5)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// page is 20 KB of text like a fetched page.
func page(n int) string { return pageOf(n, 20) }

func pageOf(n, kb int) string {
	var b strings.Builder
	for i := 0; b.Len() < kb<<10; i++ {
		fmt.Fprintf(&b, "Line %d of page %d: the quick brown fox jumps over the lazy dog, and the function returns an error.\n", i, n)
	}
	return b.String()
}

func newWindowed(t *testing.T, srv *windowServer, window Window) (*Engine, *store.Store, chat.Chat) {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	st, err := store.Open(t.TempDir() + "/airlock.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	box, _ := tools.NewToolbox(tools.Tool{Spec: tools.Spec{Name: "fetch", Description: "Fetch a page.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"page":{"type":"integer"}}}`)},
		Run: tools.TextRun(func(_ context.Context, _ tools.Env, a json.RawMessage) (string, error) {
			var v struct{ Page int }
			_ = json.Unmarshal(a, &v)
			return pageOf(v.Page, cmp.Or(srv.pageKB, 20)), nil
		})})
	client := llm.New(llm.Config{BaseURL: hs.URL + "/v1", Model: "m"})
	emit := func(_ string, p any) {
		if n, ok := p.(bridge.Notice); ok {
			srv.mu.Lock()
			srv.notes = append(srv.notes, n.Code)
			srv.mu.Unlock()
		}
	}
	eng := New(Deps{Store: st, Tools: Fixed(box), Emit: emit,
		Connect: func(context.Context, chat.Chat) (chat.Provider, Model, error) {
			return chat.Provider{ID: "p", Model: "m"}, client, nil
		},
		Window: func(context.Context, chat.Provider) Window { return window }})
	t.Cleanup(eng.Shutdown)
	ctx := context.Background()
	c, _ := st.CreateChat(ctx, DefaultTitle)
	if c, err = st.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "json", ToolMode: chat.ToolModeNative}); err != nil {
		t.Fatal(err)
	}
	allowAlways(t, st, "fetch")
	editAgent(t, st, chat.DefaultAgentID, func(a *chat.Agent) { a.MaxTurns = 100 }) // the turn cap is the agent's
	return eng, st, c
}

func waitDone(t *testing.T, st *store.Store, chatID string) []chat.Message {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		msgs, _ := st.ListMessages(context.Background(), chatID)
		if l := len(msgs); l > 0 && msgs[l-1].Role == chat.RoleAssistant && msgs[l-1].Status != chat.StatusStreaming &&
			(msgs[l-1].Content == "done" || msgs[l-1].Status == chat.StatusError) {
			return msgs
		}
		if time.Now().After(deadline) {
			t.Fatalf("the loop did not finish; %d messages", len(msgs))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestToolLoopStaysInsideTheWindow: ninety calls with 20 KB results at an
// 8k window finish without one refused request; every request carries
// the tools; when the old results' stubs no longer fit, the older part is
// folded into a summary; the stored results stay whole.
func TestToolLoopStaysInsideTheWindow(t *testing.T) {
	srv := &windowServer{window: 8192, turns: 90}
	eng, st, c := newWindowed(t, srv, Window{Tokens: 8192, Source: "test"})
	if _, err := eng.Send(context.Background(), c.ID, "Fetch the pages one by one."); err != nil {
		t.Fatal(err)
	}
	msgs := waitDone(t, st, c.ID)
	last := msgs[len(msgs)-1]
	if last.Status != chat.StatusComplete {
		t.Fatalf("the loop failed: %s %s", last.ErrorCode, last.ErrorMessage)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.refused != 0 || srv.answered != 91 {
		t.Fatalf("%d requests, %d refused as too long (sizes %v)", len(srv.bodies), srv.refused, srv.sizes)
	}
	for i, b := range srv.bodies {
		checkConversation(t, b)
		if len(b.Tools) == 0 && strings.HasPrefix(*b.Messages[0].Content, "You summarise") {
			continue
		}
		if len(b.Tools) != 1 || *b.Messages[len(b.Messages)-1].Content == "" && b.Messages[len(b.Messages)-1].Role != "tool" {
			t.Fatalf("request %d lost its tools or its latest message", i)
		}
	}
	final := srv.bodies[len(srv.bodies)-1]
	t.Logf("%d requests, %d of them for a summary; sizes %v", len(srv.bodies), srv.summaries, srv.sizes)
	sums, _ := st.ListSummaries(context.Background(), c.ID)
	if len(sums) == 0 || srv.summaries != len(sums) || sums[len(sums)-1].State != chat.SummaryActive {
		t.Fatalf("summaries: %d asked, %+v stored", srv.summaries, sums)
	}
	if !strings.Contains(*final.Messages[0].Content, sums[len(sums)-1].Content) {
		t.Fatal("the last request does not start with the active summary")
	}
	calls, _ := st.ListCalls(context.Background(), c.ID)
	if len(calls) != 90 || calls[0].Result != page(1) {
		t.Fatalf("%d calls; the first result was not kept whole", len(calls))
	}
}

// TestOverflowLearnsTheWindowAndRetriesOnce: a server whose window is
// smaller than Airlock believes refuses the first request; Airlock learns
// the window from the error, fits again and the answer completes.
func TestOverflowLearnsTheWindowAndRetriesOnce(t *testing.T) {
	srv := &windowServer{window: 6000, turns: 3}
	eng, st, c := newWindowed(t, srv, Window{Tokens: 32768, Source: "test"})
	if _, err := eng.Send(context.Background(), c.ID, "Fetch three pages."); err != nil {
		t.Fatal(err)
	}
	msgs := waitDone(t, st, c.ID)
	if last := msgs[len(msgs)-1]; last.Status != chat.StatusComplete {
		t.Fatalf("the answer failed: %s", last.ErrorMessage)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.refused != 1 {
		t.Fatalf("%d refusals, want exactly one (sizes %v)", srv.refused, srv.sizes)
	}
	if w := eng.budgetFor(context.Background(), chat.Provider{ID: "p", Model: "m"}); w.Tokens != 6000 || w.Source != SourceOverflow {
		t.Fatalf("window %+v, want 6000 from the error", w.Window)
	}
}

func TestDefaultOverflow(t *testing.T) {
	n, ok := DefaultOverflow(fmt.Errorf("wrapped: %w", &llm.Error{Kind: llm.KindContextOverflow, Overflow: llm.Overflow{Window: 8192}}))
	if !ok || n != 8192 {
		t.Fatalf("%d %v", n, ok)
	}
	if _, ok := DefaultOverflow(&llm.Error{Kind: llm.KindBadRequest, Message: "temperature must be at most 2"}); ok {
		t.Error("an unrelated 400 was taken for an overflow")
	}
}

// TestCompactionModes: a chat set to ask first or off never has a summary
// written by itself, and still never overflows; undoing a summary takes it
// out of the next request, and running it again makes a new version.
func TestCompactionModes(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []chat.Compaction{chat.CompactAsk, chat.CompactOff, chat.CompactAuto} {
		srv := &windowServer{window: 4096, turns: 70, pageKB: 2}
		eng, st, c := newWindowed(t, srv, Window{Tokens: 4096, Source: "test"})
		if err := st.SetCompaction(ctx, c.ID, mode); err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Send(ctx, c.ID, "Fetch the pages."); err != nil {
			t.Fatal(err)
		}
		if last := waitDone(t, st, c.ID); last[len(last)-1].Status != chat.StatusComplete {
			t.Fatalf("%s: %s", mode, last[len(last)-1].ErrorMessage)
		}
		sums, _ := st.ListSummaries(ctx, c.ID)
		srv.mu.Lock()
		refused, asked := srv.refused, srv.summaries
		srv.mu.Unlock()
		if refused != 0 || (mode != chat.CompactAuto && (asked != 0 || len(sums) != 0)) || (mode == chat.CompactAuto && len(sums) == 0) {
			t.Fatalf("%s: %d refused, %d summaries asked, %d stored", mode, refused, asked, len(sums))
		}
		u, err := eng.ContextUsage(ctx, c.ID, "")
		if err != nil || u.Compaction != string(mode) || u.Used > u.Window-u.Reserve || u.Window != 4096 {
			t.Fatalf("%s: usage %+v %v", mode, u, err)
		}
		if mode != chat.CompactAuto {
			if u.Dropped == 0 {
				t.Fatalf("%s: nothing is left out without a summary: %+v", mode, u)
			}
			continue
		}
		// Undo: the next request goes back to leaving messages out.
		active := sums[len(sums)-1]
		if u.Summarized == 0 {
			t.Fatalf("the gauge does not count the summary: %+v", u)
		}
		if _, err := eng.UndoSummary(ctx, active.ID); err != nil {
			t.Fatal(err)
		}
		if u, _ = eng.ContextUsage(ctx, c.ID, ""); u.Summarized != 0 || u.Dropped == 0 {
			t.Fatalf("after undo: %+v", u)
		}
		again, err := eng.CompactNow(ctx, c.ID)
		if err != nil || again.Version != active.Version+1 || again.State != chat.SummaryActive {
			t.Fatalf("run again: %+v %v", again, err)
		}
		if u, _ = eng.ContextUsage(ctx, c.ID, ""); u.Summarized == 0 {
			t.Fatalf("after running again: %+v", u)
		}
		msgs, _ := st.ListMessages(ctx, c.ID)
		calls, _ := st.ListCalls(ctx, c.ID)
		if len(calls) != 70 || calls[0].Result != pageOf(1, 2) || msgs[0].Content != "Fetch the pages." {
			t.Fatal("the compacted messages were changed")
		}
	}
}

// TestTooSmallSaysWhy: a window too small for the tools and the message is
// a clear error, not a request sent to be refused.
func TestTooSmallSaysWhy(t *testing.T) {
	srv := &windowServer{window: 600, turns: 0}
	eng, st, c := newWindowed(t, srv, Window{Tokens: 600, Source: "test"})
	if _, err := eng.Send(context.Background(), c.ID, strings.Repeat("a long question ", 400)); err != nil {
		t.Fatal(err)
	}
	msgs := waitDone(t, st, c.ID)
	last := msgs[len(msgs)-1]
	if last.ErrorCode != "context_too_small" || !strings.Contains(last.ErrorMessage, "600 tokens") {
		t.Fatalf("%s: %s", last.ErrorCode, last.ErrorMessage)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.bodies) != 0 {
		t.Fatalf("%d requests were sent", len(srv.bodies))
	}
}

// TestSilentTruncationIsToldAndNotLearned: a server that runs the model
// with 4k while Airlock believes 16k cuts the prompt without a word (like
// Ollama) and reports what it kept; the chat is told, and the report does
// not teach the counter that requests are small.
func TestSilentTruncationIsToldAndNotLearned(t *testing.T) {
	srv := &windowServer{window: 1 << 20, turns: 3, cutAt: 4096}
	eng, st, c := newWindowed(t, srv, Window{Tokens: 16384, Source: "test"})
	if _, err := eng.Send(context.Background(), c.ID, "Fetch three pages."); err != nil {
		t.Fatal(err)
	}
	waitDone(t, st, c.ID)
	srv.mu.Lock()
	notes := strings.Join(srv.notes, ",")
	srv.mu.Unlock()
	if !strings.Contains(notes, "context_truncated") {
		t.Fatalf("notices %s", notes)
	}
	eng.win.mu.Lock()
	defer eng.win.mu.Unlock()
	if r := eng.win.ratio["p\x00m"]; r != 0 && r < 0.9 {
		t.Fatalf("a cut report was learned: ratio %v", r)
	}
}
