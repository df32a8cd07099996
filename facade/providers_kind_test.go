package facade

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/demomodel"
	"airlock/backend/llm"
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

// The demo speaks both wires: switching its kind in Settings makes the next
// answer go to /v1/messages, and the switch survives a restart (the store).
func TestDemoProviderKindSwitches(t *testing.T) {
	a := testApp(t)
	var paths []string
	demo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		demomodel.New(demomodel.Options{}).ServeHTTP(w, r)
	}))
	t.Cleanup(demo.Close)
	a.demoURL = demo.URL + "/v1"
	ps, err := a.ListProviders()
	if err != nil || ps[0].ID != chat.DemoProviderID {
		t.Fatalf("providers %+v %v", ps, err)
	}
	d := ps[0]
	d.Kind = chat.APIAnthropic
	if saved, err := a.SaveProvider(d); err != nil || saved.Kind != chat.APIAnthropic || saved.BaseURL != a.demoURL {
		t.Fatalf("saved %+v %v", saved, err)
	}
	p, model, err := a.connect(a.ctx, chat.Chat{}) // a chat with no provider of its own: the active one
	if err != nil || p.APIKind() != chat.APIAnthropic {
		t.Fatalf("connect %+v %v", p, err)
	}
	var text strings.Builder
	if _, err := model.Stream(a.ctx, llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "hello"}}}, func(d llm.Delta) { text.WriteString(d.Text) }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "demo") || paths[len(paths)-1] != "/v1/messages" {
		t.Fatalf("text %q paths %q", text.String(), paths)
	}
	if got, _ := a.store.GetProvider(a.ctx, chat.DemoProviderID); got.Kind != chat.APIAnthropic {
		t.Fatalf("stored %+v", got)
	}
}
