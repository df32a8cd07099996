package facade

import (
	"context"
	"encoding/json"
	"time"

	"airlock/backend/chat"
	"airlock/backend/paradigm"
	"airlock/backend/tools"
)

// Tool calls: the cards' actions. Every method returns the call as stored
// after the change; the same state also arrives as a "call:updated" event.

func (a *App) ListCalls(chatID string) ([]chat.Call, error) {
	return result(a.store.ListCalls(a.ctx, chatID))
}
func (a *App) ApproveCall(callID string, edited json.RawMessage) (chat.Call, error) {
	return result(a.engine.Approve(a.ctx, callID, edited))
}

// PreviewCall is what a waiting call would change with edited arguments
// (the diff the card shows while the user edits); nothing is stored.
func (a *App) PreviewCall(callID string, args json.RawMessage) (json.RawMessage, error) {
	return result(a.engine.PreviewCall(a.ctx, callID, args))
}
func (a *App) DenyCall(callID, reason string) (chat.Call, error) {
	return result(a.engine.Deny(a.ctx, callID, reason))
}
func (a *App) TellModel(callID string) (chat.Call, error) {
	return result(a.engine.TellModel(a.ctx, callID))
}
func (a *App) FixAndRun(callID, name string, args json.RawMessage) (chat.Call, error) {
	return result(a.engine.FixAndRun(a.ctx, callID, name, args))
}
func (a *App) CancelCall(callID string)      { a.engine.Cancel(callID) }
func (a *App) RunAll(messageID string) error { return toAPI(a.engine.RunAll(a.ctx, messageID)) }
func (a *App) DenyAll(messageID, reason string) error {
	return toAPI(a.engine.DenyAll(a.ctx, messageID, reason))
}

// Continue sends waiting tool results to the model (auto-continue off, or
// the turn cap paused the loop).
func (a *App) Continue(chatID string) (chat.Message, error) {
	return result(a.engine.Continue(a.ctx, chatID))
}

// --- per-chat options (rules: app_policy.go) ---------------------------------

// SetChatOptions sets the paradigm options; the workspace is kept unless
// given (SetWorkspace is its own action).
func (a *App) SetChatOptions(chatID string, o chat.ChatOptions) (chat.Chat, error) {
	c, err := a.store.GetChat(a.ctx, chatID)
	if err != nil {
		return c, toAPI(err)
	}
	if o.WorkspaceKind == "" {
		o.WorkspaceKind, o.WorkspaceDir = c.WorkspaceKind, c.WorkspaceDir
	}
	o.MCPServers = c.MCPServers // SetChatServers changes them
	if o.ToolMode == "" {       // a UI that does not send it keeps it
		o.ToolMode = c.ToolMode
	}
	return result(a.store.SetChatOptions(a.ctx, chatID, o))
}

// ModelModeInfo is what Auto knows about a chat's model, and what it will
// do.
type ModelModeInfo struct {
	chat.ModelMode
	Effective chat.ToolMode `json:"effective"`
}

// ModelMode tells what Auto learned about a chat's model: the chat's
// provider and model, as its turns resolve them; with no chat (one not
// created yet), the provider and model given ("" = the active provider).
func (a *App) ModelMode(chatID, providerID, model string) (ModelModeInfo, error) {
	p, err := a.modelProvider(chatID, providerID, model)
	if err != nil {
		return ModelModeInfo{}, toAPI(err)
	}
	m, err := a.store.GetModelMode(a.ctx, p.ID, p.Model)
	return ModelModeInfo{ModelMode: m, Effective: m.Effective()}, toAPI(err)
}

