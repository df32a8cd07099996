package facade

import (
	"context"
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
	"airlock/backend/tools/code"
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
	models        modelLists // the model picker's lists (agents.go)
	// Questions MCP servers ask while their tools run, and the progress
	// they report (questions.go).
	qs         questions
	progressMu sync.Mutex
	progressAt map[string]time.Time
	signIns    signIns // mcp_signin.go
	// vision keeps what servers say of their models' vision (vision.go).
	vision llm.VisionCache
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
	a.mcp = mcp.NewManager(mcp.Options{OnChange: a.mcpChanged, Logger: log, ClientName: "airlock", ClientVersion: Version,
		Elicit: a.elicit, OnProgress: a.progress, OAuth: a.mcpOAuth})
	a.mcpEnvFile, a.mcpEnv, a.mcpEnvErr = mcpEnv()
	fixed := append(files.Tools(), code.Tools(code.Config{Limits: a.codeLimits})...)
	catalog, err := tools.NewCatalog(append(fixed, tools.Builtins()...), a.mcp.Tools)
	if err != nil {
		panic(err) // the built-in specs are constants: a bad one is a programming error caught by tests
	}
	a.tools = catalog
	a.workspaces = workspace.NewManager(st)
	a.engine = engine.New(engine.Deps{Store: st, Connect: a.connect, Emit: a.emit, EnvFor: a.envFor,
		Tools:  func(c chat.Chat) *tools.Toolbox { return catalog.For(c.MCPServers) },
		Window: a.engineWindow, Provider: a.chatProvider, Instructions: a.chatInstructions,
		Vision: a.serverVision})
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
	// Chats in the Trash for 30 days go, now and every hour (trash.go).
	go a.keepTrash(ctx, trashPurgeEvery)
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

// EnvProvider reads the provider override used by tests and power users.
func EnvProvider() *chat.Provider {
	base := strings.TrimSpace(os.Getenv("AIRLOCK_BASE_URL"))
	if base == "" {
		return nil
	}
	kind, name := envKind(os.Getenv("AIRLOCK_API_KIND"))
	return &chat.Provider{ID: chat.EnvProviderID, Name: name, BaseURL: base, Kind: kind,
		APIKey: os.Getenv("AIRLOCK_API_KEY"), Model: strings.TrimSpace(os.Getenv("AIRLOCK_MODEL"))}
}

// --- app ------------------------------------------------------------------

func (a *App) Info() AppInfo {
	a.noticesMu.Lock()
	notices := slices.Clone(a.notices)
	a.noticesMu.Unlock()
	return AppInfo{Version: Version, DataDir: a.dataDir, EnvProvider: a.env != nil, Notices: notices,
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
