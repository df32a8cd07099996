package demomodel

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func chatBody(msg string, stream, usage bool) string {
	b, _ := json.Marshal(map[string]any{
		"model":          DefaultModel,
		"stream":         stream,
		"stream_options": map[string]bool{"include_usage": usage},
		"messages": []map[string]any{
			{"role": "system", "content": "sys"},
			{"role": "user", "content": "an earlier message saying error 500"},
			{"role": "assistant", "content": "ok"},
			{"role": "user", "content": msg},
		},
	})
	return string(b)
}

// events reads an SSE body into its data payloads.
func events(t *testing.T, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, line)
		} else if sc.Text() != "" {
			t.Errorf("unexpected SSE line %q", sc.Text())
		}
	}
	return out
}

type wireChunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Delta struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent string  `json:"reasoning_content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *usageJSON `json:"usage"`
}

func TestPieces(t *testing.T) {
	for _, text := range []string{welcomeText, thinkReasoning, thinkText, dropText, markdownText, xssText, slowText, "a", "", "supercalifragilistic ok"} {
		ps := pieces(text)
		if strings.Join(ps, "") != text {
			t.Fatalf("pieces do not add up for %.30q", text)
		}
		short := 0
		for _, p := range ps {
			n := utf8.RuneCountInString(p)
			if n > 8 || !utf8.ValidString(p) {
				t.Errorf("piece %q: %d runes", p, n)
			}
			if n < 2 {
				short++
			}
		}
		if len(ps) > 20 && short*10 > len(ps) {
			t.Errorf("%d of %d pieces shorter than 2 characters", short, len(ps))
		}
	}
}

func TestRules(t *testing.T) {
	cases := []struct{ msg, want string }{
		{"ERROR 401", "status 401"},
		{"error 429 then drop", "status 429"},
		{"please drop it", "drop"},
		{"hang on", "hang"},
		{"I think this will be long", "slow"}, // slow comes before think in the table
		{"what's the reason?", "think"},
		{"show me Markdown", "markdown"},
		{"xss test", "xss"},
		{"hello", "welcome"},
	}
	for _, c := range cases {
		r := choose(Prompt{Model: DefaultModel, LastUser: c.msg})
		var got string
		switch {
		case r.Status != 0:
			got = fmt.Sprintf("status %d", r.Status)
		case r.DropAfter > 0:
			got = "drop"
		case r.Hang:
			got = "hang"
		case r.ChunkDelay > 0:
			got = "slow"
		case r.Reasoning != "":
			got = "think"
		case r.Text == markdownText:
			got = "markdown"
		case r.Text == xssText:
			got = "xss"
		case strings.Contains(r.Text, "offline demo model"):
			got = "welcome"
		}
		if got != c.want {
			t.Errorf("%q chose %q, want %q", c.msg, got, c.want)
		}
	}
	if r := choose(Prompt{Model: "m", LastUser: "error 429"}); r.Header.Get("Retry-After") != "7" {
		t.Error("429 without Retry-After: 7")
	}
	if r := choose(Prompt{Model: "m", LastUser: strings.Repeat("long message ", 20)}); strings.Contains(r.Text, "You said") {
		t.Error("long messages must not be echoed")
	}
	r := choose(Prompt{Model: "m", LastUser: "xss"})
	for _, s := range []string{`<script>alert(1)</script>`, `<img src=x onerror=alert(1)>`, `[click](javascript:alert(1))`, `<img src="https://example.com/track.png">`, `<iframe src="https://example.com">`} {
		if !strings.Contains(r.Text, s) {
			t.Errorf("xss reply lacks %s", s)
		}
	}
	md := choose(Prompt{LastUser: "markdown"}).Text
	for _, s := range []string{"\n# ", "\n## ", "\n- ", "\n|---|", "```go\n", "```ts\n", "`inline code`", "](https://"} {
		if !strings.Contains("\n"+md, s) {
			t.Errorf("markdown showcase lacks %q", s)
		}
	}
	if n := utf8.RuneCountInString(slowText); n < 2500 || n > 3500 {
		t.Errorf("slow text is %d characters, want about 3000", n)
	}
}

func TestStreamWireFormat(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)

	for _, usage := range []bool{true, false} {
		resp := post(t, srv.URL, chatBody("think", true, usage))
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("status %d type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		evs := events(t, resp.Body)
		if evs[len(evs)-1] != "[DONE]" {
			t.Fatalf("last event %q", evs[len(evs)-1])
		}
		var text, reasoning string
		var finish, sawUsage int
		var id string
		for i, e := range evs[:len(evs)-1] {
			var c wireChunk
			if err := json.Unmarshal([]byte(e), &c); err != nil {
				t.Fatalf("event %d: %v: %s", i, err, e)
			}
			if c.Object != "chat.completion.chunk" || c.Model != DefaultModel || c.Created == 0 || !strings.HasPrefix(c.ID, "chatcmpl-") {
				t.Fatalf("event %d lacks OpenAI fields: %s", i, e)
			}
			if id == "" {
				id = c.ID
			} else if c.ID != id {
				t.Fatalf("id changed mid-stream")
			}
			if i == 0 && (len(c.Choices) != 1 || c.Choices[0].Delta.Role != "assistant") {
				t.Fatalf("first chunk must carry the role: %s", e)
			}
			if c.Usage != nil {
				sawUsage++
				if len(c.Choices) != 0 || !strings.Contains(e, `"choices":[]`) || c.Usage.CompletionTokens < 100 || c.Usage.PromptTokens < 10 {
					t.Errorf("usage chunk %s", e)
				}
				continue
			}
			d := c.Choices[0]
			if d.Delta.Content != nil {
				text += *d.Delta.Content
			}
			reasoning += d.Delta.ReasoningContent
			if d.FinishReason != nil {
				finish++
				if *d.FinishReason != "stop" || i != len(evs)-2-sawUsageWant(usage) {
					t.Errorf("finish chunk %d: %s", i, e)
				}
			}
		}
		if text != thinkText || reasoning != thinkReasoning || finish != 1 {
			t.Errorf("text %q reasoning %q finish %d", text, reasoning, finish)
		}
		if want := sawUsageWant(usage); sawUsage != want {
			t.Errorf("include_usage=%v: %d usage chunks", usage, sawUsage)
		}
	}
}

func sawUsageWant(usage bool) int {
	if usage {
		return 1
	}
	return 0
}

func TestNonStreaming(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)
	resp := post(t, srv.URL, chatBody("reason please", false, false))
	var c struct {
		Object  string `json:"object"`
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Role, Content    string
				ReasoningContent string `json:"reasoning_content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage usageJSON `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	if c.Object != "chat.completion" || len(c.Choices) != 1 || c.Choices[0].Message.Content != thinkText ||
		c.Choices[0].Message.ReasoningContent != thinkReasoning || c.Choices[0].FinishReason != "stop" || c.Usage.TotalTokens == 0 {
		t.Errorf("%+v", c)
	}
}