// modelProvider is the provider a chat (or, with no chat, the given
// provider and model) talks to, with its model named: one that leaves the
// model to the server uses the first it lists, as a turn does.
func (a *App) modelProvider(chatID, providerID, model string) (chat.Provider, error) {
	c := chat.Chat{ChatSetup: chat.ChatSetup{ProviderID: providerID, Model: model}}
	if chatID != "" {
		var err error
		if c, err = a.store.GetChat(a.ctx, chatID); err != nil {
			return chat.Provider{}, err
		}
	}
	p, err := a.chatProvider(a.ctx, c)
	if err != nil || p.Model != "" {
		return p, err
	}
	ctx, cancel := context.WithTimeout(a.ctx, 10*time.Second)
	defer cancel()
	if models, err := a.client(p).ListModels(ctx); err == nil && len(models) > 0 {
		p.Model = models[0]
	}
	return p, nil
}

// SetModelMode makes Auto use native or text calls with a chat's model
// (see ModelMode) whatever it learned ("" to go by what it learns; forget
// also drops what it learned, so it tries native again).
func (a *App) SetModelMode(chatID, providerID, model, override string, forget bool) (ModelModeInfo, error) {
	p, err := a.modelProvider(chatID, providerID, model)
	if err != nil {
		return ModelModeInfo{}, toAPI(err)
	}
	m, err := a.store.SetModelModeOverride(a.ctx, p.ID, p.Model, chat.ToolMode(override), forget)
	return ModelModeInfo{ModelMode: m, Effective: m.Effective()}, toAPI(err)
}

// SetChatServers chooses the MCP servers whose tools the chat offers: all
// (every enabled server, now and later) or exactly those named.
func (a *App) SetChatServers(chatID string, all bool, servers []string) (chat.Chat, error) {
	c, err := a.store.GetChat(a.ctx, chatID)
	if err != nil {
		return c, toAPI(err)
	}
	o := c.ChatOptions
	o.MCPServers = nil
	if !all {
		o.MCPServers = append([]string{}, servers...)
	}
	return result(a.store.SetChatOptions(a.ctx, chatID, o))
}

// --- the Tool lab -------------------------------------------------------------

// ParadigmInfo is one paradigm with the exact prompt it generates for the tools.
type ParadigmInfo struct {
	ID     string `json:"id"`
	Label  string `json:"label"`
	Prompt string `json:"prompt"`
}

// ToolInfo is a tool as the UI knows it: its spec, where it acts, and
// whether it may change the workspace.
type ToolInfo struct {
	tools.Spec
	Kind    tools.Kind `json:"kind"`
	Server  string     `json:"server,omitempty"`
	Changes bool       `json:"changes,omitempty"`
	// Hints: an MCP server's annotations of its tool (shown, never trusted).
	Hints *tools.Hints `json:"hints,omitempty"`
}

// Tools lists the tools the model can call, in their order.
func (a *App) Tools() []ToolInfo {
	var out []ToolInfo
	for _, t := range a.tools.All().Tools() {
		out = append(out, ToolInfo{Spec: t.Spec, Kind: t.Kind, Server: t.Server, Changes: t.Changes, Hints: t.Hints})
	}
	return out
}

// ToolLab lists the tools, each paradigm's prompt for them, and the formats
// the scanner recognises.
type ToolLab struct {
	Tools     []ToolInfo        `json:"tools"`
	Paradigms []ParadigmInfo    `json:"paradigms"`
	Formats   []paradigm.Family `json:"formats"`
}

func (a *App) ToolLab() ToolLab {
	lab := ToolLab{Tools: a.Tools(), Formats: paradigm.Formats()}
	for _, p := range paradigm.All() {
		lab.Paradigms = append(lab.Paradigms, ParadigmInfo{ID: p.ID(), Label: p.Label(), Prompt: p.Prompt(a.tools.All().Specs())})
	}
	return lab
}

// ScanText is the parser playground: what the scanner finds in a model
// output, with the app's tools (names repaired, arguments validated).
func (a *App) ScanText(text, paradigmID string, recognizeOthers bool) paradigm.Result {
	return paradigm.Scan(text, paradigm.Options{Paradigm: paradigmID, RecognizeOthers: recognizeOthers, Registry: a.tools.All().Registry()})
}
