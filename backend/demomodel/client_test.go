package demomodel_test

import (
	"context"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/demomodel"
	"airlock/backend/llm"
	"airlock/backend/paradigm"
	"airlock/backend/tools"
)

// The demo server and the client must agree: these run the real pair.

func demo(t *testing.T, opts demomodel.Options) string {
	t.Helper()
	srv := httptest.NewServer(demomodel.New(opts))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func ask(t *testing.T, cfg llm.Config, msg string) outcome {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = demomodel.DefaultModel
	}
	return stream(t, cfg, t.Context(), llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: "You are helpful."},
		{Role: chat.RoleUser, Content: msg},
	}})
}

func TestDemoWelcome(t *testing.T) {
	base := demo(t, demomodel.Options{})
	o := ask(t, llm.Config{BaseURL: base}, "Hello there")
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, s := range []string{"You said: “Hello there”", "offline demo model", "`think`", "`error 429`", "Settings"} {
		if !strings.Contains(o.text, s) {
			t.Errorf("welcome lacks %q:\n%s", s, o.text)
		}
	}
	if o.deltas < 50 {
		t.Errorf("want a real stream of small deltas, got %d", o.deltas)
	}
	if o.res.FinishReason != "stop" || o.res.Model != demomodel.DefaultModel {
		t.Errorf("result %+v", o.res)
	}
	u := o.res.Usage
	if u.PromptTokens == 0 || u.CompletionTokens < len(o.text)/5 || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
		t.Errorf("usage %+v for %d chars", u, len(o.text))
	}
}

func TestDemoThink(t *testing.T) {
	o := ask(t, llm.Config{BaseURL: demo(t, demomodel.Options{})}, "Please THINK hard")
	if o.err != nil {
		t.Fatal(o.err)
	}
	if !strings.Contains(o.reasoning, "reasoning models") || !strings.Contains(o.text, "**reasoning** block") {
		t.Errorf("reasoning %q\ntext %q", o.reasoning, o.text)
	}
	if strings.Contains(o.text, o.reasoning[:20]) {
		t.Error("reasoning leaked into the text")
	}
}

func TestDemoDrop(t *testing.T) {
	o := ask(t, llm.Config{BaseURL: demo(t, demomodel.Options{})}, "drop")
	wantKind(t, o.err, llm.KindStreamBroken)
	if !strings.HasPrefix(o.text, "I'll begin an answer now") || strings.Contains(o.text, "did not work") {
		t.Errorf("want the first part of the text kept, got %q", o.text)
	}
}

func TestDemoHang(t *testing.T) {
	o := ask(t, llm.Config{BaseURL: demo(t, demomodel.Options{}), IdleTimeout: 100 * time.Millisecond}, "hang")
	wantKind(t, o.err, llm.KindTimeout)
}

func TestDemoSlowCanBeStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	var text string
	_, err := llm.New(llm.Config{BaseURL: demo(t, demomodel.Options{}), Model: demomodel.DefaultModel}).Stream(ctx,
		llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "a long one please"}}},
		func(d llm.Delta) {
			if text += d.Text; len(text) > 30 {
				cancel()
			}
		})
	wantKind(t, err, llm.KindCanceled)
	if len(text) < 30 || len(text) > 100 {
		t.Errorf("text %q", text)
	}
}

func TestDemoErrors(t *testing.T) {
	base := demo(t, demomodel.Options{})
	cases := []struct {
		msg, model string
		kind       llm.ErrorKind
		status     int
		contain    string
	}{
		{"error 401 please", "", llm.KindUnauthorized, 401, "Simulated authentication error"},
		{"Error 404", "", llm.KindNotFound, 404, "`airlock-demo` does not exist"},
		{"error 429", "", llm.KindRateLimited, 429, "Retry after 7 seconds."},
		{"error 500", "", llm.KindServer, 500, "Simulated server error from the Airlock demo model."},
		{"hi", "gpt-5", llm.KindNotFound, 404, "The model `gpt-5` does not exist."},
	}
	for _, c := range cases {
		o := ask(t, llm.Config{BaseURL: base, Model: c.model}, c.msg)
		e := wantKind(t, o.err, c.kind)
		if e.StatusCode != c.status || !strings.Contains(e.Message, c.contain) {
			t.Errorf("%q: status %d message %q", c.msg, e.StatusCode, e.Message)
		}
		if c.model != "" && !strings.Contains(e.Message, `"`+c.model+`"`) {
			t.Errorf("unknown model message must name it: %q", e.Message)
		}
	}
}

func TestDemoAPIKeyAndModels(t *testing.T) {
	base := demo(t, demomodel.Options{APIKey: "secret", Models: []string{"demo-b", "demo-a"}})
	o := ask(t, llm.Config{BaseURL: base, APIKey: "wrong", Model: "demo-a"}, "hi")
	wantKind(t, o.err, llm.KindUnauthorized)
	if o := ask(t, llm.Config{BaseURL: base, APIKey: "secret", Model: "demo-a"}, "hi"); o.err != nil {
		t.Fatal(o.err)
	}
	ids, err := llm.New(llm.Config{BaseURL: base, APIKey: "secret"}).ListModels(t.Context())
	if err != nil || strings.Join(ids, ",") != "demo-a,demo-b" {
		t.Fatalf("ids %v err %v", ids, err)
	}
}

