package facade

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/engine"
	"airlock/backend/engine/fit"
	"airlock/backend/export"
	"airlock/backend/paradigm"
	"airlock/backend/tools"
)

// Agents, each chat's model, and the tools a chat offers one by one.

func (a *App) ListAgents() ([]chat.Agent, error) { return result(a.store.ListAgents(a.ctx)) }

// SaveAgent adds (no ID) or changes an agent; the chats using it take the
// change at their next turn.
func (a *App) SaveAgent(ag chat.Agent) (chat.Agent, error) {
	return result(a.store.SaveAgent(a.ctx, ag))
}

// DeleteAgent removes an agent; its chats go back to the default one.
func (a *App) DeleteAgent(id string) error {
	err := a.store.DeleteAgent(a.ctx, id)
	if err == nil {
		a.emit(bridge.EventChatsChanged, nil)
	}
	return toAPI(err)
}

// ExportAgents writes agents (none given: all) to a JSON file chosen in the
// save dialog: no provider, no key. It returns the path, "" if cancelled.
func (a *App) ExportAgents(ids []string) (string, error) {
	all, err := a.store.ListAgents(a.ctx)
	if err != nil {
		return "", toAPI(err)
	}
	var picked []chat.Agent
	for _, ag := range all {
		if len(ids) == 0 || containsString(ids, ag.ID) {
			picked = append(picked, ag)
		}
	}
	var buf bytes.Buffer
	if err := export.WriteAgents(&buf, picked); err != nil {
		return "", toAPI(err)
	}
	name := "airlock-agents"
	if len(picked) == 1 {
		name = safeFileName(picked[0].Name)
	}
	return a.saveAs("Export agents", name, "json", buf.Bytes())
}

// ImportAgentsFile adds the agents of a file chosen in the open dialog, all
// or none; each becomes a new agent.
func (a *App) ImportAgentsFile() ([]chat.Agent, error) {
	path, err := runtime.OpenFileDialog(a.ctx, runtime.OpenDialogOptions{
		Title:   "Import agents (an Airlock agents file)",
		Filters: []runtime.FileFilter{{DisplayName: "JSON files", Pattern: "*.json"}},
	})
	if err != nil || path == "" {
		return []chat.Agent{}, toAPI(err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, toAPI(refuse("import_failed", err, txtOpenFailed, "path", path, "reason", err.Error()))
	}
	defer f.Close()
	as, err := export.ReadAgents(f)
	if err != nil {
		return nil, toAPI(err)
	}
	return result(a.store.ImportAgents(a.ctx, as))
}

// CreateChatWith starts a chat with an agent ("" = the one used last).
func (a *App) CreateChatWith(agentID string) (chat.Chat, error) {
	c, err := a.store.NewChat(a.ctx, engine.DefaultTitle, agentID)
	if err != nil {
		return c, toAPI(err)
	}
	if a.toolMode != "" { // AIRLOCK_TOOL_MODE: the mode of new chats
		o := c.ChatOptions
		o.ToolMode = a.toolMode
		if c, err = a.store.SetChatOptions(a.ctx, c.ID, o); err != nil {
			return c, toAPI(err)
		}
	}
	if a.envFirst(c.AgentID) {
		return result(a.store.SetChatModel(a.ctx, c.ID, chat.EnvProviderID, a.env.Model))
	}
	return c, nil
}

// envFirst says a new chat with the agent talks to AIRLOCK_BASE_URL: it is
// set, the agent names no model and no chat was switched to another yet.
func (a *App) envFirst(agentID string) bool {
	if a.env == nil || a.store.HasLastModel(a.ctx) {
		return false
	}
	ag, err := a.store.GetAgent(a.ctx, agentID)
	return err == nil && ag.ProviderID == ""
}

// NextChat is the agent and model a new chat with the agent ("" = the one
// used last) would start with, for the header of a chat not created yet.
func (a *App) NextChat(agentID string) (chat.ChatSetup, error) {
	cs, err := a.store.NextChat(a.ctx, agentID)
	if err == nil && a.envFirst(cs.AgentID) {
		cs.ProviderID, cs.Model = chat.EnvProviderID, a.env.Model
	}
	return cs, toAPI(err)
}

// SetChatAgent gives a chat another agent (for its next turns).
func (a *App) SetChatAgent(chatID, agentID string) (chat.Chat, error) {
	return result(a.store.SetChatAgent(a.ctx, chatID, agentID))
}

// SetChatModel switches one chat to a provider's model; the other chats
// keep theirs, and new chats start from it.
func (a *App) SetChatModel(chatID, providerID, model string) (chat.Chat, error) {
	if providerID == chat.EnvProviderID && a.env == nil {
		return chat.Chat{}, toAPI(refuse("unknown_provider", chat.ErrInvalid, txtNoBaseURL))
	}
	return result(a.store.SetChatModel(a.ctx, chatID, providerID, model))
}

// RegenerateWith switches the chat to another model and regenerates the
// answer with it.
func (a *App) RegenerateWith(messageID, providerID, model string) (chat.Message, error) {
	m, err := a.store.GetMessage(a.ctx, messageID)
	if err != nil {
		return chat.Message{}, toAPI(err)
	}
	if _, err := a.SetChatModel(m.ChatID, providerID, model); err != nil {
		return chat.Message{}, err
	}
	return a.Regenerate(messageID)
}

// chatProvider is the provider and model a chat talks to: its own, else
// the active provider (also when its own was deleted, or is the
// environment's and AIRLOCK_BASE_URL is not set in this run).
func (a *App) chatProvider(ctx context.Context, c chat.Chat) (chat.Provider, error) {
	var (
		p   chat.Provider
		err error
	)
	switch {
	case c.ProviderID == chat.EnvProviderID && a.env != nil:
		p = *a.env
	case c.ProviderID != "" && c.ProviderID != chat.EnvProviderID:
		p, err = a.store.GetProvider(ctx, c.ProviderID)
		p = a.resolve(p)
		if errors.Is(err, chat.ErrNotFound) {
			return a.activeProvider(ctx)
		}
	default: // an imported chat names a model but no provider of this computer
		p, err = a.activeProvider(ctx)
	}
	if c.Model != "" {
		p.Model = c.Model
	}
	return p, err
}

// ProviderModels is one provider of the model picker: what it is (never its
// key), the models its server lists (or only its own when it lists none),
// and why the list could not be read.
type ProviderModels struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Demo   bool     `json:"demo"`
	Model  string   `json:"model"` // the provider's own choice
	Models []string `json:"models"`
	Error  string   `json:"error,omitempty"`
}

