package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
)

// addLiveTools gives the test server a tool that asks the person (form or
// URL mode) and one that reports progress.
func addLiveTools(ts *testServer) {
	ts.srv.AddTool(&sdk.Tool{Name: "ask", Description: "Asks a question.", InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"boolean"}}}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			p := &sdk.ElicitParams{Message: "Which colour?", RequestedSchema: json.RawMessage(
				`{"type":"object","properties":{"colour":{"type":"string","enum":["red","blue"]},"count":{"type":"integer","default":2}},"required":["colour"]}`)}
			if strings.Contains(string(req.Params.Arguments), "true") {
				p = &sdk.ElicitParams{Mode: "url", Message: "Sign the form", URL: "https://example.com/form", ElicitationID: "e1"}
			}
			res, err := req.Session.Elicit(ctx, p)
			if err != nil {
				return nil, err
			}
			got, _ := json.Marshal(res.Content)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Action + " " + string(got)}}}, nil
		})
	destructive := true
	ts.srv.AddTool(&sdk.Tool{Name: "look", Description: "Reads.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &sdk.ToolAnnotations{Title: "Look around", ReadOnlyHint: true}}, nil)
	ts.srv.AddTool(&sdk.Tool{Name: "wipe", Description: "Deletes.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: &destructive}}, nil)
	ts.srv.AddTool(&sdk.Tool{Name: "steps", Description: "Reports progress.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			for i := 1; i <= 3; i++ {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
					ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)})
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
		})
}

func runAs(t *testing.T, tool tools.Tool, callID, args string, timeout time.Duration) (tools.Output, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return tool.Run(tools.WithCall(ctx, tools.CallInfo{ID: callID, Tool: tool.Name}), tools.Env{}, json.RawMessage(args))
}

func TestQuestionsReachTheCallThatAsked(t *testing.T) {
	ts := newTestServer(t, true) // elicitation/create as a request: the 2025-11-25 protocol
	addLiveTools(ts)
	var mu sync.Mutex
	var asked []Question
	answer := Answer{Action: "accept", Content: map[string]any{"colour": "blue"}}
	m := startManager(t, ts, Options{Elicit: func(ctx context.Context, q Question) (Answer, error) {
		mu.Lock()
		asked = append(asked, q)
		a := answer
		mu.Unlock()
		if a.Action == "wait" {
			<-ctx.Done()
			return Answer{}, ctx.Err()
		}
		return a, nil
	}})
	ask := toolNamed(t, m, "mcp__test__ask")

	out, err := runAs(t, ask, "call-1", `{}`, 10*time.Second)
	if err != nil || out.Text != `accept {"colour":"blue","count":2}` {
		t.Fatalf("accept: %q, %v (the schema's default should be filled in)", out.Text, err)
	}
	if len(asked) != 1 || asked[0].CallID != "call-1" || asked[0].Server != "test" || asked[0].Tool != "ask" ||
		asked[0].Mode != "form" || asked[0].Message != "Which colour?" || !strings.Contains(string(asked[0].Schema), `"enum":["red","blue"]`) {
		t.Fatalf("question = %+v", asked)
	}

	for _, action := range []string{"decline", "cancel", "nonsense"} {
		mu.Lock()
		answer = Answer{Action: action, Content: map[string]any{"colour": "red"}}
		mu.Unlock()
		out, err = runAs(t, ask, "call-2", `{}`, 10*time.Second)
		want := action
		if action == "nonsense" {
			want = "cancel"
		}
		if err != nil || out.Text != want+" null" {
			t.Errorf("%s: %q, %v (no content may go with it)", action, out.Text, err)
		}
	}

	// URL mode: the link is passed on, accepting sends no content.
	mu.Lock()
	answer = Answer{Action: "accept", Content: map[string]any{"x": 1}}
	mu.Unlock()
	out, err = runAs(t, ask, "call-3", `{"url":true}`, 10*time.Second)
	if err != nil || out.Text != "accept null" {
		t.Errorf("url accept: %q, %v", out.Text, err)
	}
	if q := asked[len(asked)-1]; q.Mode != "url" || q.URL != "https://example.com/form" {
		t.Errorf("url question = %+v", q)
	}

	// Nobody answers: the question ends with the call's timeout.
	mu.Lock()
	answer = Answer{Action: "wait"}
	mu.Unlock()
	start := time.Now()
	_, err = runAs(t, ask, "call-4", `{}`, 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "abandoned") {
		t.Errorf("unanswered question: err = %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the unanswered question outlived the call's timeout")
	}
}

