// Package demomodel is a scripted OpenAI-compatible chat server (and an
// Anthropic Messages one, see messages.go). Tests use it, and the app ships
// it as the built-in offline Demo provider.
//
// Endpoints (under /v1): GET /models, POST /messages (Anthropic's wire,
// streaming only), and POST /chat/completions, streaming
// (SSE, like OpenAI: a role chunk, content deltas of 2–8 characters, a
// finish_reason chunk, a usage chunk when stream_options.include_usage, then
// [DONE]) or not (one JSON completion).
//
// The reply is chosen from the last user message by case-insensitive
// substring; the first matching rule wins:
//
//	error 401, error 404, error 429, error 500
//	              that HTTP error, with an OpenAI-style body (429 adds Retry-After: 7)
//	drop          part of an answer, then the connection is cut (no [DONE])
//	hang          headers and the role chunk, then silence until the client leaves
//	slow, long    ~3,000 characters of markdown at 40 ms a chunk (~20 s): time to press Stop
//	think, reason reasoning_content deltas first, then the answer
//	markdown      a showcase: headings, lists, a table, Go and TypeScript code, a link
//	xss           hostile HTML, to check the UI sanitizes it
//	anything else a tool script when the request offers tools (see tools.go:
//	              what time is it, calculate 17*23, time and calc, loop,
//	              work with files, mcp echo …, broken), else a welcome that
//	              explains Airlock and lists these phrases
//
// Tools are offered either natively (the request's "tools") or by a system
// prompt that teaches a text paradigm. Natively, the demo answers a tool
// script with a short text and then native tool_calls: arguments in 2–8
// character pieces, parallel calls interleaved by index, ids on each call's
// first piece only, finish_reason "tool_calls" (message.tool_calls when not
// streaming). It only calls tools the request lists, and reads results back
// from "tool" messages. With a paradigm, it writes the calls as that
// paradigm teaches and reads the results message.
//
// Models (GET /models lists them, DefaultModel first): DefaultModel as
// above; TextOnlyModel refuses requests with tools with Ollama's HTTP 400
// ("… does not support tools"); IgnoresToolsModel takes tools but writes its
// calls as text. Without tools all three are the same demo.
//
// The rules are a table (see rules in replies.go) so scripts can be added.
package demomodel

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The demo's models. DefaultModel calls tools natively when the request
// offers them; the other two show how Airlock copes with models that don't.
const (
	DefaultModel = "airlock-demo"
	// TextOnlyModel refuses a request with tools the way Ollama does for a
	// model without tool support (HTTP 400); without tools it is the demo.
	TextOnlyModel = "airlock-demo-text-only"
	// IgnoresToolsModel accepts tools but writes its calls as text, like a
	// model whose chat template drops them.
	IgnoresToolsModel = "airlock-demo-ignores-tools"
)

// DefaultModels are the models offered when Options.Models is empty,
// DefaultModel first.
func DefaultModels() []string {
	return []string{DefaultModel, TextOnlyModel, IgnoresToolsModel}
}

// Options configure a Server.
type Options struct {
	// ChunkDelay is the pause between content chunks: ~20ms for the demo, 0 in tests.
	ChunkDelay time.Duration
	// APIKey, when set, must be sent as "Authorization: Bearer <key>" (or
	// "x-api-key: <key>"), else 401.
	APIKey string
	// Models offered; default DefaultModels(). TextOnlyModel and
	// IgnoresToolsModel behave as such by name.
	Models []string
}

// Server is the demo model as an http.Handler.
type Server struct {
	opts Options
}

// New returns a server; mount it at the root so its base URL is <root>/v1.
func New(opts Options) *Server {
	if len(opts.Models) == 0 {
		opts.Models = DefaultModels()
	}
	return &Server{opts: opts}
}

