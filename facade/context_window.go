package facade

import (
	"context"
	"errors"
	"time"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// ModelWindowInfo is what is known of a model's context window, and the
// window requests are fitted to (Tokens, from Source: "user",
// "learned:overflow", "server:…", "table"; 0 and "" when unknown).
type ModelWindowInfo struct {
	chat.ModelWindow
	Tokens int    `json:"tokens"`
	Source string `json:"source"`
	// Unreachable: the server could not be asked just now (what is shown
	// is what was known before, or the table's figure).
	Unreachable bool `json:"unreachable"`
}

func windowInfo(m chat.ModelWindow) ModelWindowInfo {
	n, src := m.Effective()
	return ModelWindowInfo{ModelWindow: m, Tokens: n, Source: src}
}

// windowInfoOf is what a read or a re-detection shows: a server that could
// not be reached is said, not an error.
func windowInfoOf(m chat.ModelWindow, err error) (ModelWindowInfo, error) {
	info := windowInfo(m)
	if errors.Is(err, llm.ErrUnreachable) {
		info.Unreachable, err = true, nil
	}
	return info, toAPI(err)
}

// ModelWindow tells what is known of a provider's model window (""
// provider: the active one; "" model: the provider's). A model never asked
// about is asked now, and the answer kept.
func (a *App) ModelWindow(providerID, model string) (ModelWindowInfo, error) {
	p, err := a.windowProvider(providerID, model)
	if err != nil {
		return ModelWindowInfo{}, toAPI(err)
	}
	return windowInfoOf(a.modelWindow(a.ctx, p))
}

// DetectModelWindow asks the server again (after the user raised its
// window, say), forgetting what an overflow error taught.
func (a *App) DetectModelWindow(providerID, model string) (ModelWindowInfo, error) {
	p, err := a.windowProvider(providerID, model)
	if err != nil {
		return ModelWindowInfo{}, toAPI(err)
	}
	return windowInfoOf(a.discoverWindow(a.ctx, p, true))
}

// SetModelWindow keeps the user's window and answer budget for a model, in
// tokens (0 = not set: the discovered window, the server's answer length).
func (a *App) SetModelWindow(providerID, model string, window, maxOutput int) (ModelWindowInfo, error) {
	p, err := a.windowProvider(providerID, model)
	if err != nil {
		return ModelWindowInfo{}, toAPI(err)
	}
	m, err := a.store.SetModelWindowLimits(a.ctx, p.ID, p.Model, window, maxOutput)
	return windowInfo(m), toAPI(err)
}

// windowProvider is the provider named (else the active one) with its model
// named (else the one it is set to, else the first it lists).
func (a *App) windowProvider(providerID, model string) (chat.Provider, error) {
	if providerID == "" {
		p, err := a.modelProvider("", "", "")
		if model != "" {
			p.Model = model
		}
		return p, err
	}
	p, err := a.store.GetProvider(a.ctx, providerID)
	if err != nil {
		return p, err
	}
	p = a.resolve(p)
	if model != "" {
		p.Model = model
	}
	if p.Model == "" {
		ctx, cancel := context.WithTimeout(a.ctx, 10*time.Second)
		defer cancel()
		if models, err := a.client(p).ListModels(ctx); err == nil && len(models) > 0 {
			p.Model = models[0]
		}
	}
	if p.Model == "" {
		return p, refuse("no_model", chat.ErrInvalid, txtNoModelChosen, "provider", p.Name)
	}
	return p, nil
}

// modelWindow is what is known of the provider's model window, asking the
// server the first time. The engine fits requests to its Effective window.
func (a *App) modelWindow(ctx context.Context, p chat.Provider) (chat.ModelWindow, error) {
	m, err := a.store.GetModelWindow(ctx, p.ID, p.Model)
	if err != nil || m.DiscoveredAt != 0 {
		return m, err
	}
	return a.discoverWindow(ctx, p, false)
}

// discoverWindow asks the server (bounded by llm.DiscoverTimeout) and keeps
// the answer. A server that could not be reached is not taken at its
// silence: nothing is kept (it is asked again next time), and what is
// returned, with llm.ErrUnreachable, is what was known before, else the
// table's figure, with a note saying so.
func (a *App) discoverWindow(ctx context.Context, p chat.Provider, forget bool) (chat.ModelWindow, error) {
	w, err := a.client(p).Window(ctx)
	if errors.Is(err, llm.ErrUnreachable) {
		m, gerr := a.store.GetModelWindow(ctx, p.ID, p.Model)
		if m.DiscoveredAt == 0 {
			m.Discovered = w
		} else {
			m.Discovered.Note = w.Note
		}
		if gerr != nil {
			return m, gerr
		}
		return m, llm.ErrUnreachable
	}
	if err != nil {
		return chat.ModelWindow{}, err
	}
	return a.store.RecordModelWindow(ctx, p.ID, p.Model, w, forget)
}

// turnDiscoverTimeout bounds the discovery a turn may wait for (the first
// turn with a model, and turns while a local server has not yet said the
// window a model is loaded with).
const turnDiscoverTimeout = 5 * time.Second

// modelClient is the client for a turn: the user's answer budget for the
// model goes with every request. The model's window is known (and kept in
// the store, where the engine reads it) before the turn starts: asked the
// first time, and asked again while Ollama or LM Studio had not loaded the
// model (the window it loads it with is only said once it is loaded).
func (a *App) modelClient(ctx context.Context, p chat.Provider) *llm.Client {
	m, err := a.store.GetModelWindow(ctx, p.ID, p.Model)
	if err == nil && needsDiscovery(m) {
		dctx, cancel := context.WithTimeout(ctx, turnDiscoverTimeout)
		if found, err := a.discoverWindow(dctx, p, false); err == nil || errors.Is(err, llm.ErrUnreachable) {
			m = found
		}
		cancel()
	}
	cfg := clientConfig(p)
	cfg.MaxTokens = m.MaxOutput()
	return llm.New(cfg)
}

// needsDiscovery: never asked, or a local server had not loaded the model
// when asked (its window was assumed).
func needsDiscovery(m chat.ModelWindow) bool {
	if m.DiscoveredAt == 0 {
		return true
	}
	d := m.Discovered
	return d.Loaded == 0 && (d.Source == "server:ollama" || d.Source == "server:lmstudio")
}
