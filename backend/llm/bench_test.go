package llm_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// BenchmarkStream measures the client's cost per streamed token, SSE bytes in
// to onDelta out, against a local server that writes and flushes one
// OpenAI-shaped chunk per token (the server's cost is included).
func BenchmarkStream(b *testing.B) {
	const tokens = 1000
	words := strings.Fields("The quick brown fox jumps over the lazy dog while Airlock streams every token to the screen")
	build := func(first string) []byte {
		var sb strings.Builder
		sb.WriteString(roleChunk)
		for i := range tokens {
			tok := " " + words[i%len(words)]
			if i == 0 {
				tok = first
			}
			c, _ := json.Marshal(tok)
			// The shape OpenAI sends, fingerprint and logprobs included.
			sb.WriteString(`data: {"id":"chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012","object":"chat.completion.chunk","created":1735689600,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_0ba0d124f1","choices":[{"index":0,"delta":{"content":` + string(c) + `},"logprobs":null,"finish_reason":null}],"usage":null}` + "\n\n")
		}
		sb.WriteString(stopChunk + usageChunk + doneEvent)
		return []byte(sb.String())
	}
	for _, bc := range []struct{ name, first string }{
		{"text", "Hello"},
		{"think-tags", "<think>"}, // the rest of the answer streams as reasoning
	} {
		b.Run(bc.name, func(b *testing.B) {
			events := strings.SplitAfter(string(build(bc.first)), "\n\n")
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				f := w.(http.Flusher)
				for _, e := range events {
					_, _ = io.WriteString(w, e)
					f.Flush()
				}
			}))
			defer srv.Close()
			c := llm.New(llm.Config{BaseURL: srv.URL, Model: "gpt-4o-mini"})
			req := llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "hi"}}}
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				_, err := c.Stream(b.Context(), req, func(d llm.Delta) { n += len(d.Text) + len(d.Reasoning) })
				if err != nil || n < tokens*3 {
					b.Fatalf("err %v, %d bytes", err, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tokens), "ns/token")
		})
	}
}