// Start listens on addr (e.g. "127.0.0.1:0") and serves in the background.
// It returns the base URL (http://host:port/v1) and a shutdown function that
// also ends streams still running.
func Start(addr string, opts Options) (baseURL string, shutdown func(context.Context) error, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	base, cancel := context.WithCancel(context.Background())
	srv := &http.Server{
		Handler:           New(opts),
		ReadHeaderTimeout: 10 * time.Second,
		// Request contexts derive from base, so cancel() ends "hang" and "slow".
		BaseContext: func(net.Listener) context.Context { return base },
	}
	go func() { _ = srv.Serve(ln) }()

	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1" // listening on all interfaces: still reach it locally
	}
	return "http://" + net.JoinHostPort(host, port) + "/v1", func(ctx context.Context) error {
		cancel()
		return srv.Shutdown(ctx)
	}, nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	if path == "" || path == "/v1" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "Airlock demo model server (OpenAI-compatible).\nBase URL: http://%s/v1\nModels: %s\n", r.Host, strings.Join(s.opts.Models, ", "))
		return
	}
	if s.opts.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.APIKey && r.Header.Get("X-Api-Key") != s.opts.APIKey {
		writeError(w, http.StatusUnauthorized, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
		return
	}
	switch path {
	case "/v1/models":
		if r.Method != http.MethodGet {
			writeError(w, http.StatusMethodNotAllowed, "Use GET for /v1/models.", "invalid_request_error", nil)
			return
		}
		s.models(w)
	case "/v1/chat/completions":
		if r.Method != http.MethodPost {
			writeError(w, http.StatusMethodNotAllowed, "Use POST for /v1/chat/completions.", "invalid_request_error", nil)
			return
		}
		s.chat(w, r)
	case "/v1/messages":
		if r.Method != http.MethodPost {
			writeAnthropicError(w, http.StatusMethodNotAllowed, "invalid_request_error", "Use POST for /v1/messages.")
			return
		}
		s.messages(w, r)
	default:
		writeError(w, http.StatusNotFound, "Unknown endpoint "+r.URL.Path+". The demo server offers GET /v1/models, POST /v1/chat/completions and POST /v1/messages.", "invalid_request_error", "unknown_url")
	}
}

// ContextLength is the context window the demo's model list states for
// every model (as Together and others do, context_length), so Airlock knows
// it as it knows a real server's. The demo enforces none.
const ContextLength = 32768

func (s *Server) models(w http.ResponseWriter) {
	type model struct {
		ID            string `json:"id"`
		Object        string `json:"object"`
		Created       int64  `json:"created"`
		OwnedBy       string `json:"owned_by"`
		ContextLength int    `json:"context_length"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list"}
	for _, m := range s.opts.Models {
		list.Data = append(list.Data, model{ID: m, Object: "model", Created: 1735689600, OwnedBy: "airlock", ContextLength: ContextLength})
	}
	writeJSON(w, http.StatusOK, list)
}

// Prompt is what a rule sees of the request.
type Prompt struct {
	Model    string
	Messages []PromptMessage
	LastUser string   // text of the last user message
	Tools    []string // names of the tools the request offers natively ("tools")
}

// PromptMessage is one message of the request, with its text flattened.
type PromptMessage struct {
	Role, Content string
	ToolCalls     []ToolCall // an assistant message's native calls
	ToolCallID    string     // a "tool" message's call
	Name          string     // a "tool" message's tool, when the client names it
	Images        []string   // its images, described ("800×600 PNG")
}

// ToolCall is a native tool call, in a request or a reply.
type ToolCall struct {
	ID, Name  string
	Arguments string // JSON text (in a reply, possibly broken on purpose)
}

type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Name       string          `json:"name"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// text flattens a message content: a string, or an array of {type, text}
// parts. (Tool call arguments sent as an object come back as their text.)
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
		return string(t)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, 128<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "The request body is not valid JSON: "+err.Error(), "invalid_request_error", nil)
		return
	}
	// Read to EOF: only then does net/http watch the connection and cancel
	// r.Context() when the client goes away (Stop, timeouts).
	_, _ = io.Copy(io.Discard, r.Body)
	if req.Model == "" {
		writeError(w, http.StatusBadRequest, "You must provide a model parameter.", "invalid_request_error", nil)
		return
	}
	if !slices.Contains(s.opts.Models, req.Model) {
		writeError(w, http.StatusNotFound, "The model `"+req.Model+"` does not exist", "invalid_request_error", "model_not_found")
		return
	}
	p := Prompt{Model: req.Model}
	for _, m := range req.Messages {
		pm := PromptMessage{Role: m.Role, Content: text(m.Content), ToolCallID: m.ToolCallID, Name: m.Name, Images: imagesOf(m.Content)}
		for _, c := range m.ToolCalls {
			pm.ToolCalls = append(pm.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: text(c.Function.Arguments)})
		}
		p.Messages = append(p.Messages, pm)
		if m.Role == "user" {
			p.LastUser = pm.Content
		}
	}
	for _, t := range req.Tools {
		p.Tools = append(p.Tools, t.Function.Name)
	}
	rep := choose(p)
	if rep.Status != 0 {
		for k, v := range rep.Header {
			w.Header()[k] = v
		}
		writeError(w, rep.Status, rep.ErrMessage, rep.ErrType, rep.ErrCode)
		return
	}
	u := usage(p, rep)
	if !req.Stream {
		s.complete(w, r, p, rep, u)
		return
	}
	s.stream(w, r, p, rep, u, req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
}

