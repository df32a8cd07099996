package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/chat"
	"airlock/backend/engine"
	"airlock/backend/llm"
	"airlock/backend/store"
	"airlock/backend/tools"
	"airlock/backend/tools/files"
	"airlock/backend/tools/mcp"
	"airlock/backend/workspace"
)

// App is the facade bound to the UI: thin methods that delegate to backend/
// and turn errors into {code, message} the UI can show.
type App struct {
	ctx    context.Context // Wails runtime context, set at startup
	store  *store.Store
	engine *engine.Engine
	// started is set once Wails gave its context: events can be emitted.
	started bool
	tools   *tools.Catalog

	workspaces *workspace.Manager
	mcp        *mcp.Manager
	// The servers of AIRLOCK_MCP_CONFIG, for this run; what was wrong with it.
	mcpEnv     []mcp.ServerConfig
	mcpEnvFile string
	mcpEnvErr  error
	dataDir    string
	demoURL    string         // base URL of the built-in demo model server
	env        *chat.Provider // from AIRLOCK_BASE_URL & co; overrides the settings when set
	toolMode   chat.ToolMode  // from AIRLOCK_TOOL_MODE: the mode of new chats, overriding the settings
	// notices are sentences the UI shows once (a damaged database set aside
	// at start, or found damaged while running: notify).
	noticesMu sync.Mutex
	notices   []string
	// settingsSaved follows saved settings outside the page (the native
	// menu's language and theme); nil in tests.
	settingsSaved func(chat.Settings)
	models        modelLists // the model picker's lists (app_agents.go)
}

// AppInfo tells the UI about the running app.
type AppInfo struct {
	Version     string `json:"version"`
	DataDir     string `json:"dataDir"`
	EnvProvider bool   `json:"envProvider"`
	// Notices: what went wrong at start that people must know (shown once).
	Notices []string `json:"notices,omitempty"`
	// KeyStorage: where API keys are kept, "keychain" or "database" (no
	// system keychain answered: Settings says so).
	KeyStorage string `json:"keyStorage"`
}

// NewApp wires the facade. The engine emits through the Wails runtime once
// startup has given us its context.
func NewApp(st *store.Store, dataDir, demoURL string, env *chat.Provider, log *slog.Logger) *App {
	a := &App{store: st, dataDir: dataDir, demoURL: demoURL, env: env}
	a.toolMode, _ = chat.ParseToolMode(strings.TrimSpace(os.Getenv("AIRLOCK_TOOL_MODE")))
	a.mcp = mcp.NewManager(mcp.Options{OnChange: a.mcpChanged, Logger: log, ClientName: "airlock", ClientVersion: version})
	a.mcpEnvFile, a.mcpEnv, a.mcpEnvErr = mcpEnv()
	catalog, err := tools.NewCatalog(append(files.Tools(), tools.Builtins()...), a.mcp.Tools)
	if err != nil {
		panic(err) // the built-in specs are constants: a bad one is a programming error caught by tests
	}
	a.tools = catalog
	a.workspaces = workspace.NewManager(st)
	a.engine = engine.New(engine.Deps{Store: st, Connect: a.connect, Emit: a.emit, EnvFor: a.envFor,
		Tools: func(c chat.Chat) *tools.Toolbox { return catalog.For(c.MCPServers) }})
	return a
}

func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	a.started = true // the Wails runtime is there to emit through
	// Calls that were running when the app last died are interrupted; they
	// wait for a new decision and are never re-run by themselves.
	_, _ = a.store.InterruptRunningCalls(ctx)
	// Rules of the last run that were to last until Airlock quits, and
	// hour rules that ended, go.
	_, _ = a.store.PurgeRules(ctx, chat.Now())
	// MCP servers start in the background; their status shows in Settings.
	if err := a.configureMCP(ctx); err != nil {
		a.mcpEnvErr = errors.Join(a.mcpEnvErr, err)
	}
}

// shutdown interrupts running answers so their final text and status are saved.
func (a *App) shutdown(context.Context) {
	a.engine.Shutdown()
	a.workspaces.Close()
	_ = a.mcp.Close() // no server outlives Airlock
}

func (a *App) emit(name string, payload any) {
	if a.started {
		runtime.EventsEmit(a.ctx, name, payload)
	}
}

// envProvider reads the provider override used by tests and power users.
func envProvider() *chat.Provider {
	base := strings.TrimSpace(os.Getenv("AIRLOCK_BASE_URL"))
	if base == "" {
		return nil
	}
	return &chat.Provider{ID: chat.EnvProviderID, Name: "Environment (AIRLOCK_BASE_URL)", BaseURL: base,
		APIKey: os.Getenv("AIRLOCK_API_KEY"), Model: strings.TrimSpace(os.Getenv("AIRLOCK_MODEL"))}
}

// --- errors ---------------------------------------------------------------

type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error is JSON: Wails hands the string to the UI, which parses it.
func (e apiError) Error() string {
	b, _ := json.Marshal(e)
	return string(b)
}