// modelLists caches what servers said for a minute, so the picker opens at
// once the second time.
type modelLists struct {
	mu   sync.Mutex
	at   time.Time
	list []ProviderModels
}

const modelListTTL = time.Minute

// maxListedModels bounds a server's list in the picker (some list thousands).
const maxListedModels = 500

// ListChatModels lists every provider with its models for the picker,
// asking the servers at once (5 s each). fresh skips the cache.
func (a *App) ListChatModels(fresh bool) ([]ProviderModels, error) {
	a.models.mu.Lock()
	defer a.models.mu.Unlock()
	if !fresh && a.models.list != nil && time.Since(a.models.at) < modelListTTL {
		return a.models.list, nil
	}
	ps, err := a.ListProviders()
	if err != nil {
		return nil, err
	}
	out := make([]ProviderModels, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		out[i] = ProviderModels{ID: p.ID, Name: p.Name, Demo: p.Demo, Model: p.Model, Models: []string{}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(a.ctx, 5*time.Second)
			defer cancel()
			ms, err := a.client(p).ListModels(ctx)
			if err != nil {
				out[i].Error = err.Error()
			}
			if len(ms) > maxListedModels {
				ms = ms[:maxListedModels]
			}
			if p.Model != "" && !containsString(ms, p.Model) {
				ms = append([]string{p.Model}, ms...)
			}
			out[i].Models = append(out[i].Models, ms...)
		}()
	}
	wg.Wait()
	a.models.list, a.models.at = out, time.Now()
	return out, nil
}

// ToolOffer is one tool of a chat's checklist: whether the chat offers it,
// whether its agent would (without the chat's own toggle), whether a
// read-only agent keeps it out whatever the toggle, and about how many
// tokens its instructions cost.
type ToolOffer struct {
	ToolInfo
	On        bool `json:"on"`
	AgentOn   bool `json:"agentOn"`
	Toggled   bool `json:"toggled"` // the chat has its own toggle for it
	ReadOnly  bool `json:"readOnly"`
	Tokens    int  `json:"tokens"`
	Available bool `json:"available"`
}

// ChatTools is a chat's checklist: every tool with its state, how many are
// offered and what the tool instructions of the request cost.
type ChatTools struct {
	Tools   []ToolOffer `json:"tools"`
	Offered int         `json:"offered"`
	Tokens  int         `json:"tokens"` // the offered tools' instructions (text) or specs (native)
	Agent   string      `json:"agent"`
}