type usageJSON struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// usage counts roughly like a tokenizer: about four characters a token.
func usage(p Prompt, rep Reply) usageJSON {
	tokens := func(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }
	var u usageJSON
	for _, m := range p.Messages {
		u.PromptTokens += 4 + tokens(m.Content) // ~4 for the role framing
	}
	u.CompletionTokens = tokens(rep.Reasoning) + tokens(rep.Text)
	for _, c := range rep.ToolCalls {
		u.CompletionTokens += 3 + tokens(c.Name) + tokens(c.Arguments)
	}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "chatcmpl-" + hex.EncodeToString(b[:])
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request, p Prompt, rep Reply, u usageJSON) {
	switch {
	case rep.Hang:
		<-r.Context().Done()
		return
	case rep.DropAfter > 0:
		panic(http.ErrAbortHandler) // cut the connection, no response
	}
	type message struct {
		Role             string         `json:"role"`
		Content          *string        `json:"content"` // null when there are only tool calls, as OpenAI does
		ReasoningContent string         `json:"reasoning_content,omitempty"`
		ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	}
	type choice struct {
		Index        int     `json:"index"`
		Message      message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	}
	msg := message{Role: "assistant", ReasoningContent: rep.Reasoning}
	if rep.Text != "" || len(rep.ToolCalls) == 0 {
		msg.Content = &rep.Text
	}
	finish := "stop"
	for _, c := range rep.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, wholeCall(c))
		finish = "tool_calls"
	}
	writeJSON(w, http.StatusOK, struct {
		ID      string    `json:"id"`
		Object  string    `json:"object"`
		Created int64     `json:"created"`
		Model   string    `json:"model"`
		Choices []choice  `json:"choices"`
		Usage   usageJSON `json:"usage"`
	}{newID(), "chat.completion", time.Now().Unix(), p.Model,
		[]choice{{Message: msg, FinishReason: finish}}, u})
}