func TestErrorsAndEndpoints(t *testing.T) {
	srv := httptest.NewServer(New(Options{APIKey: "k", Models: []string{"a", "b"}}))
	t.Cleanup(srv.Close)
	do := func(method, path, key, body string) (int, http.Header, string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	if code, _, body := do("GET", "/v1/models", "k", ""); code != 200 || !strings.Contains(body, `"data":[{"id":"a","object":"model"`) {
		t.Errorf("models: %d %s", code, body)
	}
	if code, _, body := do("GET", "/v1/models", "nope", ""); code != 401 || !strings.Contains(body, `"code":"invalid_api_key"`) {
		t.Errorf("bad key: %d %s", code, body)
	}
	code, _, body := do("POST", "/v1/chat/completions", "k", `{"model":"x","messages":[{"role":"user","content":"hi"}]}`)
	if want := `{"error":{"message":"The model ` + "`x`" + ` does not exist","type":"invalid_request_error","param":null,"code":"model_not_found"}}`; code != 404 || strings.TrimSpace(body) != want {
		t.Errorf("unknown model: %d %s", code, body)
	}
	code, h, body := do("POST", "/v1/chat/completions", "k", `{"model":"b","stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"error 429"}]}]}`)
	if code != 429 || h.Get("Retry-After") != "7" || !strings.Contains(body, `"message":"Simulated rate limit`) {
		t.Errorf("429: %d %v %s", code, h, body)
	}
	if code, _, body := do("POST", "/v1/chat/completions", "k", `{"model":"a","messages":[{"role":"user","content":"error 500"}]}`); code != 500 || !strings.Contains(body, "Simulated server error from the Airlock demo model") {
		t.Errorf("500: %d %s", code, body)
	}
	if code, _, _ := do("POST", "/v1/chat/completions", "k", `{not json`); code != 400 {
		t.Errorf("bad json: %d", code)
	}
	if code, _, _ := do("GET", "/v1/chat/completions", "k", ""); code != 405 {
		t.Errorf("GET completions: %d", code)
	}
	if code, _, _ := do("GET", "/v1/embeddings", "k", ""); code != 404 {
		t.Errorf("unknown path: %d", code)
	}
}

func TestDropCutsTheStream(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)
	resp := post(t, srv.URL, chatBody("drop", true, true))
	body, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Fatal("want a broken body, read cleanly")
	}
	if strings.Contains(string(body), "[DONE]") || !strings.Contains(string(body), `"content":"I'll"`) {
		t.Errorf("body %s", body)
	}
}