func TestNoQuestionHandlerCancels(t *testing.T) {
	ts := newTestServer(t, true) // elicitation/create as a request: the 2025-11-25 protocol
	addLiveTools(ts)
	m := startManager(t, ts, Options{})
	out, err := runAs(t, toolNamed(t, m, "mcp__test__ask"), "c", `{}`, 10*time.Second)
	// Without a handler Airlock does not offer elicitation: the server's
	// request is refused and its tool says so.
	if err == nil && !out.IsError && !strings.HasPrefix(out.Text, "cancel") {
		t.Errorf("without a handler: %q, %v", out.Text, err)
	}
}

func TestProgressNamesTheCall(t *testing.T) {
	ts := newTestServer(t, false)
	addLiveTools(ts)
	got := make(chan Progress, 10)
	m := startManager(t, ts, Options{OnProgress: func(p Progress) { got <- p }})
	out, err := runAs(t, toolNamed(t, m, "mcp__test__steps"), "call-9", `{}`, 10*time.Second)
	if err != nil || out.Text != "done" {
		t.Fatalf("steps: %q, %v", out.Text, err)
	}
	// The SDK may handle the last notification after the call's result, when
	// the call is no longer running and its progress has no card to show on:
	// the first two are the ones that must arrive, named for the call.
	var seen []Progress
	timeout := time.After(5 * time.Second)
	for len(seen) < 2 {
		select {
		case p := <-got:
			seen = append(seen, p)
		case <-timeout:
			t.Fatalf("progress seen: %+v", seen)
		}
	}
	for i, p := range seen {
		if p.CallID != "call-9" || p.Server != "test" || p.Progress != float64(i+1) || p.Total != 3 || p.Message != fmt.Sprintf("step %d", i+1) {
			t.Errorf("progress = %+v", seen)
		}
	}
}

func TestToolHintsFromAnnotations(t *testing.T) {
	ts := newTestServer(t, false)
	addLiveTools(ts)
	m := startManager(t, ts, Options{})
	if h := toolNamed(t, m, "mcp__test__look").Hints; h == nil || *h != (tools.Hints{Title: "Look around", ReadOnly: true}) {
		t.Errorf("look: %+v", h)
	}
	if h := toolNamed(t, m, "mcp__test__wipe").Hints; h == nil || *h != (tools.Hints{Destructive: true}) {
		t.Errorf("wipe: %+v", h)
	}
	if h := toolNamed(t, m, "mcp__test__echo").Hints; h != nil {
		t.Errorf("echo said nothing: %+v", h)
	}
}

// A multi-select question (an array of choices) reaches the person with its
// schema, and the chosen values reach the server as an array.
func TestMultiSelectQuestion(t *testing.T) {
	ts := newTestServer(t, true)
	ts.srv.AddTool(&sdk.Tool{Name: "pick", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Which?", RequestedSchema: json.RawMessage(
				`{"type":"object","properties":{"colours":{"type":"array","items":{"type":"string","enum":["red","green","blue"]}}},"required":["colours"]}`)})
			if err != nil {
				return nil, err
			}
			got, _ := json.Marshal(res.Content)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Action + " " + string(got)}}}, nil
		})
	var schema string
	m := startManager(t, ts, Options{Elicit: func(_ context.Context, q Question) (Answer, error) {
		schema = string(q.Schema)
		return Answer{Action: "accept", Content: map[string]any{"colours": []any{"red", "blue"}}}, nil
	}})
	out, err := runAs(t, toolNamed(t, m, "mcp__test__pick"), "call-1", `{}`, 10*time.Second)
	if err != nil || out.Text != `accept {"colours":["red","blue"]}` || !strings.Contains(schema, `"type":"array"`) {
		t.Fatalf("multi-select: %q, %v (schema %s)", out.Text, err, schema)
	}
}
