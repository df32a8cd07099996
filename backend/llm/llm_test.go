package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/uitext"
)

// --- helpers ---------------------------------------------------------------

// chunk renders one SSE event of an OpenAI-style stream. delta is raw JSON.
func chunk(delta string, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test-2024",` +
		`"choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}` + "\n\n"
}

func content(s string) string {
	b, _ := json.Marshal(map[string]string{"content": s})
	return chunk(string(b), "")
}

const (
	roleChunk  = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test-2024","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n"
	usageChunk = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test-2024","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}` + "\n\n"
	doneEvent  = "data: [DONE]\n\n"
)

var stopChunk = chunk(`{}`, "stop")

// sseServer serves the given events, flushing after each.
func sseServer(t *testing.T, events ...string) *httptest.Server {
	return server(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, e := range events {
			send(w, e)
		}
	})
}

func server(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
}

func send(w http.ResponseWriter, event string) {
	_, _ = io.WriteString(w, event)
	w.(http.Flusher).Flush()
}

type outcome struct {
	text, reasoning string
	deltas          int
	live            []llm.ToolCall // the calls as the deltas built them
	notices         []string
	res             llm.Result
	err             error
	elapsed         time.Duration
}

func stream(t *testing.T, cfg llm.Config, ctx context.Context, req llm.Request) outcome {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = "gpt-test"
	}
	if len(req.Messages) == 0 {
		req.Messages = []llm.Message{{Role: chat.RoleUser, Content: "hi"}}
	}
	var o outcome
	start := time.Now()
	o.res, o.err = llm.New(cfg).Stream(ctx, req, func(d llm.Delta) {
		o.deltas++
		if d.Notice != "" {
			o.notices = append(o.notices, d.Notice)
		}
		if d.TextWasReasoning {
			o.reasoning += o.text
			o.text = ""
		}
		o.reasoning += d.Reasoning
		o.text += d.Text
		for _, tc := range d.ToolCalls {
			if tc.Index > len(o.live) {
				t.Errorf("delta for call %d before call %d began", tc.Index, len(o.live))
				continue
			}
			if tc.Index == len(o.live) {
				o.live = append(o.live, llm.ToolCall{})
			}
			c := &o.live[tc.Index]
			if tc.ID != "" {
				if c.ID != "" {
					t.Errorf("call %d: id delivered twice (%q, %q)", tc.Index, c.ID, tc.ID)
				}
				c.ID = tc.ID
			}
			c.Name += tc.Name
			c.Arguments += tc.Arguments
		}
	})
	o.elapsed = time.Since(start)
	return o
}

func wantKind(t *testing.T, err error, kind llm.ErrorKind) *llm.Error {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("want *llm.Error of kind %s, got %T %v", kind, err, err)
	}
	if e.Kind != kind || e.Code() != string(kind) {
		t.Fatalf("want kind %s, got %s: %s", kind, e.Kind, e.Message)
	}
	if e.Message == "" || e.Error() != e.Message {
		t.Fatalf("bad message %q / %q", e.Message, e.Error())
	}
	return e
}

// --- streaming ---------------------------------------------------------------

func TestStreamText(t *testing.T) {
	var body map[string]any
	var auth string
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		auth = r.Header.Get("Authorization")
		body = nil
		_ = json.NewDecoder(r.Body).Decode(&body)
		startSSE(w)
		for _, e := range []string{roleChunk, content("Hel"), content("lo, "), content("wörld ✓"), stopChunk, usageChunk, doneEvent} {
			send(w, e)
		}
	})
	zero := float32(0)
	o := stream(t, llm.Config{BaseURL: srv.URL + "/v1/", APIKey: "sk-test"}, t.Context(), llm.Request{
		Messages:    []llm.Message{{Role: chat.RoleSystem, Content: "be brief"}, {Role: chat.RoleUser, Content: "hi"}},
		Temperature: &zero,
	})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.text != "Hello, wörld ✓" || o.reasoning != "" {
		t.Fatalf("text %q reasoning %q", o.text, o.reasoning)
	}
	if o.deltas != 3 {
		t.Errorf("want 3 deltas (empty role chunk skipped), got %d", o.deltas)
	}
	want := llm.Result{Usage: chat.Usage{PromptTokens: 5, CompletionTokens: 3, TotalTokens: 8}, FinishReason: "stop", Model: "gpt-test-2024"}
	if !reflect.DeepEqual(o.res, want) {
		t.Errorf("result %+v, want %+v", o.res, want)
	}
	if auth != "Bearer sk-test" {
		t.Errorf("auth header %q", auth)
	}
	if body["model"] != "gpt-test" || body["stream"] != true {
		t.Errorf("body %v", body)
	}
	if so, _ := body["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options %v", body["stream_options"])
	}
	if temp, ok := body["temperature"].(float64); !ok || temp < 0 || temp > 1e-6 {
		t.Errorf("temperature 0 must be sent as (almost) zero, got %v", body["temperature"])
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" || msgs[1].(map[string]any)["content"] != "hi" {
		t.Errorf("messages %v", msgs)
	}
}

func TestStreamTemperatureOmittedByDefault(t *testing.T) {
	var body map[string]any
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		body = nil
		_ = json.NewDecoder(r.Body).Decode(&body)
		startSSE(w)
		send(w, content("x")+stopChunk+doneEvent)
	})
	if o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{}); o.err != nil {
		t.Fatal(o.err)
	}
	if _, ok := body["temperature"]; ok {
		t.Errorf("nil temperature must be omitted, got %v", body["temperature"])
	}
	// Reasoning models reject anything but the default: drop it, don't fail.
	warm := float32(0.7)
	if o := stream(t, llm.Config{BaseURL: srv.URL, Model: "o3-mini"}, t.Context(), llm.Request{Temperature: &warm}); o.err != nil {
		t.Fatal(o.err)
	}
	if _, ok := body["temperature"]; ok {
		t.Errorf("temperature sent to a reasoning model: %v", body["temperature"])
	}
	if o := stream(t, llm.Config{BaseURL: srv.URL, Model: "gpt-4o"}, t.Context(), llm.Request{Temperature: &warm}); o.err != nil {
		t.Fatal(o.err)
	}
	if v, _ := body["temperature"].(float64); v < 0.69 || v > 0.71 {
		t.Errorf("temperature %v, want 0.7", body["temperature"])
	}
}

func TestStreamReasoningFields(t *testing.T) {
	srv := sseServer(t, roleChunk,
		chunk(`{"reasoning_content":"First, "}`, ""),
		chunk(`{"reasoning_content":"think.","content":null}`, ""),
		chunk(`{"reasoning":" More (OpenRouter style)."}`, ""),
		chunk(`{"reasoning":{"summary":"not a string"}}`, ""), // ignored, not fatal
		content("The answer mentions </think> literally."),
		stopChunk, doneEvent)
	o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.reasoning != "First, think. More (OpenRouter style)." {
		t.Errorf("reasoning %q", o.reasoning)
	}
	if o.text != "The answer mentions </think> literally." {
		t.Errorf("text %q: with a reasoning field, tags in content are prose", o.text)
	}
}

func TestStreamInlineThinkTags(t *testing.T) {
	srv := sseServer(t, roleChunk, content("\n<thi"), content("nk>\nLet me"), content(" plan.</th"), content("ink>\n\nThe "), content("answer."), stopChunk, doneEvent)
	o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.reasoning != "Let me plan." || o.text != "The answer." {
		t.Errorf("reasoning %q text %q", o.reasoning, o.text)
	}
}

func TestStreamThinkWithoutOpener(t *testing.T) {
	srv := sseServer(t, roleChunk, content("Reasoning without "), content("an opener.\n</think>"), content("\n\nAnswer."), stopChunk, doneEvent)
	o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.reasoning != "Reasoning without an opener.\n" || o.text != "Answer." {
		t.Errorf("reasoning %q text %q", o.reasoning, o.text)
	}
}

// A stream with finish_reason but no [DONE] (or usage) is complete enough.
func TestStreamFinishWithoutDone(t *testing.T) {
	srv := sseServer(t, roleChunk, content("ok"), chunk(`{}`, "length"))
	o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
	if o.err != nil || o.text != "ok" || o.res.FinishReason != "length" {
		t.Fatalf("%+v", o)
	}
}

// --- HTTP errors ---------------------------------------------------------------

func TestStreamHTTPErrors(t *testing.T) {
	openAIBody := func(msg string) string {
		return `{"error":{"message":"` + msg + `","type":"invalid_request_error","param":null,"code":null}}`
	}
	cases := []struct {
		name    string
		status  int
		body    string
		header  map[string]string
		kind    llm.ErrorKind
		message string // exact when set
		contain []string
	}{
		{name: "401", status: 401, body: openAIBody("Incorrect API key provided."), kind: llm.KindUnauthorized,
			message: "The provider rejected the API key (HTTP 401): Incorrect API key provided."},
		{name: "403", status: 403, body: openAIBody("Country not supported"), kind: llm.KindUnauthorized,
			contain: []string{"HTTP 403", "Country not supported."}},
		{name: "404 unknown model", status: 404, body: openAIBody("The model `gpt-test` does not exist"), kind: llm.KindNotFound,
			contain: []string{`"gpt-test"`, "HTTP 404", "The model `gpt-test` does not exist."}},
		{name: "429", status: 429, body: openAIBody("Rate limit reached"), header: map[string]string{"Retry-After": "7"}, kind: llm.KindRateLimited,
			message: "The provider is rate-limiting requests (HTTP 429): Rate limit reached. Retry after 7 seconds."},
		{name: "500", status: 500, body: openAIBody("The server had an error"), kind: llm.KindServer,
			contain: []string{"HTTP 500", "The server had an error."}},
		{name: "502 html", status: 502, body: "<html><body>Bad Gateway</body></html>", kind: llm.KindServer,
			message: "The provider had a server error (HTTP 502). Try again later."},
		{name: "400 ollama-ish string error", status: 400, body: `{"error":"messages are required"}`, kind: llm.KindBadRequest,
			message: "The provider rejected the request (HTTP 400): messages are required."},
		{name: "422 plain text", status: 422, body: "unprocessable: bad field", kind: llm.KindBadRequest,
			contain: []string{"HTTP 422", "unprocessable: bad field"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := server(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range c.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(c.status)
				_, _ = io.WriteString(w, c.body)
			})
			o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
			e := wantKind(t, o.err, c.kind)
			if e.StatusCode != c.status {
				t.Errorf("status %d", e.StatusCode)
			}
			if c.message != "" && e.Message != c.message {
				t.Errorf("message %q, want %q", e.Message, c.message)
			}
			for _, s := range c.contain {
				if !strings.Contains(e.Message, s) {
					t.Errorf("message %q lacks %q", e.Message, s)
				}
			}
			if c.status == 429 && e.RetryAfter != 7*time.Second {
				t.Errorf("RetryAfter %v", e.RetryAfter)
			}
			// Coded for the UI's language, the server's words as a parameter.
			if tx, ok := uitext.Whole(o.err); !ok || tx.Code == "" || tx.English != e.Message {
				t.Errorf("not coded whole: %+v", tx)
			}
		})
	}
}

// --- transport failures -----------------------------------------------------------

func TestStreamConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	base := "http://" + addr + "/v1"
	o := stream(t, llm.Config{BaseURL: base}, t.Context(), llm.Request{})
	e := wantKind(t, o.err, llm.KindConnection)
	if want := "Could not connect to " + base + ": connection refused. Is the server running?"; e.Message != want {
		t.Errorf("message %q, want %q", e.Message, want)
	}
	if tx, ok := uitext.Whole(o.err); !ok || tx.Code != "llm_conn_refused" || tx.Params["server"] != base {
		t.Errorf("text %+v", tx)
	}
}

func TestStreamBadBaseURL(t *testing.T) {
	o := stream(t, llm.Config{BaseURL: "localhost:11434/v1"}, t.Context(), llm.Request{})
	if e := wantKind(t, o.err, llm.KindConnection); !strings.Contains(e.Message, "must start with http:// or https://") {
		t.Errorf("message %q", e.Message)
	}
}

func TestStreamConnectTimeout(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so the server notices the client leaving
		select {                           // never send headers
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	o := stream(t, llm.Config{BaseURL: srv.URL, ConnectTimeout: 100 * time.Millisecond}, t.Context(), llm.Request{})
	e := wantKind(t, o.err, llm.KindTimeout)
	if errors.Is(e, context.Canceled) || !errors.Is(e, context.DeadlineExceeded) {
		t.Errorf("a timeout must not look like a cancel: %v", e.Err)
	}
	if !strings.Contains(e.Message, "100ms") {
		t.Errorf("message %q", e.Message)
	}
	if o.elapsed > time.Second {
		t.Errorf("took %v", o.elapsed)
	}
}

func TestStreamIdleTimeoutKeepsText(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		send(w, roleChunk)
		send(w, content("Partial "))
		send(w, content("answer"))
		<-r.Context().Done()
	})
	o := stream(t, llm.Config{BaseURL: srv.URL, IdleTimeout: 150 * time.Millisecond}, t.Context(), llm.Request{})
	e := wantKind(t, o.err, llm.KindTimeout)
	if errors.Is(e, context.Canceled) {
		t.Error("idle timeout reported as cancel")
	}
	if o.text != "Partial answer" {
		t.Errorf("text before the stall must stay delivered, got %q", o.text)
	}
	if o.elapsed > time.Second {
		t.Errorf("took %v", o.elapsed)
	}
}

// Chunks arriving more often than IdleTimeout keep the stream alive even
// when the whole answer takes longer than IdleTimeout.
func TestStreamIdleTimerResets(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for i := range 6 {
			send(w, content(fmt.Sprint(i)))
			time.Sleep(40 * time.Millisecond)
		}
		send(w, stopChunk+doneEvent)
	})
	o := stream(t, llm.Config{BaseURL: srv.URL, IdleTimeout: 120 * time.Millisecond, ConnectTimeout: 120 * time.Millisecond}, t.Context(), llm.Request{})
	if o.err != nil || o.text != "012345" {
		t.Fatalf("text %q err %v (elapsed %v)", o.text, o.err, o.elapsed)
	}
}

func TestStreamBrokenKeepsText(t *testing.T) {
	t.Run("connection cut", func(t *testing.T) {
		srv := server(t, func(w http.ResponseWriter, r *http.Request) {
			startSSE(w)
			send(w, roleChunk+content("Before ")+content("the break"))
			panic(http.ErrAbortHandler)
		})
		o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
		wantKind(t, o.err, llm.KindStreamBroken)
		if o.text != "Before the break" {
			t.Errorf("text %q", o.text)
		}
	})
	t.Run("clean close without finish", func(t *testing.T) {
		srv := sseServer(t, roleChunk, content("Half an ans"))
		o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
		e := wantKind(t, o.err, llm.KindStreamBroken)
		if o.text != "Half an ans" || !strings.Contains(e.Message, "before the answer was finished") {
			t.Errorf("text %q message %q", o.text, e.Message)
		}
	})
	t.Run("held-back text is flushed", func(t *testing.T) {
		srv := sseServer(t, roleChunk, content("a <"))
		o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
		wantKind(t, o.err, llm.KindStreamBroken)
		if o.text != "a <" {
			t.Errorf("text %q", o.text)
		}
	})
}

func TestStreamUndecodableChunk(t *testing.T) {
	srv := sseServer(t, roleChunk, content("Good so far"), "data: {\"choices\": [oops\n\n", content("never"), stopChunk, doneEvent)
	o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
	e := wantKind(t, o.err, llm.KindStreamBroken)
	if o.text != "Good so far" {
		t.Errorf("text %q", o.text)
	}
	if !strings.Contains(e.Message, "could not read") {
		t.Errorf("message %q", e.Message)
	}
}

func TestStreamErrorEvent(t *testing.T) {
	for name, event := range map[string]string{
		"openai":     `data: {"error":{"message":"The model is overloaded","type":"server_error"}}` + "\n\n",
		"openrouter": `data: {"id":"x","object":"chat.completion.chunk","error":{"code":502,"message":"The model is overloaded"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}` + "\n\n",
		"vllm":       `data: {"object":"error","message":"The model is overloaded","type":"InternalServerError","code":500}` + "\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			srv := sseServer(t, roleChunk, content("Start"), event)
			o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
			e := wantKind(t, o.err, llm.KindServer)
			if o.text != "Start" || !strings.Contains(e.Message, "The model is overloaded.") {
				t.Errorf("text %q message %q", o.text, e.Message)
			}
		})
	}
}

func TestStreamCanceled(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		send(w, roleChunk+content("Some text"))
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var canceledAt time.Time
	var text string
	res, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "m"}).Stream(ctx, llm.Request{}, func(d llm.Delta) {
		text += d.Text
		if canceledAt.IsZero() {
			canceledAt = time.Now()
			cancel() // the user presses Stop
		}
	})
	e := wantKind(t, err, llm.KindCanceled)
	if !errors.Is(e, context.Canceled) {
		t.Errorf("want errors.Is(err, context.Canceled): %v", e.Err)
	}
	if d := time.Since(canceledAt); d > 500*time.Millisecond {
		t.Errorf("Stream returned %v after cancel", d)
	}
	if text != "Some text" || res.Model != "gpt-test-2024" {
		t.Errorf("text %q res %+v", text, res)
	}
}

// --- models ---------------------------------------------------------------------

func TestListModels(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Authorization") != "Bearer k":
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"error":{"message":"Invalid key","type":"auth"}}`)
		case r.URL.Path == "/v1/models":
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"zeta","object":"model"},{"id":"alpha","object":"model"}]}`)
		default:
			w.WriteHeader(404)
			_, _ = io.WriteString(w, "404 page not found")
		}
	})
	ids, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", APIKey: "k"}).ListModels(t.Context())
	if err != nil || strings.Join(ids, ",") != "alpha,zeta" {
		t.Fatalf("ids %v err %v", ids, err)
	}
	_, err = llm.New(llm.Config{BaseURL: srv.URL + "/v1", APIKey: "bad"}).ListModels(t.Context())
	if e := wantKind(t, err, llm.KindUnauthorized); !strings.Contains(e.Message, "Invalid key") {
		t.Errorf("message %q", e.Message)
	}
	_, err = llm.New(llm.Config{BaseURL: srv.URL, APIKey: "k"}).ListModels(t.Context()) // forgot /v1
	if e := wantKind(t, err, llm.KindNotFound); !strings.Contains(e.Message, "/v1") {
		t.Errorf("message %q", e.Message)
	}
}
