package llm_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// bodyServer answers every request with a short text answer and hands the
// raw request bodies to the test.
func bodyServer(t *testing.T) (string, func() []byte) {
	var last []byte
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		last, _ = io.ReadAll(r.Body)
		startSSE(w)
		send(w, content("ok")+stopChunk+doneEvent)
	})
	return srv.URL, func() []byte { return last }
}

// Without tools the request is go-openai's, byte for byte, as before native
// calls existed.
func TestRequestWithoutToolsIsUnchanged(t *testing.T) {
	url, body := bodyServer(t)
	warm := float32(0.5)
	no := false
	req := llm.Request{
		Messages:          []llm.Message{{Role: chat.RoleSystem, Content: "be brief"}, {Role: chat.RoleUser, Content: "hi"}, {Role: chat.RoleAssistant, Content: ""}},
		Temperature:       &warm,
		ParallelToolCalls: &no, // ignored without tools
	}
	if o := stream(t, llm.Config{BaseURL: url, Model: "m"}, t.Context(), req); o.err != nil {
		t.Fatal(o.err)
	}
	want, _ := json.Marshal(openai.ChatCompletionRequest{
		Model: "m",
		Messages: []openai.ChatCompletionMessage{
			{Role: "system", Content: "be brief"}, {Role: "user", Content: "hi"}, {Role: "assistant"},
		},
		Temperature:   0.5,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	})
	if !bytes.Equal(body(), want) {
		t.Errorf("body\n%s\nwant\n%s", body(), want)
	}
	for _, s := range []string{"tools", "tool_choice", "parallel_tool_calls"} {
		if bytes.Contains(body(), []byte(s)) {
			t.Errorf("%s sent without tools", s)
		}
	}
}

func TestRequestWithTools(t *testing.T) {
	url, body := bodyServer(t)
	zero := float32(0)
	yes := true
	req := llm.Request{
		Temperature:       &zero,
		ParallelToolCalls: &yes,
		Tools: []llm.Tool{
			{Name: "calculate", Description: "Evaluate arithmetic.", Parameters: json.RawMessage(`{"type":"object","properties":{"expression":{"type":"string"}},"required":["expression"]}`)},
			{Name: "get_current_time"},
		},
		Messages: []llm.Message{
			{Role: chat.RoleSystem, Content: "sys"},
			{Role: chat.RoleUser, Content: "time and calc"},
			{Role: chat.RoleAssistant, Reasoning: "Two tools.", ToolCalls: []llm.ToolCall{
				{ID: "call_a", Name: "get_current_time", Arguments: ""},
				{ID: "call_b", Name: "calculate", Arguments: `{"expression":"17*23"}`, Extra: json.RawMessage(`{"google":{"thought_signature":"c2ln"}}`)},
			}},
			{Role: llm.RoleTool, ToolCallID: "call_a", Content: "2026-01-01T00:00:00Z"},
			{Role: llm.RoleTool, ToolCallID: "call_b", Name: "calculate", Content: ""},
		},
	}
	o := stream(t, llm.Config{BaseURL: url, Model: "m"}, t.Context(), req)
	if o.err != nil || o.text != "ok" {
		t.Fatalf("%v %q", o.err, o.text)
	}
	var got struct {
		Model         string          `json:"model"`
		Stream        bool            `json:"stream"`
		Temperature   float64         `json:"temperature"`
		StreamOptions map[string]bool `json:"stream_options"`
		Parallel      *bool           `json:"parallel_tool_calls"`
		ToolChoice    any             `json:"tool_choice"`
		Tools         []struct {
			Type     string `json:"type"`
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		Messages []map[string]json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body(), &got); err != nil {
		t.Fatalf("%v: %s", err, body())
	}
	if got.Model != "m" || !got.Stream || !got.StreamOptions["include_usage"] || got.Temperature <= 0 || got.Temperature > 1e-6 {
		t.Errorf("request fields lost: %s", body())
	}
	if got.Parallel == nil || !*got.Parallel || got.ToolChoice != nil {
		t.Errorf("parallel_tool_calls %v tool_choice %v", got.Parallel, got.ToolChoice)
	}
	if len(got.Tools) != 2 || got.Tools[0].Type != "function" || got.Tools[0].Function.Name != "calculate" ||
		got.Tools[0].Function.Description != "Evaluate arithmetic." || !strings.Contains(string(got.Tools[0].Function.Parameters), `"required":["expression"]`) {
		t.Fatalf("tools %+v", got.Tools)
	}
	if p := string(got.Tools[1].Function.Parameters); p != `{"type":"object","properties":{}}` {
		t.Errorf("a tool without parameters must still send an object schema, got %s", p)
	}

	msgs := got.Messages
	if len(msgs) != 5 {
		t.Fatalf("%d messages: %s", len(msgs), body())
	}
	// Every message carries content, even empty (DeepSeek requires it on
	// an assistant message with tool calls; a tool result may be empty).
	for i, m := range msgs {
		if _, ok := m["content"]; !ok {
			t.Errorf("message %d has no content: %s", i, body())
		}
	}
	if string(msgs[2]["content"]) != `""` || string(msgs[2]["role"]) != `"assistant"` || string(msgs[2]["reasoning_content"]) != `"Two tools."` {
		t.Errorf("assistant message %v", msgs[2])
	}
	var calls []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments any    `json:"arguments"`
		} `json:"function"`
		Extra json.RawMessage `json:"extra_content"`
	}
	if err := json.Unmarshal(msgs[2]["tool_calls"], &calls); err != nil || len(calls) != 2 {
		t.Fatalf("tool_calls %s: %v", msgs[2]["tool_calls"], err)
	}
	if calls[0].ID != "call_a" || calls[0].Type != "function" || calls[0].Function.Name != "get_current_time" || calls[0].Function.Arguments != "{}" {
		t.Errorf("first call %+v (empty arguments go as {})", calls[0])
	}
	if calls[1].Function.Arguments != `{"expression":"17*23"}` || string(calls[1].Extra) != `{"google":{"thought_signature":"c2ln"}}` {
		t.Errorf("second call %+v extra %s: arguments must be a JSON string, extra_content echoed", calls[1], calls[1].Extra)
	}
	if calls[0].Extra != nil {
		t.Errorf("extra_content invented: %s", calls[0].Extra)
	}
	if string(msgs[3]["role"]) != `"tool"` || string(msgs[3]["tool_call_id"]) != `"call_a"` || string(msgs[3]["content"]) != `"2026-01-01T00:00:00Z"` || msgs[3]["name"] != nil {
		t.Errorf("tool message %v", msgs[3])
	}
	if string(msgs[4]["content"]) != `""` || string(msgs[4]["name"]) != `"calculate"` {
		t.Errorf("empty tool result %v", msgs[4])
	}
	if msgs[0]["tool_calls"] != nil || msgs[1]["reasoning_content"] != nil {
		t.Errorf("fields sent where unset: %s", body())
	}
}

