package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/store"
)

// BenchmarkTurnPerToken measures the backend's whole cost per streamed token:
// SSE bytes from a real HTTP server → go-openai decode → think splitter →
// engine accumulation and periodic persistence → coalesced events, each
// JSON-marshalled as the Wails runtime does.
func BenchmarkTurnPerToken(b *testing.B) {
	const tokens = 2000
	var body strings.Builder
	body.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}` + "\n\n")
	for i := 0; i < tokens; i++ {
		fmt.Fprintf(&body, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"tok%d "},"finish_reason":null}]}`+"\n\n", i%100)
	}
	body.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n")
	body.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2000,"total_tokens":2005}}` + "\n\ndata: [DONE]\n\n")
	payload := []byte(body.String())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(payload)
	}))
	defer srv.Close()

	st, err := store.Open(b.TempDir() + "/bench.db")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var events atomic.Int64
	ends := make(chan struct{}, 1)
	client := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "m"})
	eng := New(Deps{Store: st, Connect: func(context.Context, chat.Chat) (chat.Provider, Model, error) {
		return chat.Provider{Model: "m"}, client, nil
	}, Emit: func(name string, p any) {
		_, _ = json.Marshal(p)
		events.Add(1)
		if name == "stream:end" {
			ends <- struct{}{}
		}
	}})
	ctx := context.Background()
	c, _ := st.CreateChat(ctx, "bench")
	if _, err := eng.Send(ctx, c.ID, "warm up"); err != nil {
		b.Fatal(err)
	}
	<-ends
	events.Store(0)

	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := eng.Send(ctx, c.ID, "go"); err != nil {
			b.Fatal(err)
		}
		<-ends
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tokens)/1000, "µs/token")
	b.ReportMetric(float64(events.Load())/float64(b.N), "events/turn")
}
