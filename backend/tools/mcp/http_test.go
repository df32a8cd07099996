package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer serves the test server over Streamable HTTP and SSE on
// loopback, refusing requests without the expected key.
func httpServer(t *testing.T, key string) *httptest.Server {
	ts := newTestServer(t, false)
	get := func(*http.Request) *sdk.Server { return ts.srv }
	streamable := sdk.NewStreamableHTTPHandler(get, nil)
	sse := sdk.NewSSEHandler(get, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			http.Error(w, "bad key", http.StatusUnauthorized)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/sse") {
			sse.ServeHTTP(w, r)
			return
		}
		streamable.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs
}

func TestHTTPTransportsSendHeaders(t *testing.T) {
	const key = "key-0123456789"
	hs := httpServer(t, key)
	auth := map[string]string{"Authorization": "Bearer " + key}
	m := NewManager(Options{StopGrace: 200 * time.Millisecond})
	defer m.Close()
	err := m.Configure([]ServerConfig{
		{Name: "streamable", Enabled: true, URL: hs.URL + "/mcp", Headers: auth},
		{Name: "legacy-sse", Enabled: true, URL: hs.URL + "/sse", Transport: TransportSSE, Headers: auth},
		{Name: "wrong-key", Enabled: true, URL: hs.URL + "/mcp?token=url-secret-99", Headers: map[string]string{"Authorization": "Bearer nope-0123456"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"streamable", "legacy-sse"} {
		st, _ := m.ServerStatus(name)
		if st.State != StateReady {
			t.Fatalf("%s: %+v", name, st)
		}
		out, err := run(t, toolNamed(t, m, "mcp__"+name+"__echo"), `{"text":"over http"}`)
		if err != nil || out.Text != "echo: over http" {
			t.Errorf("%s echo = %+v, %v", name, out, err)
		}
	}
	st, _ := m.ServerStatus("wrong-key")
	if st.State != StateFailed || st.Reason == "" {
		t.Errorf("wrong key: %+v", st)
	}
	for _, secret := range []string{"nope-0123456", "url-secret-99"} {
		if strings.Contains(st.Reason, secret) || strings.Contains(st.Config.URL, secret) {
			t.Errorf("the status shows %q: %+v", secret, st)
		}
	}
}
