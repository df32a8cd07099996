package engine

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/demomodel"
)

// anthropicBody is the part of a Messages request these tests read.
type anthropicBody struct {
	System   []map[string]any `json:"system"`
	Tools    []map[string]any `json:"tools"`
	Messages []struct {
		Role    string           `json:"role"`
		Content []map[string]any `json:"content"`
	} `json:"messages"`
}

func (n *nativeEnv) anthropicRequests(want int) []anthropicBody {
	n.t.Helper()
	n.requests(want)
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]anthropicBody, len(n.raw))
	for i, raw := range n.raw {
		if err := json.Unmarshal([]byte(raw), &out[i]); err != nil {
			n.t.Fatalf("request %d: %v\n%s", i, err, raw)
		}
	}
	return out
}

func blockTypes(content []map[string]any) string {
	var ts []string
	for _, b := range content {
		ts = append(ts, b["type"].(string))
	}
	return strings.Join(ts, ",")
}

// On the Anthropic wire the answer's signed thinking is kept and sent back
// with its tool uses, and every call gets its tool_result (a denied one
// is_error-free, a failed one is_error), in the next user message. The demo
// refuses the request otherwise, as the API does.
func TestAnthropicToolUseTurnCarriesThinkingAndResults(t *testing.T) {
	n := newNativeOn(t, chat.APIAnthropic, demomodel.DefaultModel, chat.ToolModeNative)
	n.send("time and calc 2+2")
	calls := n.calls("two cards", count(2))
	msgs, _ := n.st.ListMessages(t.Context(), n.chat.ID)
	answer := msgs[len(msgs)-1]
	thoughts := answer.SignedThoughts()
	if len(thoughts) != 1 || thoughts[0].Signature == "" || thoughts[0].Text != answer.Reasoning {
		t.Fatalf("stored thoughts %+v, reasoning %q", thoughts, answer.Reasoning)
	}
	first := n.anthropicRequests(1)[0]
	if len(first.Tools) != 2 || first.Tools[1]["cache_control"] == nil || first.Tools[0]["cache_control"] != nil {
		t.Fatalf("tools %+v system %+v", first.Tools, first.System)
	}

	if _, err := n.eng.Deny(t.Context(), calls[0].ID, "not now"); err != nil {
		t.Fatal(err)
	}
	approve(t, n.eng, calls[1].ID)
	next := n.anthropicRequests(2)[1]
	m := next.Messages
	if len(m) != 3 {
		t.Fatalf("messages %+v", m)
	}
	asst, user := m[1], m[2]
	if asst.Role != "assistant" || blockTypes(asst.Content) != "thinking,text,tool_use,tool_use" ||
		asst.Content[0]["signature"] != thoughts[0].Signature || asst.Content[0]["thinking"] != thoughts[0].Text {
		t.Fatalf("assistant turn %+v", asst)
	}
	if user.Role != "user" || blockTypes(user.Content) != "tool_result,tool_result" ||
		user.Content[0]["tool_use_id"] != calls[0].ModelCallID || user.Content[1]["tool_use_id"] != calls[1].ModelCallID ||
		user.Content[1]["is_error"] != nil {
		t.Fatalf("results %+v", user)
	}
	if s, _ := json.Marshal(user.Content[0]["content"]); !strings.Contains(string(s), "denied") {
		t.Fatalf("the denial is not said: %s", s)
	}
	done := n.lastAnswer("4")
	if done.Status != chat.StatusComplete || done.Usage.PromptTokens == 0 {
		t.Fatalf("the answer after the results: %+v", done)
	}
}

// A text-mode chat on the Anthropic wire offers no tools: the paradigm is
// in the system prompt, and a call written as text is a card.
func TestAnthropicTextModeSendsNoTools(t *testing.T) {
	n := newNativeOn(t, chat.APIAnthropic, demomodel.DefaultModel, chat.ToolModeText)
	n.send("please calculate 17*23")
	c := n.calls("a text card", count(1))[0]
	if c.Format == FormatNative || c.Name != "calculate" {
		t.Fatalf("card %+v", c)
	}
	req := n.anthropicRequests(1)[0]
	if req.Tools != nil || len(req.System) != 1 || !strings.Contains(req.System[0]["text"].(string), "calculate") || req.System[0]["cache_control"] == nil {
		t.Fatalf("a text-mode request: tools %+v system %+v", req.Tools, req.System)
	}
	if strings.Contains(n.raw[0], `"tools"`) {
		t.Fatalf("tools were sent: %s", n.raw[0])
	}
}

// A stream that breaks inside a tool_use keeps the text that arrived, and
// the half-built call is a problem card, never a call; nothing goes back to
// the model by itself.
func TestAnthropicStreamCutInsideToolUse(t *testing.T) {
	sse := func(w http.ResponseWriter, typ, data string) {
		_, _ = io.WriteString(w, "event: "+typ+"\ndata: "+data+"\n\n")
		w.(http.Flusher).Flush()
	}
	n := newNativeWith(t, chat.APIAnthropic, "claude-test", chat.ToolModeNative, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":9,"output_tokens":1}}}`)
		sse(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		sse(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Writing it now."}}`)
		sse(w, "content_block_stop", `{"type":"content_block_stop","index":0}`)
		sse(w, "content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_cut","name":"calculate","input":{}}}`)
		sse(w, "content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"expression\": \"1"}}`)
		sse(w, "error", `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)
	}))
	n.send("calculate 17*23")
	calls := n.calls("a problem card", count(1))
	c := calls[0]
	if c.State != chat.CallProblem || !strings.Contains(c.Problem, "ended before this call was complete") || c.Name != "calculate" {
		t.Fatalf("card %+v", c)
	}
	msgs, _ := n.st.ListMessages(t.Context(), n.chat.ID)
	last := msgs[len(msgs)-1]
	if last.Status != chat.StatusError || last.Content != "Writing it now." || !strings.Contains(last.ErrorMessage, "Internal server error") {
		t.Fatalf("answer %+v", last)
	}
	time.Sleep(50 * time.Millisecond)
	if got := len(n.anthropicRequests(1)); got != 1 {
		t.Fatalf("%d requests: a broken answer's cards went back to the model", got)
	}
}

// A signature is good with the provider that made it only: after the chat
// moves to another provider, an answer's thoughts stay home.
func TestThoughtsGoBackOnlyToTheirProvider(t *testing.T) {
	answer := chat.Message{ID: "a1", Role: chat.RoleAssistant, Content: "x", Status: chat.StatusComplete,
		Thoughts: chat.EncodeThoughts([]chat.Thought{{Text: "t", Signature: "s", Provider: "claude"}})}
	calls := map[string][]chat.Call{"a1": {{ModelCallID: "toolu_1", Name: "calculate", Arguments: json.RawMessage(`{}`), Format: FormatNative, State: chat.CallDone, Result: "1", ResultState: chat.ToolSuccess}}}
	for provider, want := range map[string]int{"claude": 1, "glm": 0} {
		p := turnPlan{provider: chat.Provider{ID: provider}, history: []chat.Message{{ID: "u1", Role: chat.RoleUser, Content: "q", Status: chat.StatusComplete}, answer}, calls: calls}
		msgs := p.messages("", nil, true)
		if len(msgs) != 3 || len(msgs[1].Thoughts) != want {
			t.Fatalf("%s: %+v", provider, msgs)
		}
	}
}
