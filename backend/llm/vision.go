package llm

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"
)

// Whether a model takes images, as its server says it. Each server kind
// says it in its own place:
//
//   - OpenRouter: the model list's architecture.input_modalities holds "image".
//   - Ollama: /api/show's capabilities holds "vision" (Ollama 0.6 and later;
//     older servers do not say).
//   - LM Studio 0.4: /api/v1/models' capabilities.vision; LM Studio 0.3:
//     /api/v0/models' type is "vlm" (a language model is "llm").
//   - llama-server: /props' modalities.vision (the loaded projector).
//
// Anything else, and any failure to ask, is "" (not known): images are
// sent, and a refusal teaches the answer.

// Vision answers.
const (
	VisionYes = "yes"
	VisionNo  = "no"
)

// Vision sources, per server kind.
const (
	visionOpenRouter = "server:openrouter"
	visionOllama     = "server:ollama"
	visionLMStudio   = "server:lmstudio"
	visionLlamaCpp   = "server:llama.cpp"
)

// Vision asks the server whether the client's model takes images: sees is
// "yes", "no" or "" (the server does not say), source the server kind that
// said it. The error is ErrUnreachable when the server gave no answer at
// all, or the caller's context ending; bounded like Window.
func (c *Client) Vision(ctx context.Context) (sees, source string, err error) {
	ctx, cancel := context.WithTimeout(ctx, DiscoverTimeout)
	defer cancel()
	model := c.cfg.Model
	if model == "" || c.ant != nil {
		return "", "", nil
	}
	entry, err := c.listEntry(ctx, model)
	if errors.Is(err, errNoAnswer) {
		if cerr := ctx.Err(); cerr != nil && errors.Is(context.Cause(ctx), context.Canceled) {
			return "", "", cerr
		}
		return "", "", ErrUnreachable
	}
	if entry.Architecture != nil && entry.Architecture.InputModalities != nil {
		return yesNo(slices.Contains(entry.Architecture.InputModalities, "image")), visionOpenRouter, nil
	}
	if hostedHost(c.cfg.BaseURL) {
		return "", "", nil
	}
	if entry.OwnedBy == "llamacpp" || entry.Meta != nil {
		sees := c.llamaCppVision(ctx)
		return sees, sourceIf(sees, visionLlamaCpp), nil
	}
	if sees := c.ollamaVision(ctx, model); sees != "" {
		return sees, visionOllama, nil
	}
	if sees := c.lmStudioVision(ctx, model); sees != "" {
		return sees, visionLMStudio, nil
	}
	sees = c.llamaCppVision(ctx)
	return sees, sourceIf(sees, visionLlamaCpp), nil
}

func yesNo(b bool) string {
	if b {
		return VisionYes
	}
	return VisionNo
}

func sourceIf(sees, source string) string {
	if sees == "" {
		return ""
	}
	return source
}

// ollamaVision reads /api/show's capabilities ("" when absent: an Ollama
// older than 0.6, or not Ollama).
func (c *Client) ollamaVision(ctx context.Context, model string) string {
	var show struct {
		Capabilities []string       `json:"capabilities"`
		ModelInfo    map[string]any `json:"model_info"`
	}
	if c.probe(ctx, "POST", c.root()+"/api/show", map[string]string{"model": model, "name": model}, maxProbeBody, &show) != nil ||
		show.Capabilities == nil {
		return ""
	}
	return yesNo(slices.Contains(show.Capabilities, "vision"))
}

