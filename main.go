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
	lockID := instanceID(dataDir)
	lock, handedOver, err := lockInstance(lockID)
	if handedOver {
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "airlock: already running on %s; brought its window to the front\n", dataDir)
		return nil
	}
	defer lock.close()
	singleInstance := lock != nil || wailsLockNeeded

	level := logLevel(os.Getenv("AIRLOCK_LOG_LEVEL"))
	log, closeLog, err := openLog(dataDir, level)
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
	log.Info("starting Airlock", "version", version, "dataDir", dataDir, "log", logFile(dataDir),
		"platform", goruntime.GOOS+"/"+goruntime.GOARCH, "pid", os.Getpid(), "singleInstance", singleInstance)

	st, dbNotice, err := openStore(dataDir, log)
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
		if moved, why := useKeychain(st, systemKeychain{}); why != nil {
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

	app := NewApp(st, dataDir, demoURL, envProvider(), log)
	if dbNotice != "" {
		app.notices = append(app.notices, dbNotice)
	}
	if m := os.Getenv("AIRLOCK_TOOL_MODE"); m != "" && app.toolMode == "" {
		log.Warn("AIRLOCK_TOOL_MODE is ignored: use text, native or auto", "value", m)
	}
	if app.mcpEnvFile != "" {
		log.Info("MCP servers from AIRLOCK_MCP_CONFIG", "file", app.mcpEnvFile, "servers", len(app.mcpEnv), "err", app.mcpEnvErr)
	}
	ctx := context.Background()
	go func() { // reading a key kept in the keychain waits for its answer
		if p, err := app.activeProvider(ctx); err != nil {
			log.Warn("no active provider", "err", err)
		} else {
			logProvider(log, p, app.env != nil)
		}
	}()
	lang := "auto"
	if s, err := st.GetSettings(ctx); err == nil {
		lang = s.Language
	}

	geometry := loadGeometry(ctx, st)
	desk := newDesktop(st, log, dataDir, geometry)
	app.settingsSaved = desk.followSettings
	startState := options.Normal
	if geometry.Maximised {
		startState = options.Maximised
	}
	lock.setHandler(desk.secondInstance)
	var wailsLock *options.SingleInstanceLock
	if wailsLockNeeded {
		wailsLock = &options.SingleInstanceLock{UniqueId: lockID, OnSecondInstanceLaunch: desk.secondInstance}
	}

	var checkDB sync.Once
	err = wails.Run(&options.App{
		Title:            "Airlock",
		Width:            geometry.Width,
		Height:           geometry.Height,
		MinWidth:         minWidth,
		MinHeight:        minHeight,
		WindowStartState: startState,
		Menu:             appMenu(desk, menuLanguage(lang, os.Getenv)),
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 248, G: 249, B: 251, A: 255},
		OnStartup: func(ctx context.Context) {
			desk.setContext(ctx)
			app.startup(ctx)
		},
		OnDomReady: func(ctx context.Context) {
			desk.domReady(ctx)
			// A database too large to check before the window opened is checked now.
			checkDB.Do(func() { go app.checkDatabase(ctx, log) })
		},
		OnBeforeClose:      desk.beforeClose,
		OnShutdown:         app.shutdown,
		Bind:               []any{app},
		SingleInstanceLock: wailsLock,
		Logger:             wailsLogger{log},
		LogLevel:           wailsLevel(level),
		LogLevelProduction: wailsLevel(level),
		// Errors returned by bound methods go to the log; the UI gets the
		// same string Wails would send without a formatter.
		ErrorFormatter: formatError(log),
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
