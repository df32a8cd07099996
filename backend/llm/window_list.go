package llm

import (
	"context"
	"strings"
)

// The OpenAI model list (GET /v1/models) is where most servers say a
// model's window, each in its own field.

const (
	sourceVLLM       = "server:vllm"
	sourceOpenRouter = "server:openrouter"
	sourceLlamaCpp   = "server:llama.cpp"
	sourceList       = "server:list"
)

// listModel is one entry of a model list, with every window field we know.
type listModel struct {
	ID      string `json:"id"`
	OwnedBy string `json:"owned_by"`
	// vLLM
	MaxModelLen int `json:"max_model_len"`
	// OpenRouter (context_length also: Together and others)
	ContextLength int `json:"context_length"`
	TopProvider   *struct {
		ContextLength       int `json:"context_length"`
		MaxCompletionTokens int `json:"max_completion_tokens"`
	} `json:"top_provider"`
	Architecture *struct {
		InputModalities []string `json:"input_modalities"`
	} `json:"architecture"` // OpenRouter: what the model takes (vision.go)
	// Groq
	ContextWindow       int `json:"context_window"`
	MaxCompletionTokens int `json:"max_completion_tokens"`
	// Mistral
	MaxContextLength int `json:"max_context_length"`
	// llama.cpp: n_ctx (newer builds) is what a request may use, n_ctx_train
	// what the model was trained for.
	Meta *struct {
		NCtx      int `json:"n_ctx"`
		NCtxTrain int `json:"n_ctx_train"`
	} `json:"meta"`
}

// listEntry finds the model in the server's list: the probe's error when
// the list could not be read, errAbsent when it lacks the model.
func (c *Client) listEntry(ctx context.Context, model string) (listModel, error) {
	var list struct {
		Data []listModel `json:"data"`
	}
	if err := c.probe(ctx, "GET", c.cfg.BaseURL+"/models", nil, maxListBody, &list); err != nil {
		return listModel{}, err
	}
	for _, m := range list.Data {
		if m.ID == model {
			return m, nil
		}
	}
	return listModel{}, errAbsent
}

// window reads the entry's window fields. llama.cpp's entry is returned
// with its source so the caller can ask /props for the running window.
func (m listModel) window(base string) (Window, bool) {
	switch {
	case positive(m.MaxModelLen) > 0:
		return Window{Tokens: m.MaxModelLen, ModelMax: m.MaxModelLen, Source: sourceVLLM}, true
	case m.TopProvider != nil || strings.Contains(base, "openrouter.ai"):
		w := Window{ModelMax: positive(m.ContextLength), Source: sourceOpenRouter}
		w.Tokens = w.ModelMax
		if m.TopProvider != nil {
			// What the default route (the top provider) takes is what a
			// request gets; the top-level figure is the largest of any.
			if n := positive(m.TopProvider.ContextLength); n > 0 {
				w.Tokens = n
			}
			w.MaxOutput = max(m.TopProvider.MaxCompletionTokens, 0)
		}
		return w, w.Tokens > 0
	case m.Meta != nil:
		w := Window{ModelMax: positive(m.Meta.NCtxTrain), Loaded: positive(m.Meta.NCtx), Source: sourceLlamaCpp}
		w.Tokens = max(w.Loaded, 0)
		return w, w.Tokens > 0
	case positive(m.ContextWindow) > 0:
		return Window{Tokens: m.ContextWindow, ModelMax: m.ContextWindow, MaxOutput: max(m.MaxCompletionTokens, 0), Source: sourceList}, true
	case positive(m.MaxContextLength) > 0:
		return Window{Tokens: m.MaxContextLength, ModelMax: m.MaxContextLength, Source: sourceList}, true
	case positive(m.ContextLength) > 0:
		return Window{Tokens: m.ContextLength, ModelMax: m.ContextLength, Source: sourceList}, true
	}
	return Window{}, false
}