// lmStudioVision reads LM Studio's model lists: 0.4's /api/v1/models
// (capabilities.vision, by key or loaded instance), else 0.3's
// /api/v0/models (type "vlm" or "llm").
func (c *Client) lmStudioVision(ctx context.Context, model string) string {
	var v1 struct {
		Models []struct {
			Key             string `json:"key"`
			LoadedInstances []struct {
				ID string `json:"id"`
			} `json:"loaded_instances"`
			Capabilities *struct {
				Vision bool `json:"vision"`
			} `json:"capabilities"`
		} `json:"models"`
	}
	if c.probe(ctx, "GET", c.root()+"/api/v1/models", nil, maxProbeBody, &v1) == nil {
		for _, m := range v1.Models {
			match := m.Key == model
			for _, inst := range m.LoadedInstances {
				match = match || inst.ID == model
			}
			if match && m.Capabilities != nil {
				return yesNo(m.Capabilities.Vision)
			}
		}
	}
	var v0 struct {
		Data []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"data"`
	}
	if c.probe(ctx, "GET", c.root()+"/api/v0/models", nil, maxProbeBody, &v0) == nil {
		for _, m := range v0.Data {
			if m.ID == model && (m.Type == "vlm" || m.Type == "llm") {
				return yesNo(m.Type == "vlm")
			}
		}
	}
	return ""
}

// llamaCppVision reads llama-server's /props: modalities.vision says a
// multimodal projector is loaded.
func (c *Client) llamaCppVision(ctx context.Context) string {
	var props struct {
		Modalities *struct {
			Vision bool `json:"vision"`
		} `json:"modalities"`
	}
	if c.probe(ctx, "GET", c.root()+"/props", nil, maxProbeBody, &props) != nil || props.Modalities == nil {
		return ""
	}
	return yesNo(props.Modalities.Vision)
}

// VisionCache keeps what servers said of their models' vision, per key
// (provider, address and model), so a send never waits on a server: Known
// answers at once from what is kept and asks in the background when
// nothing fresh is. An answer is kept VisionTTL; a failure to ask is
// "not known" and is asked again after VisionRetry.
type VisionCache struct {
	mu sync.Mutex
	m  map[string]*visionEntry
	// Now is the clock (tests).
	Now func() time.Time
}

// How long what a server said is kept, and how soon a server that could
// not be asked is asked again.
var (
	VisionTTL   = 10 * time.Minute
	VisionRetry = time.Minute
)

type visionEntry struct {
	sees, source string
	until        time.Time
	asking       chan struct{} // closed when the ask in flight ends; nil when none is
}

// VisionAsk asks a server (Client.Vision).
type VisionAsk func(ctx context.Context) (sees, source string, err error)

func (v *VisionCache) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

// Known is what is kept for key ("" when nothing is), starting an ask in
// the background when nothing fresh is kept. It never waits.
func (v *VisionCache) Known(key string, ask VisionAsk) (sees, source string) {
	e, _ := v.start(key, ask)
	return e.sees, e.source
}

// Wait is Known, but waits for an ask under way (or started now) until it
// ends or ctx does.
func (v *VisionCache) Wait(ctx context.Context, key string, ask VisionAsk) (sees, source string) {
	e, done := v.start(key, ask)
	if done == nil {
		return e.sees, e.source
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	e = *v.m[key]
	return e.sees, e.source
}

// Forget drops what is kept for key: the next Known asks again.
func (v *VisionCache) Forget(key string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if e := v.m[key]; e != nil && e.asking == nil {
		delete(v.m, key)
	}
}

// start returns a copy of key's entry and, when an ask is under way, the
// channel closed when it ends.
func (v *VisionCache) start(key string, ask VisionAsk) (visionEntry, chan struct{}) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = map[string]*visionEntry{}
	}
	e := v.m[key]
	if e == nil {
		e = &visionEntry{}
		v.m[key] = e
	}
	if e.asking != nil || v.now().Before(e.until) {
		return *e, e.asking
	}
	done := make(chan struct{})
	e.asking = done
	go func() {
		sees, source, err := ask(context.Background())
		v.mu.Lock()
		defer v.mu.Unlock()
		if err != nil { // not known, for now
			e.sees, e.source, e.until = "", "", v.now().Add(VisionRetry)
		} else {
			e.sees, e.source, e.until = sees, source, v.now().Add(VisionTTL)
		}
		e.asking = nil
		close(done)
	}()
	return *e, done
}
