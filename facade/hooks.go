package facade

import (
	"context"
	"log/slog"
	"os"

	"airlock/backend/chat"
	"airlock/desktop"
)

// Version is stamped by main (git describe at build time, "dev" otherwise).
var Version = "dev"

// Hooks are the calls main makes around the App's life: start, stop, the
// late database check. They live on their own type, not on App, because
// Wails binds every exported method of App to the page.
type Hooks struct{ a *App }

// HooksOf gives main the life-cycle calls of a.
func HooksOf(a *App) Hooks { return Hooks{a} }

func (h Hooks) Startup(ctx context.Context)  { h.a.startup(ctx) }
func (h Hooks) Shutdown(ctx context.Context) { h.a.shutdown(ctx) }

// CheckDatabase runs the page check the store left for later.
func (h Hooks) CheckDatabase(ctx context.Context, log *slog.Logger) { h.a.checkDatabase(ctx, log) }

// Notice adds a sentence the UI shows once (before the page asks for Info).
func (h Hooks) Notice(s string) {
	h.a.noticesMu.Lock()
	h.a.notices = append(h.a.notices, s)
	h.a.noticesMu.Unlock()
}

// FollowSettings is told each saved Settings (the native menu's language and theme).
func (h Hooks) FollowSettings(f func(chat.Settings)) { h.a.settingsSaved = f }

// LogStart writes what the environment set for this run, and the active
// provider once a key kept in the keychain can be read.
func (h Hooks) LogStart(ctx context.Context, log *slog.Logger) {
	a := h.a
	if m := os.Getenv("AIRLOCK_TOOL_MODE"); m != "" && a.toolMode == "" {
		log.Warn("AIRLOCK_TOOL_MODE is ignored: use text, native or auto", "value", m)
	}
	if a.mcpEnvFile != "" {
		log.Info("MCP servers from AIRLOCK_MCP_CONFIG", "file", a.mcpEnvFile, "servers", len(a.mcpEnv), "err", a.mcpEnvErr)
	}
	go func() { // reading a key kept in the keychain waits for its answer
		if p, err := a.activeProvider(ctx); err != nil {
			log.Warn("no active provider", "err", err)
		} else {
			desktop.LogProvider(log, p, a.env != nil)
		}
	}()
}
