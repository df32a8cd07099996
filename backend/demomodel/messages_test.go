package demomodel_test

import (
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/demomodel"
	"airlock/backend/llm"
	"airlock/backend/tools"
)

// The demo speaks Anthropic Messages to the real client: a tool-use answer
// with a signed thought, and a next request refused unless the thought comes
// back with its signature.
func TestDemoMessagesToolUseRoundTrip(t *testing.T) {
	base := demo(t, demomodel.Options{APIKey: "sk-demo"})
	cfg := llm.Config{Kind: chat.APIAnthropic, BaseURL: strings.TrimSuffix(base, "/v1"), APIKey: "sk-demo", Model: demomodel.DefaultModel}
	var offered []llm.Tool
	for _, s := range tools.Builtins() {
		offered = append(offered, llm.Tool{Name: s.Spec.Name, Description: s.Spec.Description, Parameters: s.Spec.Parameters})
	}
	ask := []llm.Message{{Role: chat.RoleSystem, Content: "You are helpful."}, {Role: chat.RoleUser, Content: "What time is it?"}}
	o := stream(t, cfg, t.Context(), llm.Request{Messages: ask, Tools: offered})
	if o.err != nil || o.res.FinishReason != "tool_calls" || len(o.res.ToolCalls) != 1 || o.res.ToolCalls[0].Name != "get_current_time" {
		t.Fatalf("err %v result %+v", o.err, o.res)
	}
	if len(o.res.Thoughts) != 1 || o.res.Thoughts[0].Signature == "" || o.reasoning != o.res.Thoughts[0].Text || o.reasoning == "" {
		t.Fatalf("thoughts %+v reasoning %q", o.res.Thoughts, o.reasoning)
	}
	call := o.res.ToolCalls[0]
	if !strings.HasPrefix(call.ID, "toolu_") || o.live[0].Arguments != call.Arguments {
		t.Fatalf("call %+v live %+v", call, o.live)
	}
	answer := llm.Message{Role: chat.RoleAssistant, Content: o.text, ToolCalls: o.res.ToolCalls, Thoughts: o.res.Thoughts}
	result := llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Content: "2026-11-28T16:00:00Z"}

	// Without the thought, refused as the API refuses it.
	bare := answer
	bare.Thoughts = nil
	o = stream(t, cfg, t.Context(), llm.Request{Messages: append(append([]llm.Message{}, ask...), bare, result), Tools: offered})
	if e := wantKind(t, o.err, llm.KindBadRequest); !strings.Contains(e.Message, "must start with a thinking block") {
		t.Fatalf("message %q", e.Message)
	}
	// A changed thought: its signature no longer matches.
	forged := answer
	forged.Thoughts = []chat.Thought{{Text: "something else", Signature: answer.Thoughts[0].Signature}}
	o = stream(t, cfg, t.Context(), llm.Request{Messages: append(append([]llm.Message{}, ask...), forged, result), Tools: offered})
	if e := wantKind(t, o.err, llm.KindBadRequest); !strings.Contains(e.Message, "Invalid `signature`") {
		t.Fatalf("message %q", e.Message)
	}
	// As it came: the demo reads the result.
	o = stream(t, cfg, t.Context(), llm.Request{Messages: append(append([]llm.Message{}, ask...), answer, result), Tools: offered})
	if o.err != nil || !strings.Contains(o.text, "2026-11-28T16:00:00Z") || o.res.FinishReason != "stop" {
		t.Fatalf("err %v text %q", o.err, o.text)
	}

	// Errors come in Anthropic's shape and are classified as such.
	o = stream(t, llm.Config{Kind: chat.APIAnthropic, BaseURL: cfg.BaseURL, APIKey: "wrong", Model: demomodel.DefaultModel}, t.Context(), llm.Request{})
	wantKind(t, o.err, llm.KindUnauthorized)
	o = stream(t, cfg, t.Context(), llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "error 404"}}})
	wantKind(t, o.err, llm.KindNotFound)
}
