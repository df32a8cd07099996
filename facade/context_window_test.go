package facade

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// TestModelWindowFacade: a vLLM-like server states the window; the facade
// discovers it once and keeps it, the user's setting wins and survives, the
// answer budget goes out with the next turn's request, and Re-detect forgets
// what an overflow taught.
func TestModelWindowFacade(t *testing.T) {
	var mu sync.Mutex
	lists, bodies := 0, []map[string]any{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/v1/models":
			lists++
			w.Write([]byte(`{"object":"list","data":[{"id":"qwen","object":"model","owned_by":"vllm","max_model_len":8192}]}`))
		case "/v1/chat/completions":
			var b map[string]any
			data, _ := io.ReadAll(r.Body)
			json.Unmarshal(data, &b)
			bodies = append(bodies, b)
			answerOK(w)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	a := testApp(t)
	p, err := a.SaveProvider(chat.Provider{Name: "vllm", BaseURL: srv.URL + "/v1", Model: "qwen"})
	if err != nil {
		t.Fatal(err)
	}
	info, err := a.ModelWindow(p.ID, "")
	if err != nil || info.Tokens != 8192 || info.Source != "server:vllm" {
		t.Fatalf("first read: %+v %v", info, err)
	}
	if info, _ = a.ModelWindow(p.ID, ""); lists != 1 || info.Tokens != 8192 {
		t.Fatalf("second read asked the server again (%d) or lost it: %+v", lists, info)
	}
	if _, err := a.SetModelWindow(p.ID, "", 4096, 8192); err == nil {
		t.Fatal("an answer budget larger than the window was accepted")
	}
	if info, err = a.SetModelWindow(p.ID, "", 6000, 1024); err != nil || info.Tokens != 6000 || info.Source != "user" {
		t.Fatalf("set: %+v %v", info, err)
	}

	// The next turn's request carries the budget.
	s, _ := a.store.GetSettings(a.ctx)
	s.ActiveProviderID = p.ID
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	streamTurn(t, a)
	if len(bodies) != 1 || bodies[0]["max_tokens"] != float64(1024) {
		t.Fatalf("request: %+v", bodies)
	}

	// What an overflow taught goes with Re-detect; the user's setting stays.
	a.store.LearnModelWindow(a.ctx, p.ID, "qwen", 5000, "maximum context length is 5000 tokens")
	if info, err = a.DetectModelWindow(p.ID, ""); err != nil || info.Learned != 0 || lists != 2 || info.UserWindow != 6000 {
		t.Fatalf("re-detect: %+v %v", info, err)
	}
	if _, err := a.ModelWindow("no-such-provider", ""); err == nil || !strings.Contains(strings.ToLower(err.Error()), "not found") {
		t.Fatalf("unknown provider: %v", err)
	}
}

// TestTurnAsksUntilLoaded: before its first turn the model's window is
// known (the engine reads it from the store); Ollama says the window a model
// runs with only once it is loaded, so turns ask again until it has.
func TestTurnAsksUntilLoaded(t *testing.T) {
	var mu sync.Mutex
	loaded, shows := false, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/v1/models":
			w.Write([]byte(`{"object":"list","data":[{"id":"qwen3:8b","object":"model","owned_by":"library"}]}`))
		case "/api/show":
			shows++
			w.Write([]byte(`{"parameters":"stop \"<|im_end|>\"","model_info":{"general.architecture":"qwen3","qwen3.context_length":40960}}`))
		case "/api/ps":
			if loaded {
				w.Write([]byte(`{"models":[{"name":"qwen3:8b","model":"qwen3:8b","context_length":8192}]}`))
			} else {
				w.Write([]byte(`{"models":[]}`))
			}
		case "/v1/chat/completions":
			loaded = true
			answerOK(w)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	a := testApp(t)
	p, _ := a.SaveProvider(chat.Provider{Name: "ollama", BaseURL: srv.URL + "/v1", Model: "qwen3:8b"})
	s, _ := a.store.GetSettings(a.ctx)
	s.ActiveProviderID = p.ID
	a.SaveSettings(s)

	turn := func() chat.ModelWindow {
		t.Helper()
		streamTurn(t, a)
		m, _ := a.store.GetModelWindow(a.ctx, p.ID, "qwen3:8b")
		return m
	}
	if m := turn(); m.Discovered.Tokens != 4096 || m.Discovered.Loaded != 0 || m.Discovered.ModelMax != 40960 {
		t.Fatalf("first turn, not loaded: %+v", m.Discovered)
	}
	if m := turn(); m.Discovered.Tokens != 8192 || m.Discovered.Loaded != 8192 || !strings.Contains(m.Discovered.Note, "OLLAMA_CONTEXT_LENGTH") {
		t.Fatalf("second turn, loaded: %+v", m.Discovered)
	}
	turn()
	if shows != 2 {
		t.Fatalf("asked /api/show %d times; once loaded, turns must stop asking", shows)
	}
}

// answerOK streams a one-word answer as an OpenAI server does.
func answerOK(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Write([]byte("data: {\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"))
}

// streamTurn sends one request as a turn does: through the engine's
// Connector, to the active provider.
func streamTurn(t *testing.T, a *App) {
	t.Helper()
	_, model, err := a.connect(a.ctx, chat.Chat{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.Stream(a.ctx, llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "hi"}}}, func(llm.Delta) {}); err != nil {
		t.Fatal(err)
	}
}

// TestModelWindowUnreachable: a provider whose server is down shows the
// table's figure and why, and keeps nothing, so the next turn asks again.
func TestModelWindowUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	a := testApp(t)
	p, _ := a.SaveProvider(chat.Provider{Name: "down", BaseURL: url + "/v1", Model: "deepseek-chat"})
	info, err := a.ModelWindow(p.ID, "")
	if err != nil || !info.Unreachable || info.Tokens != 131072 || info.Source != "table" || !strings.Contains(info.Discovered.Note, "could not reach") {
		t.Fatalf("%+v %v", info, err)
	}
	if m, _ := a.store.GetModelWindow(a.ctx, p.ID, "deepseek-chat"); m.DiscoveredAt != 0 || !needsDiscovery(m) {
		t.Fatalf("an unreachable server's silence was kept: %+v", m)
	}
}
