package facade

import (
	"airlock/backend/chat"
	"airlock/backend/engine"
	"airlock/backend/llm"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

func (a *App) GetSettings() (chat.Settings, error) {
	s, err := a.store.GetSettings(a.ctx)
	return a.withDefaultAgent(s), toAPI(err)
}

func (a *App) SaveSettings(s chat.Settings) (chat.Settings, error) {
	if s.Temperature > 2 {
		return s, toAPI(refuse("invalid_temperature", chat.ErrInvalid, txtBadTemperature))
	}
	if !slices.Contains([]string{"auto", "en", "zh"}, s.Language) {
		return s, toAPI(refuse("invalid_language", chat.ErrInvalid, txtBadLanguage, "language", strconv.Quote(s.Language)))
	}
	if !slices.Contains([]string{"system", "light", "dark"}, s.Theme) {
		return s, toAPI(refuse("invalid_theme", chat.ErrInvalid, txtBadTheme, "theme", strconv.Quote(s.Theme)))
	}
	if _, err := a.store.GetProvider(a.ctx, s.ActiveProviderID); err != nil {
		return s, toAPI(refuse("unknown_provider", chat.ErrInvalid, txtProviderGone))
	}
	before, _ := a.store.GetSettings(a.ctx)
	if err := a.store.SaveSettings(a.ctx, s); err != nil {
		return s, toAPI(err)
	}
	// A provider chosen here is where new chats go (open chats keep theirs).
	if before.ActiveProviderID != s.ActiveProviderID {
		if p, err := a.store.GetProvider(a.ctx, s.ActiveProviderID); err == nil {
			_ = a.store.SetLastModel(a.ctx, p.ID, p.Model)
		}
	}
	if err := a.saveDefaultAgent(s); err != nil {
		return s, toAPI(err)
	}
	saved, err := a.GetSettings()
	if err == nil && a.settingsSaved != nil {
		a.settingsSaved(saved)
	}
	return saved, err
}

// ListProviders lists the environment override (if any) first, then the stored ones.
func (a *App) ListProviders() ([]chat.Provider, error) {
	ps, err := a.store.ListProviders(a.ctx)
	if err != nil {
		return nil, toAPI(err)
	}
	for i := range ps {
		ps[i] = a.resolve(ps[i])
	}
	if a.env != nil {
		ps = append([]chat.Provider{*a.env}, ps...)
	}
	return ps, nil
}

func (a *App) SaveProvider(p chat.Provider) (chat.Provider, error) {
	if p.ID == chat.EnvProviderID {
		return p, toAPI(refuse("read_only", chat.ErrInvalid, txtProviderFixed))
	}
	saved, err := a.store.SaveProvider(a.ctx, p)
	return a.resolve(saved), toAPI(err)
}

func (a *App) DeleteProvider(id string) error { return toAPI(a.store.DeleteProvider(a.ctx, id)) }

// ListModels asks the provider described by the (possibly unsaved) form.
func (a *App) ListModels(p chat.Provider) ([]string, error) {
	ctx, cancel := context.WithTimeout(a.ctx, 20*time.Second)
	defer cancel()
	return result(a.client(a.resolve(p)).ListModels(ctx))
}

// TestConnection lists the provider's models and says whether the chosen one is there.
func (a *App) TestConnection(p chat.Provider) (string, error) {
	models, err := a.ListModels(p)
	if err != nil {
		return a.testWithoutList(p, err)
	}
	switch {
	case p.Model == "":
		return fmt.Sprintf("Connected: %d models available. Pick one to chat with.", len(models)), nil
	case slices.Contains(models, p.Model):
		return fmt.Sprintf("Connected: %d models available, including %s.", len(models), p.Model), nil
	default:
		return fmt.Sprintf("Connected, but %s is not among the %d models the server lists.", p.Model, len(models)), nil
	}
}

// resolve fills in the demo server's run-time address.
func (a *App) resolve(p chat.Provider) chat.Provider {
	if p.Demo || p.ID == chat.DemoProviderID {
		p.Demo, p.BaseURL = true, a.demoURL
	}
	return p
}

// clientConfig is how a provider is reached: the one place that reads a
// provider into an llm.Config.
func clientConfig(p chat.Provider) llm.Config {
	return llm.Config{Kind: p.APIKind(), BaseURL: p.BaseURL, APIKey: p.APIKey, Model: p.Model, ThinkingBudget: p.ThinkingBudget}
}

func (a *App) client(p chat.Provider) *llm.Client {
	return llm.New(clientConfig(p))
}

// connect is the engine's Connector: the chat's provider and model, ready to stream.
func (a *App) connect(ctx context.Context, c chat.Chat) (chat.Provider, engine.Model, error) {
	a.waitForMCP(ctx)
	p, err := a.chatProvider(ctx, c)
	if err != nil {
		return p, nil, err
	}
	if p.Model == "" {
		models, err := a.client(p).ListModels(ctx)
		if err != nil || len(models) == 0 {
			return p, nil, refuse("no_model", chat.ErrInvalid, txtNoModelListed, "provider", p.Name)
		}
		p.Model = models[0]
	}
	return p, a.modelClient(ctx, p), nil
}

func (a *App) activeProvider(ctx context.Context) (chat.Provider, error) {
	if a.env != nil {
		return *a.env, nil
	}
	s, err := a.store.GetSettings(ctx)
	if err != nil {
		return chat.Provider{}, err
	}
	p, err := a.store.GetProvider(ctx, s.ActiveProviderID)
	if errors.Is(err, chat.ErrNotFound) {
		p, err = a.store.GetProvider(ctx, chat.DemoProviderID)
	}
	return a.resolve(p), err
}
