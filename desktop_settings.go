package main

import (
	"os"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/chat"
)

// followSettings makes the native parts follow saved settings: the menu bar
// is rebuilt in the chosen language, and the window follows the theme where
// Wails can set it (the title bar on Windows; GTK keeps the system's look).
func (d *desktop) followSettings(s chat.Settings) {
	d.mu.Lock()
	ctx := d.ctx
	d.mu.Unlock()
	if ctx == nil {
		return
	}
	runtime.MenuSetApplicationMenu(ctx, appMenu(d, menuLanguage(s.Language, os.Getenv)))
	runtime.MenuUpdateApplicationMenu(ctx)
	switch s.Theme {
	case "dark":
		runtime.WindowSetDarkTheme(ctx)
	case "light":
		runtime.WindowSetLightTheme(ctx)
	default:
		runtime.WindowSetSystemDefaultTheme(ctx)
	}
}
