// Airlock: a desktop chat client where the model proposes tool calls and a
// person approves each one. This is the composition root.
package main

import (
	"context"
	"embed"
	"fmt"
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"airlock/backend/llm/mockllm"
	"airlock/backend/store"
)

//go:embed all:frontend/dist
var assets embed.FS

// version is stamped at build time: -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "airlock:", err)
		os.Exit(1)
	}
}

func run() error {
	dataDir, err := store.DefaultDir()
	if err != nil {
		return fmt.Errorf("finding the data folder: %w", err)
	}
	st, err := store.OpenDir(dataDir)
	if err != nil {
		return fmt.Errorf("opening the database in %s: %w", dataDir, err)
	}
	defer st.Close()

	// Answers that were streaming when the app last died are interrupted:
	// their text so far is kept and the UI offers Retry.
	if _, err := st.InterruptStreaming(context.Background()); err != nil {
		return fmt.Errorf("recovering interrupted answers: %w", err)
	}

	// The demo model is a real OpenAI-compatible server on loopback, so a
	// first run works with no API key and exercises the same code as any provider.
	demoURL, stopDemo, err := mockllm.Start("127.0.0.1:0", mockllm.Options{ChunkDelay: 20 * time.Millisecond})
	if err != nil {
		return fmt.Errorf("starting the demo model: %w", err)
	}
	defer stopDemo(context.Background())

	app := NewApp(st, dataDir, demoURL, envProvider())
	return wails.Run(&options.App{
		Title:            "Airlock",
		Width:            1280,
		Height:           800,
		MinWidth:         900,
		MinHeight:        600,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 248, G: 249, B: 251, A: 255},
		OnStartup:        app.startup,
		OnShutdown:       app.shutdown,
		Bind:             []any{app},
		Linux:            &linux.Options{ProgramName: "airlock"},
	})
}