// --- native tool calls with the demo ----------------------------------------------

func demoTools(t *testing.T) []llm.Tool {
	t.Helper()
	box, err := tools.NewToolbox(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	var out []llm.Tool
	for _, s := range box.Specs() {
		out = append(out, llm.Tool{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	return out
}

func TestDemoNativeToolCalls(t *testing.T) {
	base := demo(t, demomodel.Options{})
	msgs := []llm.Message{{Role: chat.RoleUser, Content: "time and calc 17*23"}}
	o := stream(t, llm.Config{BaseURL: base, Model: demomodel.DefaultModel}, t.Context(), llm.Request{Messages: msgs, Tools: demoTools(t)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	calls := o.res.ToolCalls
	if o.text != "I'll check the time and do the sum." || o.res.FinishReason != "tool_calls" || len(calls) != 2 {
		t.Fatalf("text %q finish %q calls %+v", o.text, o.res.FinishReason, calls)
	}
	if calls[0].Name != "get_current_time" || calls[0].Arguments != `{"timezone":"UTC"}` ||
		calls[1].Name != "calculate" || calls[1].Arguments != `{"expression":"17*23"}` ||
		!strings.HasPrefix(calls[0].ID, "call_") || calls[0].ID == calls[1].ID {
		t.Errorf("calls %+v", calls)
	}
	if !reflect.DeepEqual(o.live, calls) {
		t.Errorf("the deltas formed %+v", o.live)
	}

	// The results go back as tool messages; the demo reads them.
	msgs = append(msgs, llm.Message{Role: chat.RoleAssistant, Content: o.text, ToolCalls: calls},
		llm.Message{Role: llm.RoleTool, ToolCallID: calls[0].ID, Content: "The user denied this call. Reason: not now"},
		llm.Message{Role: llm.RoleTool, ToolCallID: calls[1].ID, Content: "391"})
	o = stream(t, llm.Config{BaseURL: base, Model: demomodel.DefaultModel}, t.Context(), llm.Request{Messages: msgs, Tools: demoTools(t)})
	if o.err != nil || len(o.res.ToolCalls) != 0 || o.res.FinishReason != "stop" {
		t.Fatalf("%v %+v", o.err, o.res)
	}
	if !strings.Contains(o.text, "You denied **get_current_time**") || !strings.Contains(o.text, "**calculate** returned `391`") {
		t.Errorf("text %q", o.text)
	}
}

// The text-only demo model refuses tools as Ollama does; Auto mode can tell.
func TestDemoTextOnlyModelRefusesTools(t *testing.T) {
	base := demo(t, demomodel.Options{})
	req := llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "calculate 17*23"}}, Tools: demoTools(t)}
	o := stream(t, llm.Config{BaseURL: base, Model: demomodel.TextOnlyModel}, t.Context(), req)
	e := wantKind(t, o.err, llm.KindToolsUnsupported)
	if e.StatusCode != 400 || !strings.Contains(e.Message, "registry.ollama.ai/library/airlock-demo-text-only:latest does not support tools.") {
		t.Errorf("%d %q", e.StatusCode, e.Message)
	}
	req.Tools = nil
	if o := stream(t, llm.Config{BaseURL: base, Model: demomodel.TextOnlyModel}, t.Context(), req); o.err != nil || !strings.Contains(o.text, "offline demo model") {
		t.Errorf("without tools: %v %q", o.err, o.text)
	}
}

// The demo model that ignores tools answers a native request with calls in
// its text, where the scanner finds them.
func TestDemoModelIgnoringTools(t *testing.T) {
	base := demo(t, demomodel.Options{})
	req := llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "what time is it"}}, Tools: demoTools(t)}
	o := stream(t, llm.Config{BaseURL: base, Model: demomodel.IgnoresToolsModel}, t.Context(), req)
	if o.err != nil || len(o.res.ToolCalls) != 0 || o.res.FinishReason != "stop" {
		t.Fatalf("%v %+v", o.err, o.res)
	}
	res := paradigm.Scan(o.text, paradigm.Options{})
	if len(res.Calls) != 1 || res.Calls[0].Name != "get_current_time" {
		t.Errorf("scanned %+v from %q", res, o.text)
	}
}

func TestDemoListsItsModels(t *testing.T) {
	ids, err := llm.New(llm.Config{BaseURL: demo(t, demomodel.Options{})}).ListModels(t.Context())
	if err != nil || strings.Join(ids, ",") != "airlock-demo,airlock-demo-ignores-tools,airlock-demo-text-only" {
		t.Fatalf("%v %v", ids, err)
	}
}

// TestDemoWindow: Airlock finds the demo's window from its model list.
func TestDemoWindow(t *testing.T) {
	base, stop, err := demomodel.Start("127.0.0.1:0", demomodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer stop(context.Background())
	w, err := llm.New(llm.Config{BaseURL: base, Model: demomodel.DefaultModels()[0]}).Window(context.Background())
	if err != nil || w.Tokens != demomodel.ContextLength || w.Source != "server:list" {
		t.Fatalf("%+v %v", w, err)
	}
}
