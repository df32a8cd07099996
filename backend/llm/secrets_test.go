package llm_test

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"airlock/backend/llm"
)

// The secrets a provider's settings can carry: a password in the base URL,
// a key in its query, the API key itself. None may reach an error's text,
// whatever path produced it (they are stored in messages.error_message and
// exported from there).
const (
	urlPassword = "pw-SECRET-1234"
	queryKey    = "qk-SECRET-5678"
	apiKey      = "sk-SECRET-9012"
)

func secretURL(host string) string {
	return "http://alice:" + urlPassword + "@" + host + "/v1?api_key=" + queryKey + "&api-version=2024-06-01"
}

func assertNoSecrets(t *testing.T, where string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", where)
	}
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: %T %v", where, err, err)
	}
	t.Logf("%s: %s", where, e.Message)
	// Everything someone could print: the message, the server's words, the
	// whole chain with %v and %+v.
	for _, s := range []string{e.Message, e.Said, err.Error(), fmt.Sprintf("%v", e.Err), fmt.Sprintf("%+v", err)} {
		for _, secret := range []string{urlPassword, queryKey, apiKey} {
			if strings.Contains(s, secret) {
				t.Errorf("%s: %q shows the secret %s", where, s, secret)
			}
		}
	}
}

func TestErrorsHideSecrets(t *testing.T) {
	// A 401 whose body echoes the key, a 404 model list, a 500 with the URL.
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.Contains(r.URL.String(), "/models"): // go-openai appends the path after a base URL's query
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"message":"no models at %s"}}`, r.URL.String())
		default:
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s (url %s)"}}`, apiKey, r.URL.String())
		}
	})
	host := strings.TrimPrefix(srv.URL, "http://")
	cfg := llm.Config{BaseURL: secretURL(host), APIKey: apiKey, Model: "m"}

	o := stream(t, cfg, t.Context(), llm.Request{})
	e := wantKind(t, o.err, llm.KindUnauthorized)
	assertNoSecrets(t, "401", o.err)
	if !strings.Contains(e.Message, "Incorrect API key provided") {
		t.Errorf("the server's words are gone: %q", e.Message)
	}

	_, err := llm.New(cfg).ListModels(t.Context())
	assertNoSecrets(t, "404 models", err)
	if !strings.Contains(err.Error(), "alice") || !strings.Contains(err.Error(), host) || !strings.Contains(err.Error(), "api-version=2024-06-01") {
		t.Errorf("the address is no longer recognisable: %q", err)
	}

	// Refused connection, connect timeout, DNS: the URL is printed.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	o = stream(t, llm.Config{BaseURL: secretURL(addr), APIKey: apiKey}, t.Context(), llm.Request{})
	assertNoSecrets(t, "refused", o.err)

	hang := server(t, func(w http.ResponseWriter, r *http.Request) { time.Sleep(300 * time.Millisecond) })
	o = stream(t, llm.Config{BaseURL: secretURL(strings.TrimPrefix(hang.URL, "http://")), APIKey: apiKey,
		ConnectTimeout: 50 * time.Millisecond}, t.Context(), llm.Request{})
	assertNoSecrets(t, "timeout", o.err)

	o = stream(t, llm.Config{BaseURL: "ftp://alice:" + urlPassword + "@x/v1?token=" + queryKey}, t.Context(), llm.Request{})
	assertNoSecrets(t, "bad scheme", o.err)

	// A mid-stream error that quotes the key.
	mid := sseServer(t, `data: {"error":{"message":"key `+apiKey+` over quota"}}`+"\n\n")
	o = stream(t, llm.Config{BaseURL: secretURL(strings.TrimPrefix(mid.URL, "http://")), APIKey: apiKey}, t.Context(), llm.Request{})
	assertNoSecrets(t, "mid-stream", o.err)

	// A chunk that cannot be read, quoted in the message.
	bad := sseServer(t, `data: {"key":"`+apiKey+`"`+"\n\n")
	o = stream(t, llm.Config{BaseURL: secretURL(strings.TrimPrefix(bad.URL, "http://")), APIKey: apiKey}, t.Context(), llm.Request{})
	assertNoSecrets(t, "unreadable chunk", o.err)
}