// ChatTools lists every tool with what the chat offers.
func (a *App) ChatTools(chatID string) (ChatTools, error) {
	c, err := a.store.GetChat(a.ctx, chatID)
	if err != nil {
		return ChatTools{}, toAPI(err)
	}
	ag, err := a.store.GetAgent(a.ctx, c.AgentID)
	if err != nil {
		ag, _ = a.store.GetAgent(a.ctx, chat.DefaultAgentID)
	}
	all := a.tools.All()
	mine := a.tools.For(c.MCPServers)
	offered := engine.Offered(mine, ag, c.ToolToggles)
	out := ChatTools{Tools: []ToolOffer{}, Agent: ag.Name}
	for _, t := range all.Tools() {
		_, inChat := mine.Get(t.Name)
		_, on := offered.Get(t.Name)
		_, toggled := c.ToolToggles[t.Name]
		safe := engine.ReadOnlySafe(t)
		out.Tools = append(out.Tools, ToolOffer{ToolInfo: ToolInfo{Spec: t.Spec, Kind: t.Kind, Server: t.Server, Changes: t.Changes},
			On: on, AgentOn: ag.Offers(t.Name, safe, nil), Toggled: toggled, ReadOnly: ag.Tools.ReadOnly && !safe,
			Tokens: specTokens(t.Spec), Available: inChat})
	}
	out.Offered = len(offered.Tools())
	if out.Offered > 0 {
		par, ok := paradigm.Get(c.Paradigm)
		if !ok {
			par, _ = paradigm.Get(paradigm.Default)
		}
		out.Tokens = checklistTokens.Count(par.Prompt(offered.Specs()))
	}
	sort.SliceStable(out.Tools, func(i, j int) bool { return kindOrder(out.Tools[i]) < kindOrder(out.Tools[j]) })
	return out, nil
}

// SetChatTools sets the chat's own toggles (name → offered); they win over
// its agent's. Empty clears them (the agent decides again).
func (a *App) SetChatTools(chatID string, toggles map[string]bool) (ChatTools, error) {
	if _, err := a.store.SetChatTools(a.ctx, chatID, toggles); err != nil {
		return ChatTools{}, toAPI(err)
	}
	return a.ChatTools(chatID)
}

// AgentToolList is every tool with its token cost, for an agent's checklist.
func (a *App) AgentToolList() []ToolOffer {
	out := []ToolOffer{}
	for _, t := range a.tools.All().Tools() {
		out = append(out, ToolOffer{ToolInfo: ToolInfo{Spec: t.Spec, Kind: t.Kind, Server: t.Server, Changes: t.Changes},
			ReadOnly: !engine.ReadOnlySafe(t), Tokens: specTokens(t.Spec), Available: true})
	}
	sort.SliceStable(out, func(i, j int) bool { return kindOrder(out[i]) < kindOrder(out[j]) })
	return out
}

// checklistTokens counts the checklist's costs with the cl100k tokenizer the
// engine fits requests with (issue 23): exact for OpenAI's models, close for
// others (the engine calibrates per model; the checklist shows the raw
// count). Counts are cached by text and the vocabulary is shared.
var checklistTokens = fit.NewTokenizer()

// specTokens is what one tool costs: its name, description and parameters
// as the model reads them.
func specTokens(s tools.Spec) int {
	return checklistTokens.Count(s.Name + "\n" + s.Description + "\n" + string(s.Parameters))
}

// kindOrder groups the checklist: built-in, files, then MCP by server.
func kindOrder(t ToolOffer) string {
	switch t.Kind {
	case "builtin":
		return "0"
	case "files":
		return "1"
	}
	return "2" + t.Server
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// General settings show the default agent's system prompt, temperature,
// tool mode, turn cap and tool timeout (they moved into it): read from it,
// saved into it.
func (a *App) withDefaultAgent(s chat.Settings) chat.Settings {
	ag, err := a.store.GetAgent(a.ctx, chat.DefaultAgentID)
	if err != nil {
		return s
	}
	s.SystemPrompt, s.ToolMode, s.MaxTurns, s.ToolTimeoutSeconds = ag.SystemPrompt, ag.ToolMode, ag.MaxTurns, ag.ToolTimeoutSeconds
	s.Temperature = -1
	if ag.Temperature != nil {
		s.Temperature = *ag.Temperature
	}
	return s
}

func (a *App) saveDefaultAgent(s chat.Settings) error {
	ag, err := a.store.GetAgent(a.ctx, chat.DefaultAgentID)
	if err != nil {
		return err
	}
	ag.SystemPrompt, ag.MaxTurns, ag.ToolTimeoutSeconds = s.SystemPrompt, s.MaxTurns, s.ToolTimeoutSeconds
	if s.ToolMode != "" {
		ag.ToolMode = s.ToolMode
	}
	ag.Temperature = nil
	if s.Temperature >= 0 {
		t := s.Temperature
		ag.Temperature = &t
	}
	_, err = a.store.SaveAgent(a.ctx, ag)
	return err
}