// A tool conversation without tools on offer (they were switched off) is
// still written the native way.
func TestRequestToolResultsWithoutTools(t *testing.T) {
	url, body := bodyServer(t)
	o := stream(t, llm.Config{BaseURL: url}, t.Context(), llm.Request{Messages: []llm.Message{
		{Role: chat.RoleUser, Content: "x"},
		{Role: chat.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "n", Arguments: "{}"}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: "r"},
	}})
	if o.err != nil {
		t.Fatal(o.err)
	}
	b := string(body())
	if !strings.Contains(b, `{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"n","arguments":"{}"}}]}`) ||
		!strings.Contains(b, `{"role":"tool","content":"r","tool_call_id":"c1"}`) || strings.Contains(b, `"tools"`) {
		t.Errorf("body %s", b)
	}
}

func TestRequestBadToolSchema(t *testing.T) {
	url, _ := bodyServer(t)
	o := stream(t, llm.Config{BaseURL: url}, t.Context(), llm.Request{Tools: []llm.Tool{{Name: "x", Parameters: json.RawMessage(`{"type":`)}}})
	if e := wantKind(t, o.err, llm.KindBadRequest); !strings.Contains(e.Message, "could not build the request") {
		t.Errorf("message %q", e.Message)
	}
}

// The options an agent sets are sent as each model accepts them: a chat
// model gets temperature, top_p and max_tokens; a reasoning model (o3,
// gpt-5) only max_completion_tokens, since it refuses the others; unset
// options are not sent at all.
func TestGenerationOptionsPerModel(t *testing.T) {
	url, body := bodyServer(t)
	temp, topP := float32(0.2), float32(0.9)
	req := llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "hi"}}, Temperature: &temp, TopP: &topP, MaxTokens: 256}
	for _, c := range []struct {
		model      string
		want, none []string
	}{
		{"qwen3:8b", []string{`"temperature":0.2`, `"top_p":0.9`, `"max_tokens":256`}, []string{"max_completion_tokens"}},
		{"o3-mini", []string{`"max_completion_tokens":256`}, []string{"temperature", "top_p", `"max_tokens"`}},
		{"gpt-5", []string{`"max_completion_tokens":256`}, []string{"temperature", "top_p", `"max_tokens"`}},
	} {
		if o := stream(t, llm.Config{BaseURL: url, Model: c.model}, t.Context(), req); o.err != nil {
			t.Fatal(c.model, o.err)
		}
		for _, w := range c.want {
			if !bytes.Contains(body(), []byte(w)) {
				t.Errorf("%s: %s not sent: %s", c.model, w, body())
			}
		}
		for _, n := range c.none {
			if bytes.Contains(body(), []byte(n)) {
				t.Errorf("%s: %s sent: %s", c.model, n, body())
			}
		}
	}
	if o := stream(t, llm.Config{BaseURL: url, Model: "m"}, t.Context(), llm.Request{Messages: req.Messages}); o.err != nil {
		t.Fatal(o.err)
	}
	for _, n := range []string{"temperature", "top_p", "max_tokens", "max_completion_tokens"} {
		if bytes.Contains(body(), []byte(n)) {
			t.Errorf("unset %s sent: %s", n, body())
		}
	}
}
