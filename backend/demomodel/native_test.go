package demomodel

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"airlock/backend/paradigm"
	"airlock/backend/tools"
	"airlock/backend/tools/files"
)

// toolbox is the built-in and file tools plus an MCP echo tool, as the app
// offers them.
func toolbox(t *testing.T) *tools.Toolbox {
	t.Helper()
	echo := tools.Tool{Spec: tools.Spec{Name: "mcp__everything__echo", Description: "Echoes back the input",
		Parameters: []byte(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
		Kind: tools.KindMCP, Server: "everything", Run: tools.TextRun(nil)}
	box, err := tools.NewToolbox(slices.Concat(tools.Builtins(), files.Tools(), []tools.Tool{echo})...)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

func toolNames(box *tools.Toolbox) []string {
	var names []string
	for _, s := range box.Specs() {
		names = append(names, s.Name)
	}
	return names
}

// nativeAsk is a request that offers the toolbox natively.
func nativeAsk(names []string, msgs ...PromptMessage) Prompt {
	p := Prompt{Model: DefaultModel, Tools: names, Messages: append([]PromptMessage{{Role: "system", Content: "You are helpful."}}, msgs...)}
	for _, m := range msgs {
		if m.Role == "user" {
			p.LastUser = m.Content
		}
	}
	return p
}

// The native scripts make the calls the text scripts write: same tools,
// same arguments.
func TestNativeScriptsMatchTextScripts(t *testing.T) {
	box := toolbox(t)
	par, _ := paradigm.Get("json")
	system := PromptMessage{Role: "system", Content: par.Prompt(box.Specs())}
	for _, say := range []string{"What time is it?", "please calculate 17*23", "time and calc 2+2", "loop", "work with files", "Please MCP echo Grüße, 世界"} {
		text := choose(Prompt{Model: DefaultModel, Messages: []PromptMessage{system, {Role: "user", Content: say}}, LastUser: say}).Text
		scanned := paradigm.Scan(text, paradigm.Options{Paradigm: "json", Registry: box.Registry()})
		rep := choose(nativeAsk(toolNames(box), PromptMessage{Role: "user", Content: say}))
		if len(scanned.Calls) == 0 || len(rep.ToolCalls) != len(scanned.Calls) {
			t.Fatalf("%q: %d native calls, %d text calls (%s)", say, len(rep.ToolCalls), len(scanned.Calls), text)
		}
		for i, c := range rep.ToolCalls {
			if c.Name != scanned.Calls[i].Name || c.Arguments != string(scanned.Calls[i].Arguments) {
				t.Errorf("%q call %d: native %s %s, text %s %s", say, i, c.Name, c.Arguments, scanned.Calls[i].Name, scanned.Calls[i].Arguments)
			}
			if !strings.HasPrefix(c.ID, "call_") || len(c.ID) != 29 {
				t.Errorf("%q: id %q", say, c.ID)
			}
		}
		if rep.Text == "" || strings.Contains(rep.Text, "tool_call") || strings.Contains(rep.Text, "```") {
			t.Errorf("%q: the native intro must be plain text: %q", say, rep.Text)
		}
	}
}

func TestNativeOnlyListedTools(t *testing.T) {
	rep := choose(nativeAsk([]string{"calculate"}, PromptMessage{Role: "user", Content: "what time is it"}))
	if len(rep.ToolCalls) != 0 || !strings.Contains(rep.Text, "**get_current_time**") || !strings.Contains(rep.Text, "does not offer it") {
		t.Errorf("%+v", rep)
	}
	rep = choose(nativeAsk([]string{"get_current_time"}, PromptMessage{Role: "user", Content: "mcp echo hi"}))
	if len(rep.ToolCalls) != 0 || !strings.Contains(rep.Text, "Settings → Tools") {
		t.Errorf("mcp echo without an echo tool: %+v", rep)
	}
}

func TestNativeBroken(t *testing.T) {
	for _, offered := range [][]string{{"get_current_time", "calculate"}, {"read_file"}} {
		rep := choose(nativeAsk(offered, PromptMessage{Role: "user", Content: "show me something broken"}))
		if len(rep.ToolCalls) != 1 || json.Valid([]byte(rep.ToolCalls[0].Arguments)) || !slices.Contains(offered, rep.ToolCalls[0].Name) {
			t.Fatalf("%v: %+v", offered, rep)
		}
	}
	if rep := choose(nativeAsk([]string{"calculate", "read_file"}, PromptMessage{Role: "user", Content: "broken"})); rep.ToolCalls[0].Name != "calculate" {
		t.Errorf("broken calls %s", rep.ToolCalls[0].Name)
	}
}

// Results come back as "tool" messages, matched to the calls by id.
func TestNativeResultsReadBack(t *testing.T) {
	names := toolNames(toolbox(t))
	msgs := []PromptMessage{
		{Role: "user", Content: "time and calc, and think about it"}, // "think" must not win over the results
		{Role: "assistant", Content: "I'll check.", ToolCalls: []ToolCall{{ID: "call_t", Name: "get_current_time", Arguments: "{}"}, {ID: "call_c", Name: "calculate", Arguments: `{"expression":"17*23"}`}}},
		{Role: "tool", ToolCallID: "call_c", Content: "391"},
		{Role: "tool", ToolCallID: "call_t", Content: "The user denied this call. Reason: private"},
	}
	got := choose(nativeAsk(names, msgs...))
	if len(got.ToolCalls) != 0 || !strings.Contains(got.Text, "- **calculate** returned `391`.") ||
		!strings.Contains(got.Text, "You denied **get_current_time**, so I did not run it. Reason: private") {
		t.Errorf("%+v", got)
	}
	if strings.Index(got.Text, "calculate") > strings.Index(got.Text, "get_current_time") {
		t.Error("results read in the order they came")
	}
	for _, c := range []struct{ content, want string }{
		{`{"status":"error","result":"division by zero"}`, "**calculate** failed: division by zero"},
		{"Error: division by zero", "**calculate** failed: Error: division by zero"},
		{`{"name":"calculate","status":"success","result":391}`, "**calculate** returned `391`"},
	} {
		got := choose(nativeAsk(names, msgs[0], PromptMessage{Role: "assistant", ToolCalls: []ToolCall{{ID: "x", Name: "calculate"}}},
			PromptMessage{Role: "tool", ToolCallID: "x", Content: c.content}))
		if !strings.Contains(got.Text, c.want) {
			t.Errorf("%s: %s", c.content, got.Text)
		}
	}
	// A client that names the tool on the result, and ids the demo never made.
	got = choose(nativeAsk(names, msgs[0], PromptMessage{Role: "tool", ToolCallID: "zz", Name: "calculate", Content: "4"}))
	if !strings.Contains(got.Text, "**calculate** returned `4`") {
		t.Errorf("named result: %s", got.Text)
	}
}

func TestNativeLoopAndFiles(t *testing.T) {
	names := toolNames(toolbox(t))
	msgs := []PromptMessage{{Role: "user", Content: "loop please"}}
	for range 3 {
		rep := choose(nativeAsk(names, msgs...))
		if len(rep.ToolCalls) != 1 || rep.ToolCalls[0].Name != "calculate" || rep.ToolCalls[0].Arguments != `{"expression":"1+1"}` {
			t.Fatalf("loop: %+v", rep)
		}
		msgs = append(msgs, PromptMessage{Role: "assistant", Content: rep.Text, ToolCalls: rep.ToolCalls},
			PromptMessage{Role: "tool", ToolCallID: rep.ToolCalls[0].ID, Content: "2"})
	}

	msgs = []PromptMessage{{Role: "user", Content: "work with files please"}}
	var steps []string
	for range 6 {
		rep := choose(nativeAsk(names, msgs...))
		if len(rep.ToolCalls) == 0 {
			if !strings.Contains(rep.Text, "notes.md") || !strings.Contains(rep.Text, "contents of notes") {
				t.Fatalf("final answer: %s", rep.Text)
			}
			break
		}
		steps = append(steps, rep.ToolCalls[0].Name)
		msgs = append(msgs, PromptMessage{Role: "assistant", Content: rep.Text, ToolCalls: rep.ToolCalls},
			PromptMessage{Role: "tool", ToolCallID: rep.ToolCalls[0].ID, Content: "contents of notes"})
	}
	if strings.Join(steps, ",") != "list_directory,write_file,edit_file,read_file" {
		t.Fatalf("steps %v", steps)
	}
}

// The stream: intro text, then the calls in pieces the way OpenAI sends
// them, interleaved, and finish_reason tool_calls.
func TestNativeStreamWireFormat(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)
	body := `{"model":"airlock-demo","stream":true,"stream_options":{"include_usage":true},
		"tools":[{"type":"function","function":{"name":"get_current_time","parameters":{"type":"object"}}},{"type":"function","function":{"name":"calculate","parameters":{"type":"object"}}}],
		"messages":[{"role":"user","content":"time and calc 2+2"}]}`
	evs := events(t, post(t, srv.URL, body).Body)
	if evs[len(evs)-1] != "[DONE]" {
		t.Fatalf("last event %q", evs[len(evs)-1])
	}
	type piece struct {
		Index    *int    `json:"index"`
		ID       *string `json:"id"`
		Type     string  `json:"type"`
		Function struct {
			Name      *string `json:"name"`
			Arguments *string `json:"arguments"`
		} `json:"function"`
	}
	var (
		text, finish string
		order        []int
		calls        = map[int]*ToolCall{}
		usage        *usageJSON
	)
	for _, e := range evs[:len(evs)-1] {
		var c struct {
			Choices []struct {
				Delta struct {
					Content   *string `json:"content"`
					ToolCalls []piece `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *usageJSON `json:"usage"`
		}
		if err := json.Unmarshal([]byte(e), &c); err != nil {
			t.Fatal(err)
		}
		if c.Usage != nil {
			usage = c.Usage
			continue
		}
		d := c.Choices[0]
		if d.Delta.Content != nil {
			if len(calls) > 0 && *d.Delta.Content != "" {
				t.Error("text after the calls began")
			}
			text += *d.Delta.Content
		}
		if d.FinishReason != nil {
			finish = *d.FinishReason
		}
		if len(d.Delta.ToolCalls) > 1 {
			t.Errorf("one piece per chunk: %s", e)
		}
		for _, p := range d.Delta.ToolCalls {
			if p.Index == nil || p.Function.Arguments == nil {
				t.Fatalf("piece without index or arguments: %s", e)
			}
			i := *p.Index
			order = append(order, i)
			c, seen := calls[i]
			if !seen {
				if p.ID == nil || !strings.HasPrefix(*p.ID, "call_") || p.Type != "function" || p.Function.Name == nil || *p.Function.Arguments != "" {
					t.Errorf("first piece of call %d: %s", i, e)
				}
				calls[i] = &ToolCall{ID: *p.ID, Name: *p.Function.Name}
				continue
			}
			if p.ID != nil || p.Function.Name != nil || p.Type != "" {
				t.Errorf("id, type or name repeated: %s", e)
			}
			if n := utf8.RuneCountInString(*p.Function.Arguments); n < 1 || n > 8 {
				t.Errorf("argument piece of %d characters: %q", n, *p.Function.Arguments)
			}
			c.Arguments += *p.Function.Arguments
		}
	}
	if text != "I'll check the time and do the sum." || finish != "tool_calls" {
		t.Errorf("text %q finish %q", text, finish)
	}
	if len(calls) != 2 || calls[0].Name != "get_current_time" || calls[0].Arguments != `{"timezone":"UTC"}` ||
		calls[1].Name != "calculate" || calls[1].Arguments != `{"expression":"2+2"}` || calls[0].ID == calls[1].ID {
		t.Fatalf("calls %+v %+v", calls[0], calls[1])
	}
	if slices.IsSorted(order) {
		t.Errorf("pieces not interleaved: %v", order)
	}
	if usage == nil || usage.CompletionTokens < 10 {
		t.Errorf("usage %+v", usage)
	}
}

func TestNativeNonStreaming(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)
	body := `{"model":"airlock-demo","tools":[{"type":"function","function":{"name":"calculate"}}],"messages":[{"role":"user","content":"calculate 17*23"}]}`
	resp := post(t, srv.URL, body)
	var c struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID, Type string
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	m := c.Choices[0].Message
	if c.Choices[0].FinishReason != "tool_calls" || m.Content == nil || *m.Content != "I'll use the calculator rather than guess." || len(m.ToolCalls) != 1 {
		t.Fatalf("%+v", c)
	}
	tc := m.ToolCalls[0]
	if !strings.HasPrefix(tc.ID, "call_") || tc.Type != "function" || tc.Function.Name != "calculate" || tc.Function.Arguments != `{"expression":"17*23"}` {
		t.Errorf("%+v", tc)
	}
}

// The text-only model refuses tools with Ollama's exact answer, and is the
// demo without them; the one that ignores tools writes its calls as text.
func TestDemoModelsAndTools(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)
	ask := func(model, msg string, withTools bool) (int, string) {
		req := map[string]any{"model": model, "messages": []map[string]string{{"role": "user", "content": msg}}}
		if withTools {
			req["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "calculate", "parameters": map[string]any{"type": "object"}}}}
		}
		b, _ := json.Marshal(req)
		resp := post(t, srv.URL, string(b))
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	code, body := ask(TextOnlyModel, "calculate 17*23", true)
	if want := `{"error":{"message":"registry.ollama.ai/library/airlock-demo-text-only:latest does not support tools","type":"invalid_request_error","param":null,"code":null}}`; code != 400 || strings.TrimSpace(body) != want {
		t.Errorf("refusal: %d %s", code, body)
	}
	if code, body := ask(TextOnlyModel, "hello", false); code != 200 || !strings.Contains(body, "offline demo model") {
		t.Errorf("without tools: %d %s", code, body)
	}

	code, body = ask(IgnoresToolsModel, "calculate 17*23", true)
	var c struct {
		Choices []struct {
			Message struct {
				Content   string `json:"content"`
				ToolCalls []any  `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(body), &c); err != nil || code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	m := c.Choices[0]
	res := paradigm.Scan(m.Message.Content, paradigm.Options{})
	if len(m.Message.ToolCalls) != 0 || m.FinishReason != "stop" || len(res.Calls) != 1 || res.Calls[0].Name != "calculate" || string(res.Calls[0].Arguments) != `{"expression":"17*23"}` {
		t.Errorf("ignoring model: %+v, scanned %+v", m, res)
	}
	if code, body := ask(IgnoresToolsModel, "calculate 17*23", false); code != 200 || !strings.Contains(body, "offline demo model") {
		t.Errorf("ignoring model without tools: %d %s", code, body)
	}
	if code, body := ask(DefaultModel, "calculate 17*23", true); code != 200 || !strings.Contains(body, `"tool_calls":[{"id":"call_`) {
		t.Errorf("default model: %d %s", code, body)
	}
}

func TestModelsList(t *testing.T) {
	if m := New(Options{}).opts.Models; strings.Join(m, ",") != "airlock-demo,airlock-demo-text-only,airlock-demo-ignores-tools" {
		t.Errorf("models %v", m)
	}
	w := welcome(Prompt{Model: DefaultModel}).Text
	for _, name := range DefaultModels() {
		if !strings.Contains(w, "`"+name+"`") {
			t.Errorf("the welcome does not mention %s", name)
		}
	}
	m := DefaultModels()
	m[0] = "changed"
	if DefaultModels()[0] != DefaultModel {
		t.Error("DefaultModels shares its slice")
	}
}