type delta struct {
	Role             string         `json:"role,omitempty"`
	Content          *string        `json:"content,omitempty"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
}

type streamChoice struct {
	Index        int     `json:"index"`
	Delta        delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type streamChunk struct {
	ID      string         `json:"id"`
	Object  string         `json:"object"`
	Created int64          `json:"created"`
	Model   string         `json:"model"`
	Choices []streamChoice `json:"choices"`
	Usage   *usageJSON     `json:"usage,omitempty"`
}

// sse writes one event per call and flushes it; ok turns false once the
// client has gone.
type sse struct {
	w     http.ResponseWriter
	ctx   context.Context
	buf   bytes.Buffer
	enc   *json.Encoder
	chunk streamChunk
	ok    bool
}

func (e *sse) send(d delta, finish *string, u *usageJSON) {
	if !e.ok {
		return
	}
	e.chunk.Choices = []streamChoice{{Delta: d, FinishReason: finish}}
	if u != nil {
		e.chunk.Choices = []streamChoice{} // the usage chunk has "choices": []
	}
	e.chunk.Usage = u
	e.buf.Reset()
	e.buf.WriteString("data: ")
	_ = e.enc.Encode(&e.chunk) // ends with '\n'
	e.buf.WriteString("\n")
	e.write(e.buf.Bytes())
}

func (e *sse) write(b []byte) {
	if _, err := e.w.Write(b); err != nil || e.ctx.Err() != nil {
		e.ok = false
		return
	}
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// pause waits d, or returns false if the client left first.
func (e *sse) pause(d time.Duration) bool {
	if !e.ok || d <= 0 {
		return e.ok
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-e.ctx.Done():
		e.ok = false
	}
	return e.ok
}

// openSSE starts an event stream (both wires).
func openSSE(w http.ResponseWriter, r *http.Request) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	e := &sse{w: w, ctx: r.Context(), ok: true}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false) // readable with curl
	return e
}

// firstToken waits as a model does before its first token (a "hang" reply:
// until the client leaves, then ok is false) and returns the pause between
// pieces.
func (s *Server) firstToken(e *sse, rep Reply) (delay time.Duration, ok bool) {
	if rep.Hang {
		<-e.ctx.Done()
		return 0, false
	}
	delay = s.opts.ChunkDelay
	if rep.ChunkDelay > 0 {
		delay = rep.ChunkDelay
	}
	e.pause(5 * delay)
	return delay, true
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request, p Prompt, rep Reply, u usageJSON, includeUsage bool) {
	e := openSSE(w, r)
	e.chunk = streamChunk{ID: newID(), Object: "chat.completion.chunk", Created: time.Now().Unix(), Model: p.Model}

	empty := ""
	e.send(delta{Role: "assistant", Content: &empty}, nil, nil)
	delay, ok := s.firstToken(e, rep)
	if !ok {
		return
	}

	for _, piece := range pieces(rep.Reasoning) {
		e.send(delta{ReasoningContent: piece}, nil, nil)
		if !e.pause(delay) {
			return
		}
	}
	sent := 0
	for _, piece := range pieces(rep.Text) {
		if rep.DropAfter > 0 && sent >= rep.DropAfter {
			// Abort the response mid-body: the client sees a broken
			// chunked stream, as when a server crashes.
			panic(http.ErrAbortHandler)
		}
		e.send(delta{Content: &piece}, nil, nil)
		sent += len(piece)
		if !e.pause(delay) {
			return
		}
	}
	finish := "stop"
	if len(rep.ToolCalls) > 0 {
		for _, piece := range callPieces(rep.ToolCalls) {
			e.send(delta{ToolCalls: []wireToolCall{piece}}, nil, nil)
			if !e.pause(delay) {
				return
			}
		}
		finish = "tool_calls"
	}
	e.send(delta{}, &finish, nil)
	if includeUsage {
		e.send(delta{}, nil, &u)
	}
	e.write([]byte("data: [DONE]\n\n"))
}

// pieces cuts text into 2–8 character pieces the way tokenizers tend to:
// words with their leading space, short ones sometimes together, long ones
// in parts. The lengths vary but are deterministic, so tests are repeatable.
func pieces(text string) []string {
	var out []string
	seed := uint32(len(text))
	for text != "" {
		seed = seed*1664525 + 1013904223
		n := 2 + int(seed>>16)%7 // 2..8 runes
		end, runes := 0, 0
		for end < len(text) {
			size, count := nextWord(text[end:])
			if count > 8 && runes == 0 {
				for range n { // a long word: take n runes of it
					_, s := utf8.DecodeRuneInString(text[end:])
					end += s
				}
				break
			}
			if runes > 0 && runes+count > n {
				break
			}
			end += size
			runes += count
		}
		out = append(out, text[:end])
		text = text[end:]
	}
	return out
}

// nextWord measures leading whitespace plus the word after it, in bytes and runes.
func nextWord(s string) (size, count int) {
	inWord := false
	for i, r := range s {
		space := r == ' ' || r == '\n' || r == '\t'
		if inWord && space {
			return i, count
		}
		inWord = inWord || !space
		count++
	}
	return len(s), count
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeError answers like OpenAI: {"error":{"message","type","param","code"}}.
func writeError(w http.ResponseWriter, status int, message, typ string, code any) {
	type apiError struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Param   any    `json:"param"`
		Code    any    `json:"code"`
	}
	if s, ok := code.(string); ok && s == "" {
		code = nil
	}
	writeJSON(w, status, struct {
		Error apiError `json:"error"`
	}{apiError{Message: message, Type: typ, Code: code}})
}
