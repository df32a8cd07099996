package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// Whether a model takes images, as each server kind says it, read from
// recorded answers (testdata/windows/README.md says where each comes from).
func TestVisionPerServer(t *testing.T) {
	cases := []struct {
		name         string
		routes       map[string]string
		model        string
		sees, source string
	}{
		{"ollama: capabilities hold vision", map[string]string{
			"GET /v1/models": "ollama_tags_v1_models.json", "POST /api/show": "ollama_show_vision.json"},
			"gemma3:4b", VisionYes, visionOllama},
		{"ollama: capabilities without vision", map[string]string{
			"GET /v1/models": "ollama_tags_v1_models.json", "POST /api/show": "ollama_show.json"},
			"llama3.2", VisionNo, visionOllama},
		{"lm studio 0.4: capabilities.vision true", map[string]string{"GET /api/v1/models": "lmstudio_v1_models_vision.json"},
			"google/gemma-3-4b", VisionYes, visionLMStudio},
		{"lm studio 0.4: a loaded instance without vision", map[string]string{"GET /api/v1/models": "lmstudio_v1_models_vision.json"},
			"qwen/qwen3.5-9b", VisionNo, visionLMStudio},
		{"lm studio 0.3: type vlm", map[string]string{"GET /api/v0/models": "lmstudio_v0_models.json"},
			"qwen2-vl-7b-instruct", VisionYes, visionLMStudio},
		{"lm studio 0.3: type llm", map[string]string{"GET /api/v0/models": "lmstudio_v0_models.json"},
			"meta-llama-3.1-8b-instruct", VisionNo, visionLMStudio},
		{"openrouter: input_modalities hold image", map[string]string{"GET /v1/models": "openrouter_models.json"},
			"anthropic/claude-opus-5", VisionYes, visionOpenRouter},
		{"openrouter: text only", map[string]string{"GET /v1/models": "openrouter_models_text.json"},
			"deepseek/deepseek-chat-v3.1", VisionNo, visionOpenRouter},
		{"llama.cpp: no projector loaded", map[string]string{"GET /v1/models": "llamacpp_models.json", "GET /props": "llamacpp_props.json"},
			"unsloth/gemma-4-E2B-it-GGUF:Q4_K_M", VisionNo, visionLlamaCpp},
		{"vllm says nothing", map[string]string{"GET /v1/models": "vllm_models.json"},
			"meta-llama/Llama-3.1-8B-Instruct", "", ""},
		{"a model the server does not list", map[string]string{"GET /api/v0/models": "lmstudio_v0_models.json"},
			"other-model", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, tc.routes)
			sees, source, err := New(Config{BaseURL: srv.URL + "/v1", APIKey: "sk-test-key", Model: tc.model}).Vision(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if sees != tc.sees || source != tc.source {
				t.Errorf("Vision = %q from %q, want %q from %q (asked %v)", sees, source, tc.sees, tc.source, srv.asked)
			}
		})
	}
}

// A server that does not answer is not known, with ErrUnreachable: never
// "no".
func TestVisionUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	sees, _, err := New(Config{BaseURL: url + "/v1", Model: "llava"}).Vision(context.Background())
	if !errors.Is(err, ErrUnreachable) || sees != "" {
		t.Fatalf("Vision = %q, %v; want \"\" and ErrUnreachable", sees, err)
	}
}

// The cache answers at once (a send never waits), asks once per key at a
// time, keeps an answer VisionTTL, and takes a failure as not known.
func TestVisionCache(t *testing.T) {
	now := time.Unix(1000, 0)
	c := &VisionCache{Now: func() time.Time { return now }}
	release := make(chan struct{})
	var asks atomic.Int32
	answer := VisionYes
	var fail atomic.Bool
	ask := func(context.Context) (string, string, error) {
		asks.Add(1)
		<-release
		if fail.Load() {
			return "", "", ErrUnreachable
		}
		return answer, "server:test", nil
	}
	if sees, _ := c.Known("k", ask); sees != "" {
		t.Fatalf("first Known = %q, want \"\" without waiting", sees)
	}
	if sees, _ := c.Known("k", ask); sees != "" {
		t.Fatalf("second Known = %q, want \"\" while the ask is in flight", sees)
	}
	close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if sees, src := c.Wait(ctx, "k", ask); sees != VisionYes || src != "server:test" || asks.Load() != 1 {
		t.Fatalf("Wait = %q from %q after %d asks, want yes from server:test after one", sees, src, asks.Load())
	}
	if sees, _ := c.Known("k", ask); sees != VisionYes || asks.Load() != 1 {
		t.Fatalf("Known = %q after %d asks; want the kept yes and no new ask", sees, asks.Load())
	}
	// Expired: asked again; this time the server cannot be reached.
	now = now.Add(VisionTTL + time.Second)
	fail.Store(true)
	if sees, _ := c.Wait(ctx, "k", ask); sees != "" || asks.Load() != 2 {
		t.Fatalf("Wait after a failed ask = %q after %d asks; want \"\" (not known) and a second ask", sees, asks.Load())
	}
	// Another key is its own.
	fail.Store(false)
	answer = VisionNo
	if sees, _ := c.Wait(ctx, "other", ask); sees != VisionNo {
		t.Fatalf("other key = %q, want no", sees)
	}
}
