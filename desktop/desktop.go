package desktop

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/store"
)

// processStart is when the process began, for the startup time in the log.
var processStart = time.Now()

// desktop is the window's behaviour around the app: remembered geometry,
// the native menu, the single-instance hand-over.
type Desktop struct {
	store   *store.Store
	log     *slog.Logger
	dataDir string

	mu       sync.Mutex
	ctx      context.Context // Wails runtime context, from OnStartup
	geometry Geometry        // as loaded at start, then as last saved
	placed   sync.Once
}

func New(st *store.Store, log *slog.Logger, dataDir string, g Geometry) *Desktop {
	return &Desktop{store: st, log: log, dataDir: dataDir, geometry: g}
}

func (d *Desktop) SetContext(ctx context.Context) {
	d.mu.Lock()
	d.ctx = ctx
	d.mu.Unlock()
}

// context is the runtime context, nil before startup.
func (d *Desktop) context() context.Context {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ctx
}

// domReady puts the window back where it was (once: a page reload fires
// OnDomReady again). Wails has already centred it at the saved size.
func (d *Desktop) DomReady(ctx context.Context) {
	d.SetContext(ctx)
	d.placed.Do(func() {
		d.log.Info("window ready", "sinceStart", time.Since(processStart).Round(time.Millisecond).String())
		d.mu.Lock()
		g := d.geometry
		d.mu.Unlock()
		if g.Maximised {
			return
		}
		fit := g.fitScreen(currentScreen(ctx))
		if fit.Width != g.Width || fit.Height != g.Height {
			runtime.WindowSetSize(ctx, fit.Width, fit.Height)
		}
		if fit.Placed && positionsWork() {
			runtime.WindowSetPosition(ctx, fit.X, fit.Y)
		}
		d.log.Debug("window placed", "geometry", fit)
	})
}

// beforeClose saves the geometry; it runs for the close button, Quit in the
// menu and runtime.Quit. Returning false lets the window close.
func (d *Desktop) BeforeClose(ctx context.Context) bool {
	d.saveGeometry(ctx)
	return false
}

func (d *Desktop) saveGeometry(ctx context.Context) {
	d.mu.Lock()
	prev := d.geometry
	d.mu.Unlock()
	g := captureGeometry(ctx, prev)
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := saveGeometry(sctx, d.store, g); err != nil {
		d.log.Error("saving the window geometry", "err", err)
		return
	}
	d.mu.Lock()
	d.geometry = g
	d.mu.Unlock()
	b, _ := json.Marshal(g)
	d.log.Info("window geometry saved", "geometry", string(b))
}

// secondInstance runs when Airlock is started again on the same data
// folder: that process has exited; this window comes to the front.
func (d *Desktop) SecondInstance(data options.SecondInstanceData) {
	d.log.Info("second launch on this data folder; showing the window", "args", data.Args)
	ctx := d.context()
	if ctx == nil {
		return
	}
	runtime.WindowShow(ctx)
	runtime.WindowUnminimise(ctx) // GTK: gtk_window_present, which also raises and focuses
}

// quit closes the app the way the close button does.
func (d *Desktop) quit() {
	if ctx := d.context(); ctx != nil {
		runtime.Quit(ctx)
	}
}

// emit sends a UI event (see menu.go for the names).
func (d *Desktop) emit(name string) {
	if ctx := d.context(); ctx != nil {
		d.log.Info("menu", "event", name)
		runtime.EventsEmit(ctx, name)
	}
}

func (d *Desktop) execJS(js string) {
	if ctx := d.context(); ctx != nil {
		runtime.WindowExecJS(ctx, js)
	}
}

func (d *Desktop) clipboardText() string {
	ctx := d.context()
	if ctx == nil {
		return ""
	}
	s, err := runtime.ClipboardGetText(ctx)
	if err != nil {
		d.log.Warn("reading the clipboard", "err", err)
	}
	return s
}
