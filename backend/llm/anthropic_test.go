package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// A scripted Anthropic Messages server: each request gets the next reply of
// the script, and the requests are kept. The event sequences follow
// Anthropic's streaming documentation
// (platform.claude.com/docs/en/build-with-claude/streaming): message_start,
// then per content block content_block_start, content_block_delta…,
// content_block_stop, then message_delta (stop_reason, cumulative usage) and
// message_stop, with ping events anywhere and an error event on failure.

type antReply struct {
	status int               // 0: 200 with the events
	header map[string]string // on an error status
	body   string            // the error body
	events []string          // SSE events, each written and flushed alone
}

type antServer struct {
	url      string
	mu       sync.Mutex
	script   []antReply
	requests []antRequest
}

type antRequest struct {
	header http.Header
	path   string
	body   map[string]any
	raw    string
}

func newAntServer(t *testing.T, script ...antReply) *antServer {
	s := &antServer{script: script}
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		s.mu.Lock()
		s.requests = append(s.requests, antRequest{header: r.Header.Clone(), path: r.URL.Path, body: body, raw: string(raw)})
		var rep antReply
		if len(s.script) > 0 {
			rep, s.script = s.script[0], s.script[1:]
		}
		s.mu.Unlock()
		if rep.status != 0 {
			for k, v := range rep.header {
				w.Header().Set(k, v)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rep.status)
			_, _ = io.WriteString(w, rep.body)
			return
		}
		startSSE(w)
		for _, e := range rep.events {
			send(w, e)
		}
	})
	s.url = srv.URL
	return s
}

func (s *antServer) got() []antRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]antRequest(nil), s.requests...)
}

func sse(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }

func msgStart(input, cacheRead, cacheWrite int) string {
	return sse("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","content":[],"model":"claude-test-4","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"output_tokens":1}}}`, input, cacheRead, cacheWrite))
}

func blockStart(i int, block string) string {
	return sse("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, i, block))
}

func blockDelta(i int, delta string) string {
	return sse("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":%s}`, i, delta))
}

func textDelta(i int, s string) string {
	b, _ := json.Marshal(s)
	return blockDelta(i, `{"type":"text_delta","text":`+string(b)+`}`)
}

func jsonDelta(i int, s string) string {
	b, _ := json.Marshal(s)
	return blockDelta(i, `{"type":"input_json_delta","partial_json":`+string(b)+`}`)
}

func blockStop(i int) string {
	return sse("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
}

func msgEnd(reason string, output int) []string {
	return []string{
		sse("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, reason, output)),
		sse("message_stop", `{"type":"message_stop"}`),
	}
}

const ping = "event: ping\ndata: {\"type\": \"ping\"}\n\n"

func events(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, v)
		case []string:
			out = append(out, v...)
		}
	}
	return out
}

func antConfig(url string) llm.Config {
	return llm.Config{Kind: chat.APIAnthropic, BaseURL: url, APIKey: "sk-ant-secret", Model: "claude-test-4", RetryWait: 10 * time.Millisecond}
}

func TestAnthropicTextOnly(t *testing.T) {
	s := newAntServer(t, antReply{events: events(
		msgStart(25, 1000, 200),
		blockStart(0, `{"type":"text","text":""}`), ping,
		textDelta(0, "Hello"), textDelta(0, "!"),
		blockStop(0), msgEnd("end_turn", 15))})
	temp := float32(1.5)
	o := stream(t, antConfig(s.url+"/v1"), context.Background(), llm.Request{Temperature: &temp, Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: "Be brief."}, {Role: chat.RoleUser, Content: "hi"}}})
	if o.err != nil || o.text != "Hello!" || o.reasoning != "" {
		t.Fatalf("text %q reasoning %q err %v", o.text, o.reasoning, o.err)
	}
	want := chat.Usage{PromptTokens: 1225, CompletionTokens: 15, TotalTokens: 1240, CacheReadTokens: 1000, CacheWriteTokens: 200}
	if o.res.Usage != want || o.res.FinishReason != "stop" || o.res.Model != "claude-test-4" || len(o.res.ToolCalls) != 0 || o.res.Thoughts != nil {
		t.Fatalf("result %+v", o.res)
	}
	r := s.got()[0]
	if r.path != "/v1/messages" || r.header.Get("x-api-key") != "sk-ant-secret" || r.header.Get("anthropic-version") == "" ||
		r.header.Get("Authorization") != "Bearer sk-ant-secret" {
		t.Fatalf("path %s headers %v", r.path, r.header)
	}
	if r.body["stream"] != true || r.body["max_tokens"] != float64(llm.AnthropicMaxTokens) || r.body["temperature"] != float64(1) || r.body["tools"] != nil {
		t.Fatalf("body %s", r.raw)
	}
	if !strings.Contains(r.raw, `"system":[{"text":"Be brief.","cache_control":{"type":"ephemeral"`) {
		t.Fatalf("system prompt not cacheable: %s", r.raw)
	}
}

const signature = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"

func TestAnthropicThinkingAndText(t *testing.T) {
	s := newAntServer(t, antReply{events: events(
		msgStart(10, 0, 0),
		blockStart(0, `{"type":"thinking","thinking":""}`),
		blockDelta(0, `{"type":"thinking_delta","thinking":"Let me think: <b> is "}`),
		blockDelta(0, `{"type":"thinking_delta","thinking":"bold."}`),
		blockDelta(0, `{"type":"signature_delta","signature":"`+signature+`"}`),
		blockStop(0),
		blockStart(1, `{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4a"}`), blockStop(1),
		blockStart(2, `{"type":"text","text":""}`),
		textDelta(2, "Use <think>"), textDelta(2, " tags? No."),
		blockStop(2), msgEnd("end_turn", 40))})
	o := stream(t, antConfig(s.url), context.Background(), llm.Request{})
	if o.err != nil || o.reasoning != "Let me think: <b> is bold." || o.text != "Use <think> tags? No." {
		t.Fatalf("reasoning %q text %q err %v", o.reasoning, o.text, o.err)
	}
	want := []chat.Thought{{Text: "Let me think: <b> is bold.", Signature: signature}, {Redacted: "EmwKAhgBEgy3va3pzix/LafPsn4a"}}
	if fmt.Sprint(o.res.Thoughts) != fmt.Sprint(want) {
		t.Fatalf("thoughts %+v", o.res.Thoughts)
	}
}

// Two tool uses after a thought, their argument pieces interleaved and cut
// inside escapes (\" and \n and a \u escape).
func TestAnthropicThinkingAndTwoToolUses(t *testing.T) {
	s := newAntServer(t, antReply{events: events(
		msgStart(50, 0, 0),
		blockStart(0, `{"type":"thinking","thinking":""}`),
		blockDelta(0, `{"type":"thinking_delta","thinking":"Two files."}`),
		blockDelta(0, `{"type":"signature_delta","signature":"`+signature+`"}`),
		blockStop(0),
		blockStart(1, `{"type":"text","text":""}`), textDelta(1, "Writing both."), blockStop(1),
		blockStart(2, `{"type":"tool_use","id":"toolu_01A","name":"write_file","input":{}}`),
		blockStart(3, `{"type":"tool_use","id":"toolu_01B","name":"write_file","input":{}}`),
		jsonDelta(2, `{"path": "a.txt", "content": "say \`),
		jsonDelta(3, `{"path": "b.txt", "content": "line1\`),
		jsonDelta(2, `"hi\"\u00`), ping,
		jsonDelta(3, `nline2"}`),
		jsonDelta(2, `e9"}`),
		blockStop(2), blockStop(3),
		msgEnd("tool_use", 90))})
	o := stream(t, antConfig(s.url), context.Background(), llm.Request{Tools: []llm.Tool{
		{Name: "read_file", Description: "Read", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)},
		{Name: "write_file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}})
	if o.err != nil || o.res.FinishReason != "tool_calls" || o.text != "Writing both." {
		t.Fatalf("err %v finish %q text %q", o.err, o.res.FinishReason, o.text)
	}
	if len(o.res.ToolCalls) != 2 {
		t.Fatalf("calls %+v", o.res.ToolCalls)
	}
	for i, want := range []struct{ id, path, content string }{{"toolu_01A", "a.txt", `say "hi"é`}, {"toolu_01B", "b.txt", "line1\nline2"}} {
		c := o.res.ToolCalls[i]
		var args struct{ Path, Content string }
		if err := json.Unmarshal([]byte(c.Arguments), &args); err != nil || c.ID != want.id || c.Name != "write_file" ||
			args.Path != want.path || args.Content != want.content || c.Incomplete {
			t.Fatalf("call %d = %+v (%v)", i, c, err)
		}
		if o.live[i].Arguments != c.Arguments || o.live[i].ID != c.ID {
			t.Fatalf("the forming call %d %+v differs from the final one %+v", i, o.live[i], c)
		}
	}
	if len(o.res.Thoughts) != 1 || o.res.Thoughts[0].Signature != signature {
		t.Fatalf("thoughts %+v", o.res.Thoughts)
	}
	raw := s.got()[0].raw
	if !strings.Contains(raw, `"input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object","additionalProperties":false}`) &&
		!strings.Contains(raw, `"additionalProperties":false`) {
		t.Fatalf("schema lost a keyword: %s", raw)
	}
	if strings.Count(raw, `"cache_control"`) != 1 || !strings.Contains(raw, `"name":"write_file","cache_control":{"type":"ephemeral"`) &&
		!strings.Contains(raw, `"cache_control":{"type":"ephemeral"},"name":"write_file"`) {
		t.Fatalf("the last tool should carry the one cache breakpoint: %s", raw)
	}
}

func TestAnthropicMaxTokensMidToolUse(t *testing.T) {
	s := newAntServer(t, antReply{events: events(
		msgStart(50, 0, 0),
		blockStart(0, `{"type":"text","text":""}`), textDelta(0, "Here goes."), blockStop(0),
		blockStart(1, `{"type":"tool_use","id":"toolu_01C","name":"write_file","input":{}}`),
		jsonDelta(1, `{"path": "big.txt", "content": "aaaa`),
		msgEnd("max_tokens", 8192))})
	o := stream(t, antConfig(s.url), context.Background(), llm.Request{})
	if o.err != nil || o.res.FinishReason != "length" || o.text != "Here goes." {
		t.Fatalf("err %v finish %q text %q", o.err, o.res.FinishReason, o.text)
	}
	if len(o.res.ToolCalls) != 1 || !o.res.ToolCalls[0].Incomplete {
		t.Fatalf("the cut call should be incomplete: %+v", o.res.ToolCalls)
	}
	if !o.res.CutOff() {
		t.Fatal("an answer stopped by max_tokens is cut off (Continue)")
	}
}

func TestAnthropicErrorEventMidStream(t *testing.T) {
	s := newAntServer(t, antReply{events: events(
		msgStart(50, 0, 0),
		blockStart(0, `{"type":"text","text":""}`), textDelta(0, "Partial answer"),
		blockStart(1, `{"type":"tool_use","id":"toolu_01D","name":"read_file","input":{}}`),
		jsonDelta(1, `{"path": "a`),
		sse("error", `{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`))},
		antReply{events: events(msgStart(1, 0, 0), msgEnd("end_turn", 1))})
	o := stream(t, antConfig(s.url), context.Background(), llm.Request{})
	e := wantKind(t, o.err, llm.KindServer)
	if !strings.Contains(e.Message, "overloaded") || !strings.Contains(e.Message, "Overloaded") {
		t.Fatalf("message %q", e.Message)
	}
	if o.text != "Partial answer" || len(o.res.ToolCalls) != 1 || !o.res.ToolCalls[0].Incomplete {
		t.Fatalf("text %q calls %+v", o.text, o.res.ToolCalls)
	}
	if n := len(s.got()); n != 1 {
		t.Fatalf("an answer that had begun was asked again (%d requests)", n)
	}
}

func TestAnthropicOverloadedIsRetried(t *testing.T) {
	overloaded := antReply{status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}
	s := newAntServer(t, overloaded,
		antReply{events: events(msgStart(1, 0, 0), sse("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))},
		antReply{events: events(msgStart(3, 0, 0), blockStart(0, `{"type":"text","text":""}`), textDelta(0, "ok"), blockStop(0), msgEnd("end_turn", 1))})
	o := stream(t, antConfig(s.url), context.Background(), llm.Request{})
	if o.err != nil || o.text != "ok" || len(s.got()) != 3 {
		t.Fatalf("err %v text %q requests %d", o.err, o.text, len(s.got()))
	}
	if len(o.notices) != 2 || !strings.Contains(o.notices[0], "overloaded") || !strings.Contains(o.notices[0], "attempt 2 of 4") ||
		!strings.Contains(o.notices[1], "attempt 3 of 4") {
		t.Fatalf("notices %q", o.notices)
	}

	// Overloaded every time: the fourth failure is the answer's error.
	s = newAntServer(t, overloaded, overloaded, overloaded, overloaded, overloaded)
	o = stream(t, antConfig(s.url), context.Background(), llm.Request{})
	e := wantKind(t, o.err, llm.KindServer)
	if e.StatusCode != 529 || !strings.Contains(e.Message, "overloaded (HTTP 529)") || len(s.got()) != 4 || len(o.notices) != 3 {
		t.Fatalf("err %+v requests %d notices %q", e, len(s.got()), o.notices)
	}
}

func TestAnthropicRateLimited(t *testing.T) {
	limited := func(after string) antReply {
		return antReply{status: 429, header: map[string]string{"Retry-After": after},
			body: `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`}
	}
	s := newAntServer(t, limited("1"), antReply{events: events(msgStart(1, 0, 0), blockStart(0, `{"type":"text","text":""}`), textDelta(0, "ok"), blockStop(0), msgEnd("end_turn", 1))})
	o := stream(t, antConfig(s.url), context.Background(), llm.Request{})
	if o.err != nil || o.text != "ok" || len(s.got()) != 2 || len(o.notices) != 1 || !strings.Contains(o.notices[0], "rate-limiting") ||
		!strings.Contains(o.notices[0], "1 second") {
		t.Fatalf("err %v text %q requests %d notices %q", o.err, o.text, len(s.got()), o.notices)
	}

	// A long wait is not waited out: it is reported, with the time.
	s = newAntServer(t, limited("120"))
	o = stream(t, antConfig(s.url), context.Background(), llm.Request{})
	e := wantKind(t, o.err, llm.KindRateLimited)
	if e.RetryAfter != 120*time.Second || !strings.Contains(e.Message, "per-minute rate limit") || !strings.Contains(e.Message, "120 seconds") || len(s.got()) != 1 {
		t.Fatalf("err %+v requests %d", e, len(s.got()))
	}
}

func TestAnthropicHTTPErrors(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		kind   llm.ErrorKind
		says   string
	}{
		{401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key sk-ant-secret"}}`, llm.KindUnauthorized, "rejected the API key"},
		{403, `{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission"}}`, llm.KindUnauthorized, "refused access"},
		{404, `{"type":"error","error":{"type":"not_found_error","message":"model: claude-test-4"}}`, llm.KindNotFound, `"claude-test-4"`},
		{413, `{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}`, llm.KindBadRequest, "maximum allowed number of bytes"},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}`, llm.KindContextOverflow, "208310"},
		{500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`, llm.KindServer, "server error (HTTP 500)"},
	} {
		s := newAntServer(t, antReply{status: tc.status, body: tc.body})
		o := stream(t, antConfig(s.url), context.Background(), llm.Request{})
		e := wantKind(t, o.err, tc.kind)
		if e.StatusCode != tc.status || !strings.Contains(e.Message+e.Said, tc.says) || strings.Contains(e.Message, "sk-ant-secret") ||
			strings.Contains(e.Err.Error(), "sk-ant-secret") || len(s.got()) != 1 {
			t.Fatalf("%d: %+v", tc.status, e)
		}
	}
}

// A tool-use turn goes back with its signed thoughts first and one
// tool_result per call, in one user message, is_error where it failed.
func TestAnthropicRequestAfterToolUse(t *testing.T) {
	s := newAntServer(t, antReply{events: events(msgStart(1, 0, 0), msgEnd("end_turn", 1))})
	thoughts := []chat.Thought{{Text: "Two files.", Signature: signature}, {Redacted: "opaque=="}}
	o := stream(t, antConfig(s.url), context.Background(), llm.Request{Messages: []llm.Message{
		{Role: chat.RoleUser, Content: "write two files"},
		{Role: chat.RoleAssistant, Content: "Writing both.\n\n", Thoughts: thoughts, ToolCalls: []llm.ToolCall{
			{ID: "toolu_01A", Name: "write_file", Arguments: `{"path":"a.txt"}`},
			{ID: "toolu_01B", Name: "write_file", Arguments: ``}}},
		{Role: llm.RoleTool, ToolCallID: "toolu_01A", Content: "Wrote a.txt"},
		{Role: llm.RoleTool, ToolCallID: "toolu_01B", Content: "Error: denied by the user", IsError: true},
		{Role: chat.RoleUser, Content: "and now?"},
	}})
	if o.err != nil {
		t.Fatal(o.err)
	}
	var body struct {
		Messages []struct {
			Role    string           `json:"role"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(s.got()[0].raw), &body); err != nil || len(body.Messages) != 3 {
		t.Fatalf("messages %s (%v)", s.got()[0].raw, err)
	}
	a := body.Messages[1]
	types := []string{}
	for _, b := range a.Content {
		types = append(types, b["type"].(string))
	}
	if a.Role != "assistant" || strings.Join(types, ",") != "thinking,redacted_thinking,text,tool_use,tool_use" ||
		a.Content[0]["signature"] != signature || a.Content[0]["thinking"] != "Two files." || a.Content[1]["data"] != "opaque==" ||
		a.Content[2]["text"] != "Writing both." || fmt.Sprint(a.Content[4]["input"]) != "map[]" {
		t.Fatalf("assistant turn %+v", a)
	}
	u := body.Messages[2]
	if u.Role != "user" || len(u.Content) != 3 || u.Content[0]["type"] != "tool_result" || u.Content[0]["tool_use_id"] != "toolu_01A" ||
		u.Content[0]["is_error"] != nil || u.Content[1]["tool_use_id"] != "toolu_01B" || u.Content[1]["is_error"] != true ||
		u.Content[2]["type"] != "text" || u.Content[2]["text"] != "and now?" {
		t.Fatalf("user turn %+v", u)
	}
}

func TestAnthropicStreamCutWithoutStop(t *testing.T) {
	s := newAntServer(t, antReply{events: events(msgStart(1, 0, 0), blockStart(0, `{"type":"text","text":""}`), textDelta(0, "half"))})
	o := stream(t, antConfig(s.url), context.Background(), llm.Request{})
	wantKind(t, o.err, llm.KindStreamBroken)
	if o.text != "half" {
		t.Fatalf("text %q", o.text)
	}
}

func TestAnthropicListModels(t *testing.T) {
	var pages []string
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		pages = append(pages, r.URL.RawQuery)
		if r.Header.Get("x-api-key") != "sk-ant-secret" || r.URL.Path != "/anthropic/v1/models" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("after_id") == "" {
			_, _ = io.WriteString(w, `{"data":[{"id":"claude-b","type":"model"},{"id":"claude-a","type":"model"}],"has_more":true,"first_id":"claude-b","last_id":"claude-a"}`)
			return
		}
		_, _ = io.WriteString(w, `{"data":[{"id":"claude-c","type":"model"}],"has_more":false,"first_id":"claude-c","last_id":"claude-c"}`)
	})
	ids, err := llm.New(antConfig(srv.URL + "/anthropic")).ListModels(context.Background())
	if err != nil || strings.Join(ids, ",") != "claude-a,claude-b,claude-c" || len(pages) != 2 {
		t.Fatalf("ids %v err %v pages %q", ids, err, pages)
	}

	none := server(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	_, err = llm.New(antConfig(none.URL)).ListModels(context.Background())
	if e := wantKind(t, err, llm.KindNotFound); !strings.Contains(e.Message, "does not list its models") {
		t.Fatalf("message %q", e.Message)
	}
}

// Extended thinking: the budget is asked for, the answer keeps its own
// max_tokens on top of it, and no temperature goes (the API refuses one).
func TestAnthropicThinkingBudget(t *testing.T) {
	s := newAntServer(t, antReply{events: events(msgStart(1, 0, 0), msgEnd("end_turn", 1))})
	cfg := antConfig(s.url)
	cfg.ThinkingBudget = 4096
	temp := float32(0.3)
	if o := stream(t, cfg, context.Background(), llm.Request{Temperature: &temp}); o.err != nil {
		t.Fatal(o.err)
	}
	b := s.got()[0].body
	th, _ := b["thinking"].(map[string]any)
	if th["type"] != "enabled" || th["budget_tokens"] != float64(4096) || b["max_tokens"] != float64(4096+llm.AnthropicMaxTokens) || b["temperature"] != nil {
		t.Fatalf("body %s", s.got()[0].raw)
	}
}

// The SDK reads through Airlock's watched transport: silence after the
// headers ends in an idle timeout, with the text that arrived kept; pings
// count as life.
func TestAnthropicIdleTimeout(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		send(w, msgStart(1, 0, 0))
		send(w, blockStart(0, `{"type":"text","text":""}`))
		send(w, textDelta(0, "so far"))
		for range 3 {
			time.Sleep(60 * time.Millisecond)
			send(w, ping)
		}
		<-r.Context().Done()
	})
	cfg := antConfig(srv.URL)
	cfg.IdleTimeout = 150 * time.Millisecond
	o := stream(t, cfg, context.Background(), llm.Request{})
	e := wantKind(t, o.err, llm.KindTimeout)
	if o.text != "so far" || !strings.Contains(e.Message, "sent nothing") || o.elapsed < 300*time.Millisecond {
		t.Fatalf("text %q message %q after %s", o.text, e.Message, o.elapsed)
	}
}

// The context window on the Anthropic wire comes from the known models,
// without probing the OpenAI-style endpoints (which would need /v1 and a
// bearer key).
func TestAnthropicWindow(t *testing.T) {
	cfg := antConfig("http://127.0.0.1:1")
	cfg.Model = "claude-3-5-sonnet-20241022"
	w, err := llm.New(cfg).Window(context.Background())
	if err != nil || w.Tokens != 200_000 {
		t.Fatalf("window %+v %v", w, err)
	}
	cfg.Model = "some-compatible-model"
	if w, err := llm.New(cfg).Window(context.Background()); err != nil || w.Tokens != 0 || !strings.Contains(w.Note, "not among the models Airlock knows") {
		t.Fatalf("window %+v %v", w, err)
	}
}
