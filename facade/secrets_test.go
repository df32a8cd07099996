package facade

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/export"
	"airlock/backend/store"
)

// A provider whose URL carries a password and a key, and whose 401 echoes
// the API key: the failed answer's stored error and every export of the
// chat show none of them.
func TestProviderSecretsStayOutOfStoredErrorsAndExports(t *testing.T) {
	const pw, qk, key = "pw-SECRET-1", "qk-SECRET-2", "sk-SECRET-3"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s for %s"}}`, key, r.URL)
	}))
	defer srv.Close()
	base := "http://bob:" + pw + "@" + strings.TrimPrefix(srv.URL, "http://") + "/v1?api_key=" + qk

	dir := t.TempDir()
	st, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := NewApp(st, dir, "", &chat.Provider{ID: chat.EnvProviderID, Name: "env", BaseURL: base, APIKey: key, Model: "m"}, nil)
	a.ctx = context.Background()
	t.Cleanup(func() { a.shutdown(a.ctx); st.Close() })

	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Send(c.ID, "hello"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(a.ActiveStreams()) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the answer never ended")
		}
	}
	ms, err := a.ListMessages(c.ID)
	if err != nil || len(ms) != 2 || ms[1].Status != chat.StatusError {
		t.Fatalf("messages: %+v %v", ms, err)
	}
	stored := ms[1].ErrorMessage
	if !strings.Contains(stored, "Incorrect API key provided") {
		t.Errorf("stored error lost the server's words: %q", stored)
	}
	check := func(where, s string) {
		t.Helper()
		for _, secret := range []string{pw, qk, key} {
			if strings.Contains(s, secret) {
				t.Errorf("%s shows %s: %s", where, secret, s)
			}
		}
	}
	check("stored error", stored)
	b, err := export.Build(a.ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "md", "html"} {
		var buf bytes.Buffer
		if err := export.Write(&buf, b, format); err != nil {
			t.Fatal(err)
		}
		check(format+" export", buf.String())
	}
}
