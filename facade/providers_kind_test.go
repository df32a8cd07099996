package facade

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/demomodel"
)

func TestEnvKind(t *testing.T) {
	for v, want := range map[string]string{"": chat.APIOpenAI, "openai": chat.APIOpenAI, " Anthropic ": chat.APIAnthropic, "claude": chat.APIOpenAI} {
		kind, name := envKind(v)
		if kind != want || !strings.HasPrefix(name, "Environment (AIRLOCK_BASE_URL") {
			t.Errorf("%q: %s %q", v, kind, name)
		}
	}
	if _, name := envKind("claude"); !strings.Contains(name, `"claude" is neither openai nor anthropic`) {
		t.Errorf("an unknown kind is not said: %q", name)
	}
	t.Setenv("AIRLOCK_BASE_URL", "http://127.0.0.1:1/anthropic")
	t.Setenv("AIRLOCK_API_KIND", "anthropic")
	if p := EnvProvider(); p == nil || p.APIKind() != chat.APIAnthropic {
		t.Fatalf("env provider %+v", p)
	}
}

// Test connection on the Anthropic kind: the model list where there is one
// (the demo's), a one-word request where /v1/models is missing.
func TestTestConnectionAnthropic(t *testing.T) {
	a := testApp(t)
	demo := httptest.NewServer(demomodel.New(demomodel.Options{APIKey: "sk-x"}))
	t.Cleanup(demo.Close)
	p := chat.Provider{Name: "d", Kind: chat.APIAnthropic, BaseURL: demo.URL, APIKey: "sk-x", Model: demomodel.DefaultModel}
	if said, err := a.TestConnection(p); err != nil || !strings.Contains(said, "including "+demomodel.DefaultModel) {
		t.Fatalf("with a list: %q %v", said, err)
	}

	noList := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			http.NotFound(w, r)
			return
		}
		demomodel.New(demomodel.Options{APIKey: "sk-x"}).ServeHTTP(w, r)
	}))
	t.Cleanup(noList.Close)
	p.BaseURL = noList.URL
	if said, err := a.TestConnection(p); err != nil || !strings.Contains(said, "does not list its models") {
		t.Fatalf("without a list: %q %v", said, err)
	}
	p.APIKey = "wrong"
	if _, err := a.TestConnection(p); err == nil || !isCode(err, "unauthorized") {
		t.Fatalf("a wrong key: %v", err)
	}
	p.APIKey, p.Model = "sk-x", ""
	if _, err := a.TestConnection(p); err == nil || !strings.Contains(err.Error(), "does not list its models") {
		t.Fatalf("no list, no model: %v", err)
	}
}
