package desktop

import (
	"context"
	"encoding/json"
	"os"
	goruntime "runtime"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/store"
)

// The main window's size limits and its size on first start.
const (
	defaultWidth  = 1280
	defaultHeight = 800
	MinWidth      = 900
	MinHeight     = 600
	maxDimension  = 16384 // larger saved values are corrupt, not a real screen
)

// windowStateKey is where the geometry lives in the store's key/value settings.
const windowStateKey = "window.geometry"

// Geometry is the main window's last normal (not maximised) size and
// position, and whether it was maximised.
type Geometry struct {
	Width     int  `json:"width"`
	Height    int  `json:"height"`
	X         int  `json:"x"`
	Y         int  `json:"y"`
	Placed    bool `json:"placed"` // X and Y are known
	Maximised bool `json:"maximised"`
}

func defaultGeometry() Geometry {
	return Geometry{Width: defaultWidth, Height: defaultHeight}
}

// sane repairs a saved geometry: a size out of range falls back to the
// default (or the minimum when just too small), an absurd position is dropped.
func (g Geometry) sane() Geometry {
	if g.Width <= 0 || g.Width > maxDimension || g.Height <= 0 || g.Height > maxDimension {
		g.Width, g.Height = defaultWidth, defaultHeight
	}
	g.Width, g.Height = max(g.Width, MinWidth), max(g.Height, MinHeight)
	if g.X < -maxDimension || g.X > maxDimension || g.Y < -maxDimension || g.Y > maxDimension {
		g.X, g.Y, g.Placed = 0, 0, false
	}
	return g
}

// fitScreen shrinks the window to the screen (never below the minimum size)
// and moves it so that it lies on the screen: a window saved on a larger or
// detached monitor comes back where it can be seen and grabbed.
func (g Geometry) fitScreen(screenW, screenH int) Geometry {
	if screenW <= 0 || screenH <= 0 {
		return g
	}
	g.Width = max(min(g.Width, screenW), MinWidth)
	g.Height = max(min(g.Height, screenH), MinHeight)
	if g.Placed {
		g.X = max(min(g.X, screenW-g.Width), 0)
		g.Y = max(min(g.Y, screenH-g.Height), 0)
	}
	return g
}

// parseGeometry reads a stored value; anything unreadable is the default.
func parseGeometry(s string) Geometry {
	g := defaultGeometry()
	if s == "" || json.Unmarshal([]byte(s), &g) != nil {
		return defaultGeometry()
	}
	return g.sane()
}

func LoadGeometry(ctx context.Context, st *store.Store) Geometry {
	v, ok, err := st.GetValue(ctx, windowStateKey)
	if err != nil || !ok {
		return defaultGeometry()
	}
	return parseGeometry(v)
}

func saveGeometry(ctx context.Context, st *store.Store, g Geometry) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	return st.SetValue(ctx, windowStateKey, string(b))
}

// positionsWork says whether the windowing system lets an app place its
// window. Wayland does not (GTK reports 0,0 and ignores moves); Wails uses
// X11 unless the session is Wayland.
func positionsWork() bool {
	if goruntime.GOOS != "linux" {
		return true
	}
	return os.Getenv("GDK_BACKEND") == "x11" || os.Getenv("WAYLAND_DISPLAY") == ""
}

// currentScreen is the logical size of the screen the window is on.
func currentScreen(ctx context.Context) (w, h int) {
	screens, err := runtime.ScreenGetAll(ctx)
	if err != nil || len(screens) == 0 {
		return 0, 0
	}
	pick := screens[0]
	for _, s := range screens {
		if s.IsCurrent {
			pick = s
			break
		}
		if s.IsPrimary {
			pick = s
		}
	}
	if pick.Size.Width > 0 {
		return pick.Size.Width, pick.Size.Height
	}
	return pick.Width, pick.Height
}

// captureGeometry reads the live window. While maximised, full screen or
// minimised the normal size and position are not readable, so the previous
// ones are kept and only the maximised flag changes.
func captureGeometry(ctx context.Context, prev Geometry) Geometry {
	g := prev
	if runtime.WindowIsMinimised(ctx) {
		return g
	}
	if runtime.WindowIsMaximised(ctx) || runtime.WindowIsFullscreen(ctx) {
		g.Maximised = true
		return g
	}
	g.Maximised = false
	g.Width, g.Height = runtime.WindowGetSize(ctx)
	if positionsWork() {
		g.X, g.Y = runtime.WindowGetPosition(ctx)
		g.Placed = true
	}
	return g.sane()
}
