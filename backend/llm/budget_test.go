package llm_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// TestMaxTokens: the answer budget goes as max_tokens (the request's own,
// else the model's setting), as max_completion_tokens for OpenAI's
// reasoning models, and not at all when unset.
func TestMaxTokens(t *testing.T) {
	url, body := bodyServer(t)
	hi := llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "hi"}}}
	cases := []struct {
		name        string
		cfg         llm.Config
		req         int
		field       string
		want        float64
		absentField string
	}{
		{"unset", llm.Config{Model: "llama3"}, 0, "", 0, "max_tokens"},
		{"the model's setting", llm.Config{Model: "llama3", MaxTokens: 2048}, 0, "max_tokens", 2048, "max_completion_tokens"},
		{"the request's own wins", llm.Config{Model: "llama3", MaxTokens: 2048}, 300, "max_tokens", 300, ""},
		{"a reasoning model", llm.Config{Model: "gpt-5-mini", MaxTokens: 4000}, 0, "max_completion_tokens", 4000, "max_tokens"},
	}
	for _, c := range cases {
		c.cfg.BaseURL = url
		req := hi
		req.MaxTokens = c.req
		if o := stream(t, c.cfg, t.Context(), req); o.err != nil {
			t.Fatalf("%s: %v", c.name, o.err)
		}
		var sent map[string]any
		json.Unmarshal(body(), &sent)
		if c.field != "" && sent[c.field] != c.want {
			t.Errorf("%s: %s = %v, want %v (%s)", c.name, c.field, sent[c.field], c.want, body())
		}
		if _, ok := sent[c.absentField]; c.absentField != "" && ok {
			t.Errorf("%s: %s sent: %s", c.name, c.absentField, body())
		}
	}
}

// TestCutOff: an answer stopped by its budget says so.
func TestCutOff(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		send(w, content("The first half of a long ans")+`data: {"choices":[{"delta":{},"finish_reason":"length"}]}`+"\n\n"+doneEvent)
	})
	o := stream(t, llm.Config{BaseURL: srv.URL, Model: "m"}, t.Context(), llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "hi"}}})
	if o.err != nil || !o.res.CutOff() {
		t.Fatalf("%+v %v", o.res, o.err)
	}
	if (llm.Result{FinishReason: "stop"}).CutOff() {
		t.Fatal("a finished answer cut off")
	}
}