// Streams end when the client leaves: a hang or a slow answer must not keep
// the handler (and its goroutine) alive.
func TestClientDisconnectEndsHandler(t *testing.T) {
	for _, msg := range []string{"hang", "slow"} {
		done := make(chan struct{})
		s := New(Options{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer close(done)
			s.ServeHTTP(w, r)
		}))
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/chat/completions", strings.NewReader(chatBody(msg, true, false)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = resp.Body.Read(make([]byte, 100)) // the role chunk
		cancel()
		select {
		case <-done:
		case <-time.After(time.Second):
			t.Fatalf("%s: handler still running after the client left", msg)
		}
		srv.Close()
	}
}

func TestSlowPace(t *testing.T) {
	srv := httptest.NewServer(New(Options{})) // ChunkDelay 0: slow keeps its own pace
	t.Cleanup(srv.Close)
	resp := post(t, srv.URL, chatBody("slow", true, false))
	r := bufio.NewReader(resp.Body)
	var stamps []time.Time
	for len(stamps) < 5 {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, `"content":"`) && !strings.Contains(line, `"content":""`) {
			stamps = append(stamps, time.Now())
		}
	}
	if gap := stamps[4].Sub(stamps[1]) / 3; gap < 30*time.Millisecond || gap > 80*time.Millisecond {
		t.Errorf("slow chunks every %v, want ~40ms", gap)
	}
}

func TestStartAndShutdown(t *testing.T) {
	base, shutdown, err := Start("127.0.0.1:0", Options{ChunkDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/v1") {
		t.Fatalf("base URL %q", base)
	}
	resp, err := http.Get(base + "/models")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("models: %v %v", err, resp)
	}
	resp.Body.Close()

	// A hanging stream must not hold up shutdown.
	hang, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(chatBody("hang", true, false)))
	if err != nil {
		t.Fatal(err)
	}
	defer hang.Body.Close()
	start := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	if err := shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v after %v", err, time.Since(start))
	}
	if time.Since(start) > time.Second {
		t.Errorf("shutdown took %v", time.Since(start))
	}
	if _, err := http.Get(base + "/models"); err == nil {
		t.Error("server still answers after shutdown")
	}
}
