// Airlock: a desktop chat client where the model proposes tool calls and a
// person approves each one. This is the composition root.
package main

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"airlock/backend/demomodel"
	"airlock/backend/store"
	"airlock/desktop"
	"airlock/facade"
)

//go:embed all:frontend/dist
var assets embed.FS

// windowIcon is the GTK window icon (taskbars that do not find the .desktop file).
//
//go:embed build/linux/icons/hicolor/256x256/apps/airlock.png
var windowIcon []byte

// version is stamped at build time: -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "airlock:", err)
		os.Exit(1)
	}
}

func run() (err error) {
	dataDir, err := store.DefaultDir()
	if err != nil {
		return fmt.Errorf("finding the data folder: %w", err)
	}
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return fmt.Errorf("creating the data folder %s: %w", dataDir, err)
	}

	// One app per data folder. A second launch hands over to the running
	// one before it touches the database (it must not, for example, mark
	// the first one's streaming answers as interrupted) and exits.
	lockID := desktop.InstanceID(dataDir)
	lock, handedOver, err := desktop.LockInstance(lockID)
	if handedOver {
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "airlock: already running on %s; brought its window to the front\n", dataDir)
		return nil
	}
	defer lock.Close()
	singleInstance := lock != nil || desktop.WailsLockNeeded

	level := desktop.LogLevel(os.Getenv("AIRLOCK_LOG_LEVEL"))
	log, closeLog, err := desktop.OpenLog(dataDir, level)
	if err != nil {
		return fmt.Errorf("opening the log in %s: %w", dataDir, err)
	}
	defer closeLog()
	defer func() {
		if p := recover(); p != nil {
			log.Error("panic", "panic", p)
			panic(p)
		}
		if err != nil {
			log.Error("Airlock stopped with an error", "err", err)
		}
	}()
	log.Info("starting Airlock", "version", version, "dataDir", dataDir, "log", desktop.LogFile(dataDir),
		"platform", goruntime.GOOS+"/"+goruntime.GOARCH, "pid", os.Getpid(), "singleInstance", singleInstance)

	st, dbNotice, err := desktop.OpenStore(dataDir, log)
	if err != nil {
		return fmt.Errorf("opening the database in %s: %w", dataDir, err)
	}
	defer st.Close()
	// API keys live in the system keychain when one answers; else they stay
	// in the owner-only database and Settings says so. Asked while the window
	// opens (a keychain may take a while to start, or prompt to unlock); key
	// access waits for the answer.
	st.DeferKeyring()
	go func() {
		if moved, why := desktop.UseKeychain(st, desktop.SystemKeychain{}); why != nil {
			log.Warn("no system keychain: API keys stay in the database (owner-only)", "why", why)
		} else {
			log.Info("API keys are kept in the system keychain", "moved", moved)
		}
	}()

	// Answers that were streaming when the app last died are interrupted:
	// their text so far is kept and the UI offers Retry.
	if n, err := st.InterruptStreaming(context.Background()); err != nil {
		return fmt.Errorf("recovering interrupted answers: %w", err)
	} else if n > 0 {
		log.Info("answers interrupted by the last exit were marked", "count", n)
	}

	// The demo model is a real OpenAI-compatible server on loopback, so a
	// first run works with no API key and exercises the same code as any provider.
	demoURL, stopDemo, err := demomodel.Start("127.0.0.1:0", demomodel.Options{ChunkDelay: 20 * time.Millisecond})
	if err != nil {
		return fmt.Errorf("starting the demo model: %w", err)
	}
	defer stopDemo(context.Background())

	facade.Version = version
	facadeApp := facade.NewApp(st, dataDir, demoURL, facade.EnvProvider(), log)
	app, hooks := &App{facadeApp}, facade.HooksOf(facadeApp)
	if dbNotice != "" {
		hooks.Notice(dbNotice)
	}
	ctx := context.Background()
	hooks.LogStart(ctx, log)
	lang := "auto"
	if s, err := st.GetSettings(ctx); err == nil {
		lang = s.Language
	}

	geometry := desktop.LoadGeometry(ctx, st)
	desk := desktop.New(st, log, dataDir, geometry)
	hooks.FollowSettings(desk.FollowSettings)
	startState := options.Normal
	if geometry.Maximised {
		startState = options.Maximised
	}
	lock.SetHandler(desk.SecondInstance)
	var wailsLock *options.SingleInstanceLock
	if desktop.WailsLockNeeded {
		wailsLock = &options.SingleInstanceLock{UniqueId: lockID, OnSecondInstanceLaunch: desk.SecondInstance}
	}

	var checkDB sync.Once
	err = wails.Run(&options.App{
		Title:            "Airlock",
		Width:            geometry.Width,
		Height:           geometry.Height,
		MinWidth:         desktop.MinWidth,
		MinHeight:        desktop.MinHeight,
		WindowStartState: startState,
		Menu:             desktop.AppMenu(desk, desktop.MenuLanguage(lang, os.Getenv)),
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 248, G: 249, B: 251, A: 255},
		OnStartup: func(ctx context.Context) {
			desk.SetContext(ctx)
			hooks.Startup(ctx)
		},
		OnDomReady: func(ctx context.Context) {
			desk.DomReady(ctx)
			// A database too large to check before the window opened is checked now.
			checkDB.Do(func() { go hooks.CheckDatabase(ctx, log) })
		},
		OnBeforeClose:      desk.BeforeClose,
		OnShutdown:         hooks.Shutdown,
		Bind:               []any{app},
		SingleInstanceLock: wailsLock,
		Logger:             desktop.NewWailsLogger(log),
		LogLevel:           desktop.WailsLevel(level),
		LogLevelProduction: desktop.WailsLevel(level),
		// Errors returned by bound methods go to the log; the UI gets the
		// same string Wails would send without a formatter.
		ErrorFormatter: desktop.FormatError(log),
		// GPU policy Never: with WebKitGTK's on-demand policy our page (its
		// backdrop blur) enters accelerated compositing, which under software GL
		// cost the web process about 130 MB of PSS and 50 ms of CPU a second just
		// to blink the composer's caret (make bench-ui). A chat UI paints fine
		// without it.
		Linux: &linux.Options{ProgramName: "airlock", Icon: windowIcon, WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
	})
	if err != nil {
		return err
	}
	log.Info("Airlock stopped")
	return nil
}