func toAPI(err error) error {
	if err == nil {
		return nil
	}
	var coded interface{ Code() string }
	var ce *chat.Error
	switch {
	case errors.As(err, &ce):
		return apiError{ce.Code, ce.Message}
	case errors.As(err, &coded):
		return apiError{coded.Code(), err.Error()}
	case errors.Is(err, chat.ErrNotFound):
		return apiError{"not_found", err.Error()}
	case errors.Is(err, chat.ErrInvalid):
		return apiError{"invalid", err.Error()}
	}
	return apiError{"internal", err.Error()}
}

func result[T any](v T, err error) (T, error) { return v, toAPI(err) }

// --- app ------------------------------------------------------------------

func (a *App) Info() AppInfo {
	a.noticesMu.Lock()
	notices := slices.Clone(a.notices)
	a.noticesMu.Unlock()
	return AppInfo{Version: version, DataDir: a.dataDir, EnvProvider: a.env != nil, Notices: notices,
		KeyStorage: a.store.KeyStorage()}
}

// notify tells the user something they must know: in Info's notices (a UI
// that has not asked yet) and as an event (one that has).
func (a *App) notify(message string) {
	a.noticesMu.Lock()
	a.notices = append(a.notices, message)
	a.noticesMu.Unlock()
	a.emit("app:notice", message)
}

// checkDatabase runs the page check the store left for later (a database
// too large to check before the window opened) and says what it found.
func (a *App) checkDatabase(ctx context.Context, log *slog.Logger) {
	err := a.store.CheckIntegrity(ctx)
	var de *store.DamagedError
	if !errors.As(err, &de) {
		if err != nil {
			log.Warn("the database check could not run", "err", err)
		}
		return
	}
	log.Error("the database is damaged", "path", de.Path, "reason", de.Reason, "err", de.Err)
	a.notify(fmt.Sprintf("Airlock's database is damaged: %s. Airlock goes on with it for now, but some chats may fail to open; "+
		"export the chats you need (a chat's menu → Export). At its next start Airlock moves the file aside, untouched, and starts with a new database.", de.Reason))
}

// --- chats and messages ------------------------------------------------------

func (a *App) ListChats() ([]chat.Chat, error) { return result(a.store.ListChats(a.ctx)) }
func (a *App) CreateChat() (chat.Chat, error)  { return a.CreateChatWith("") }
func (a *App) RenameChat(id, title string) (chat.Chat, error) {
	return result(a.store.RenameChat(a.ctx, id, title))
}
func (a *App) DeleteChat(id string) error {
	a.engine.Stop(id)
	return toAPI(a.store.DeleteChat(a.ctx, id))
}
func (a *App) ListMessages(chatID string) ([]chat.Message, error) {
	return result(a.store.ListMessages(a.ctx, chatID))
}

// GetMessage returns a message; one still streaming comes with all the text
// received so far, so a UI that missed a delta can catch up.
func (a *App) GetMessage(id string) (chat.Message, error) {
	if m, ok := a.engine.Live(id); ok {
		return m, nil
	}
	return result(a.store.GetMessage(a.ctx, id))
}
func (a *App) Send(chatID, text string) ([]chat.Message, error) {
	return result(a.engine.Send(a.ctx, chatID, text))
}
func (a *App) Stop(chatID string) { a.engine.Stop(chatID) }
func (a *App) Retry(chatID string) (chat.Message, error) {
	return result(a.engine.Retry(a.ctx, chatID))
}
func (a *App) ActiveStreams() []string { return a.engine.Active() }

// --- settings and providers ---------------------------------------------------

func (a *App) GetSettings() (chat.Settings, error) {
	s, err := a.store.GetSettings(a.ctx)
	return a.withDefaultAgent(s), toAPI(err)
}

func (a *App) SaveSettings(s chat.Settings) (chat.Settings, error) {
	if s.Temperature > 2 {
		return s, toAPI(chat.Errorf("invalid_temperature", chat.ErrInvalid, "Temperature must be between 0 and 2."))
	}
	if !slices.Contains([]string{"auto", "en", "zh"}, s.Language) {
		return s, toAPI(chat.Errorf("invalid_language", chat.ErrInvalid, "Unknown language %q.", s.Language))
	}
	if !slices.Contains([]string{"system", "light", "dark"}, s.Theme) {
		return s, toAPI(chat.Errorf("invalid_theme", chat.ErrInvalid, "Unknown theme %q.", s.Theme))
	}
	if _, err := a.store.GetProvider(a.ctx, s.ActiveProviderID); err != nil {
		return s, toAPI(chat.Errorf("unknown_provider", chat.ErrInvalid, "The chosen provider no longer exists."))
	}
	if err := a.store.SaveSettings(a.ctx, s); err != nil {
		return s, toAPI(err)
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
		return p, toAPI(chat.Errorf("read_only", chat.ErrInvalid, "This provider comes from AIRLOCK_BASE_URL; change the environment instead."))
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
		return "", err
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

func (a *App) client(p chat.Provider) *llm.Client {
	return llm.New(llm.Config{BaseURL: p.BaseURL, APIKey: p.APIKey, Model: p.Model})
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
			return p, nil, chat.Errorf("no_model", chat.ErrInvalid, "No model is chosen for %s, and its server lists none. Pick one with the model chip at the top of the chat.", p.Name)
		}
		p.Model = models[0]
	}
	return p, a.client(p), nil
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
