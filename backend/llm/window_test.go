package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServer answers the paths it is given with recorded bodies from
// testdata/windows and 404 elsewhere, and remembers what was asked.
type fakeServer struct {
	*httptest.Server
	mu    sync.Mutex
	asked []string
	auth  []string
}

func serve(t *testing.T, routes map[string]string) *fakeServer {
	t.Helper()
	f := &fakeServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.asked = append(f.asked, r.Method+" "+r.URL.Path)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		file, ok := routes[r.Method+" "+r.URL.Path]
		if !ok {
			http.Error(w, `{"error":"404 page not found"}`, http.StatusNotFound)
			return
		}
		body, err := os.ReadFile(filepath.Join("testdata", "windows", file))
		if err != nil {
			t.Errorf("testdata: %v", err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) window(t *testing.T, model string) Window {
	t.Helper()
	w, err := New(Config{BaseURL: f.URL + "/v1", APIKey: "sk-test-key", Model: model}).Window(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWindowPerServer(t *testing.T) {
	cases := []struct {
		name   string
		routes map[string]string
		model  string
		want   Window
		note   string // a part of the note, "" = no note
	}{
		{"ollama, loaded with less than the model takes", map[string]string{
			"GET /v1/models": "ollama_tags_v1_models.json", "POST /api/show": "ollama_show.json", "GET /api/ps": "ollama_ps.json"},
			"llama3.2", Window{Tokens: 4096, ModelMax: 131072, Loaded: 4096, Source: sourceOllama}, "OLLAMA_CONTEXT_LENGTH"},
		{"ollama, not loaded", map[string]string{
			"GET /v1/models": "ollama_tags_v1_models.json", "POST /api/show": "ollama_show.json"},
			"llama3.2", Window{Tokens: 4096, ModelMax: 131072, Source: sourceOllama}, "not loaded"},
		{"lm studio 0.4, loaded with less", map[string]string{"GET /api/v1/models": "lmstudio_v1_models.json"},
			"gemma-3-270m-it-qat", Window{Tokens: 4096, ModelMax: 32768, Loaded: 4096, Source: sourceLMStudio}, "larger Context Length"},
		{"lm studio 0.3 REST v0", map[string]string{"GET /api/v0/models/meta-llama-3.1-8b-instruct": "lmstudio_v0_model.json"},
			"meta-llama-3.1-8b-instruct", Window{Tokens: 8192, ModelMax: 131072, Loaded: 8192, Source: sourceLMStudio}, "LM Studio runs"},
		{"vllm", map[string]string{"GET /v1/models": "vllm_models.json"},
			"meta-llama/Llama-3.1-8B-Instruct", Window{Tokens: 8192, ModelMax: 8192, Source: sourceVLLM}, ""},
		{"llama.cpp: the slot's window, not the training one", map[string]string{"GET /v1/models": "llamacpp_models.json", "GET /props": "llamacpp_props.json"},
			"unsloth/gemma-4-E2B-it-GGUF:Q4_K_M", Window{Tokens: 8192, ModelMax: 131072, Loaded: 8192, Source: sourceLlamaCpp}, "--ctx-size"},
		{"openrouter: the top provider's window", map[string]string{"GET /v1/models": "openrouter_models.json"},
			"anthropic/claude-opus-5", Window{Tokens: 200000, ModelMax: 1000000, MaxOutput: 64000, Source: sourceOpenRouter}, ""},
		{"groq's list", map[string]string{"GET /v1/models": "groq_models.json"},
			"llama-3.3-70b-versatile", Window{Tokens: 131072, ModelMax: 131072, MaxOutput: 32768, Source: sourceList}, ""},
		{"a server that says nothing: the table", map[string]string{"GET /v1/models": "ollama_tags_v1_models.json"},
			"gpt-4o-2024-08-06", Window{Tokens: 128000, ModelMax: 128000, MaxOutput: 16384, Source: "table"}, ""},
		{"nothing known", map[string]string{},
			"mystery-model", Window{}, "Settings"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := serve(t, c.routes)
			got := f.window(t, c.model)
			note := got.Note
			got.Note = ""
			if got != c.want {
				t.Fatalf("got %+v, want %+v (asked %v)", got, c.want, f.asked)
			}
			if c.note == "" && note != "" || !strings.Contains(note, c.note) {
				t.Fatalf("note %q, want one with %q", note, c.note)
			}
			for _, a := range f.auth {
				if a != "Bearer sk-test-key" {
					t.Fatalf("a probe went without the key: %q", a)
				}
			}
		})
	}
}

// TestWindowStopsAtTheFirstAnswer: a server whose list says the window is
// not probed further (no local endpoints asked of vLLM).
func TestWindowStopsAtTheFirstAnswer(t *testing.T) {
	f := serve(t, map[string]string{"GET /v1/models": "vllm_models.json"})
	f.window(t, "meta-llama/Llama-3.1-8B-Instruct")
	if len(f.asked) != 1 {
		t.Fatalf("asked %v", f.asked)
	}
}

// TestWindowBounded: a server that never answers, or answers without end,
// costs at most the probe timeouts, and the table still answers.
func TestWindowBounded(t *testing.T) {
	defer func(p, d time.Duration, b int64) { ProbeTimeout, DiscoverTimeout, maxListBody = p, d, b }(ProbeTimeout, DiscoverTimeout, maxListBody)
	ProbeTimeout, DiscoverTimeout, maxListBody = 100*time.Millisecond, time.Second, 1<<10
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" { // a list far over the cap
			w.Write([]byte(`{"data":[{"id":"qwen3:8b","max_model_len":999999}` + strings.Repeat(" ", 4<<10) + `]}`))
			return
		}
		select { // hangs
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	start := time.Now()
	w, err := New(Config{BaseURL: srv.URL + "/v1", Model: "qwen3:8b"}).Window(context.Background())
	if err != nil || w.Source != "table" || w.Tokens != 40960 {
		t.Fatalf("got %+v %v", w, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %s", d)
	}
}

// TestWindowKeepsSecrets: nothing discovery says carries the key or a
// password in the URL.
func TestWindowKeepsSecrets(t *testing.T) {
	f := serve(t, map[string]string{})
	u := strings.Replace(f.URL, "http://", "http://alice:hunter2pass@", 1) + "/v1?key=qsecret99"
	w, err := New(Config{BaseURL: u, APIKey: "sk-live-abcdef", Model: "mystery"}).Window(context.Background())
	if err != nil || w.Note == "" {
		t.Fatalf("%+v %v", w, err)
	}
	for _, s := range []string{"hunter2pass", "sk-live-abcdef", "qsecret99"} {
		if strings.Contains(w.Note, s) {
			t.Fatalf("note leaks %s: %s", s, w.Note)
		}
	}
}

func TestTableWindow(t *testing.T) {
	cases := map[string]int{
		"gpt-4o": 128000, "gpt-4o-mini": 128000, "gpt-4.1-mini": 1047576, "gpt-4": 8192, "gpt-5-mini": 400000,
		"o3-mini": 200000, "deepseek-chat": 131072, "openai/gpt-4o": 128000, "anthropic/claude-sonnet-4.5": 200000,
		"models/gemini-2.5-pro": 1048576, "llama3.1:8b": 131072, "llama3:8b": 8192, "llama-3.3-70b-versatile": 131072,
		"qwen2.5-coder:7b": 32768, "Qwen3-Coder-480B": 262144, "mistral-large-latest": 131072, "glm-4.6": 200000,
		"kimi-k2-0905-preview": 131072, "MiniMax-M2": 204800,
	}
	for model, want := range cases {
		if w, ok := TableWindow(model); !ok || w.Tokens != want || w.Source != "table" {
			t.Errorf("%s: %+v %v, want %d", model, w, ok, want)
		}
	}
	if _, ok := TableWindow("my-finetune"); ok {
		t.Error("an unknown model found in the table")
	}
}

// TestWindowNotFooledByOtherEndpoints: LM Studio answers endpoints it lacks
// with 200 and an error body, and llama-server answers Ollama's /api/show;
// neither is taken for another kind of server.
func TestWindowNotFooledByOtherEndpoints(t *testing.T) {
	lmBody, _ := os.ReadFile(filepath.Join("testdata", "windows", "lmstudio_v0_model.json"))
	lm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v0/models/meta-llama-3.1-8b-instruct" {
			w.Write(lmBody)
			return
		}
		w.Write([]byte(`{"error":"Unexpected endpoint or method. (` + r.Method + " " + r.URL.Path + `)"}`))
	}))
	defer lm.Close()
	w, _ := New(Config{BaseURL: lm.URL + "/v1", Model: "meta-llama-3.1-8b-instruct"}).Window(context.Background())
	if w.Source != sourceLMStudio || w.Tokens != 8192 {
		t.Fatalf("lm studio: %+v", w)
	}

	list, _ := os.ReadFile(filepath.Join("testdata", "windows", "llamacpp_models.json"))
	props, _ := os.ReadFile(filepath.Join("testdata", "windows", "llamacpp_props.json"))
	lc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			w.Write(list)
		case "/props":
			w.Write(props)
		case "/api/show": // llama-server's Ollama-compatible answer: the training length
			w.Write([]byte(`{"model_info":{"llama.context_length":131072},"parameters":""}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer lc.Close()
	w, _ = New(Config{BaseURL: lc.URL + "/v1", Model: "unsloth/gemma-4-E2B-it-GGUF:Q4_K_M"}).Window(context.Background())
	if w.Source != sourceLlamaCpp || w.Tokens != 8192 {
		t.Fatalf("llama.cpp: %+v", w)
	}
}

// TestWindowUnreachable: a server that does not answer is not taken at its
// silence: the table's figure comes with ErrUnreachable and a note.
func TestWindowUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	w, err := New(Config{BaseURL: url + "/v1", Model: "gpt-4o"}).Window(context.Background())
	if !errors.Is(err, ErrUnreachable) || w.Source != "table" || w.Tokens != 128000 || !strings.Contains(w.Note, "could not reach") {
		t.Fatalf("%+v %v", w, err)
	}
	w, err = New(Config{BaseURL: url + "/v1", Model: "mystery"}).Window(context.Background())
	if !errors.Is(err, ErrUnreachable) || w.Tokens != 0 || w.Note == "" {
		t.Fatalf("%+v %v", w, err)
	}
}
