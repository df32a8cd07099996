package llm

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Local servers say their windows on their own endpoints, next to the
// OpenAI ones.

const (
	sourceOllama   = "server:ollama"
	sourceLMStudio = "server:lmstudio"
)

// assumedLocalWindow is the window Ollama and LM Studio give a model they
// load without being told (Ollama: 4096 below 24 GiB of VRAM, unless
// OLLAMA_CONTEXT_LENGTH says otherwise; LM Studio: its default context
// length). Until the model is loaded and the server says, Airlock fits
// requests to it: a smaller guess costs an early compaction, a larger one
// a silently cut conversation.
const assumedLocalWindow = 4096

const ollamaRaise = "To raise it, set OLLAMA_CONTEXT_LENGTH where Ollama runs (e.g. OLLAMA_CONTEXT_LENGTH=32768 ollama serve), " +
	"move the context length slider in the Ollama app, or add PARAMETER num_ctx 32768 to the model's Modelfile; then reload the model " +
	"and press Re-detect."

// ollama reads /api/show (the model's length, and num_ctx if its Modelfile
// sets one) and /api/ps (the window a loaded model runs with). The model
// goes as "model" and as "name" (Ollama before 0.2 read only "name").
// llama-server also answers /api/show, so it is asked first (fromServer).
func (c *Client) ollama(ctx context.Context, model string) (Window, bool) {
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	if c.probe(ctx, "POST", c.root()+"/api/show", map[string]string{"model": model, "name": model}, maxProbeBody, &show) != nil || show.ModelInfo == nil {
		return Window{}, false
	}
	w := Window{Source: sourceOllama}
	for k, v := range show.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			if n, ok := v.(float64); ok {
				w.ModelMax = positive(int(n))
			}
		}
	}
	numCtx := 0
	for _, line := range strings.Split(show.Parameters, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "num_ctx" {
			numCtx, _ = strconv.Atoi(f[1])
			numCtx = positive(numCtx)
		}
	}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if c.probe(ctx, "GET", c.root()+"/api/ps", nil, maxProbeBody, &ps) == nil {
		for _, m := range ps.Models {
			if sameOllamaModel(m.Name, model) || sameOllamaModel(m.Model, model) {
				w.Loaded = positive(m.ContextLength)
			}
		}
	}
	if w.Loaded > 0 {
		return runsWith(w, "Ollama", model, ollamaRaise), true
	}
	// Not loaded (or an Ollama too old to say): it will run with num_ctx
	// if the Modelfile sets one, else with the server's default.
	switch {
	case numCtx > 0:
		w.Tokens = numCtx
	case w.ModelMax > 0:
		w.Tokens = min(w.ModelMax, assumedLocalWindow)
		w.Note = fmt.Sprintf("%s is not loaded, so Ollama has not said the window it will run it with; Airlock assumes Ollama's default "+
			"of %d tokens until it does, and asks again with the next answer.", model, w.Tokens)
	default:
		w.Tokens = assumedLocalWindow
	}
	return w, true
}

// sameOllamaModel compares names as Ollama does: "qwen3" is "qwen3:latest".
func sameOllamaModel(a, b string) bool {
	tag := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return a != "" && tag(a) == tag(b)
}

// lmStudio reads LM Studio's REST model list: /api/v1/models (0.4 and
// later: loaded_instances[].config.context_length) or /api/v0/models/{id}
// (0.3.6 and later: max_context_length, loaded_context_length).
func (c *Client) lmStudio(ctx context.Context, model string) (Window, bool) {
	raise := "To raise it, load the model with a larger Context Length in LM Studio (My Models → the model's settings, or lms load --context-length), then press Re-detect."
	var v1 struct {
		Models []struct {
			Key              string `json:"key"`
			MaxContextLength int    `json:"max_context_length"`
			LoadedInstances  []struct {
				ID     string `json:"id"`
				Config struct {
					ContextLength int `json:"context_length"`
				} `json:"config"`
			} `json:"loaded_instances"`
		} `json:"models"`
	}
	if c.probe(ctx, "GET", c.root()+"/api/v1/models", nil, maxProbeBody, &v1) == nil && len(v1.Models) > 0 {
		for _, m := range v1.Models {
			w := Window{ModelMax: positive(m.MaxContextLength), Source: sourceLMStudio}
			match := m.Key == model
			for _, inst := range m.LoadedInstances {
				if inst.ID == model || match {
					w.Loaded, match = positive(inst.Config.ContextLength), true
					break
				}
			}
			if match {
				return c.lmStudioWindow(w, model, raise), true
			}
		}
	}
	var v0 struct {
		ID                  string `json:"id"`
		State               string `json:"state"`
		MaxContextLength    int    `json:"max_context_length"`
		LoadedContextLength int    `json:"loaded_context_length"`
	}
	if c.probe(ctx, "GET", c.root()+"/api/v0/models/"+url.PathEscape(model), nil, maxProbeBody, &v0) != nil || v0.MaxContextLength == 0 {
		return Window{}, false
	}
	w := Window{ModelMax: positive(v0.MaxContextLength), Loaded: positive(v0.LoadedContextLength), Source: sourceLMStudio}
	return c.lmStudioWindow(w, model, raise), true
}

func (c *Client) lmStudioWindow(w Window, model, raise string) Window {
	if w.Loaded > 0 {
		return runsWith(w, "LM Studio", model, raise)
	}
	w.Tokens = assumedLocalWindow
	if w.ModelMax > 0 {
		w.Tokens = min(w.ModelMax, assumedLocalWindow)
	}
	w.Note = fmt.Sprintf("%s is not loaded, so LM Studio has not said the window it will load it with; Airlock assumes %d tokens until it does, "+
		"and asks again with the next answer.", model, w.Tokens)
	return w
}

// llamaCpp reads /props: default_generation_settings.n_ctx is the window of
// one slot, what a request may use; the list's n_ctx_train (in entry) is
// the model's own.
func (c *Client) llamaCpp(ctx context.Context, entry listModel) (Window, bool) {
	w := Window{Source: sourceLlamaCpp}
	if entry.Meta != nil {
		w.ModelMax, w.Loaded = positive(entry.Meta.NCtxTrain), positive(entry.Meta.NCtx)
	}
	var props struct {
		Settings *struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if c.probe(ctx, "GET", c.root()+"/props", nil, maxProbeBody, &props) == nil && props.Settings != nil {
		if n := positive(props.Settings.NCtx); n > 0 {
			w.Loaded = n
		}
	}
	if w.Loaded == 0 && w.ModelMax == 0 {
		return Window{}, false
	}
	name := entry.ID
	if name == "" {
		name = c.cfg.Model
	}
	return runsWith(w, "llama-server", name, "To raise it, start llama-server with a larger --ctx-size (-c), and mind that --parallel divides it among the slots; then press Re-detect."), true
}
