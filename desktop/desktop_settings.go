package desktop

import (
	"os"
	goruntime "runtime"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/chat"
)

// followSettings makes the native parts follow saved settings: the menu bar
// is rebuilt in the chosen language, and the window follows the theme where
// Wails can set it (the title bar on Windows; GTK keeps the system's look).
// Not on Linux: there Wails v2's SetApplicationMenu builds a new GTK menu bar
// it never shows and adds a second accelerator group (shortcuts would fire
// twice), so the menu takes the language at the next start.
func (d *Desktop) FollowSettings(s chat.Settings) {
	d.mu.Lock()
	ctx := d.ctx
	d.mu.Unlock()
	if ctx == nil {
		return
	}
	if menuRebuilds(goruntime.GOOS) {
		runtime.MenuSetApplicationMenu(ctx, AppMenu(d, MenuLanguage(s.Language, os.Getenv)))
		runtime.MenuUpdateApplicationMenu(ctx)
	}
	switch s.Theme {
	case "dark":
		runtime.WindowSetDarkTheme(ctx)
	case "light":
		runtime.WindowSetLightTheme(ctx)
	default:
		runtime.WindowSetSystemDefaultTheme(ctx)
	}
}

// menuRebuilds says whether the menu bar can be replaced while running.
func menuRebuilds(goos string) bool { return goos == "windows" || goos == "darwin" }
