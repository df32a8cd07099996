// Command mockllm runs Airlock's scripted demo model as a standalone
// OpenAI-compatible server, for trying the app against it
// (AIRLOCK_BASE_URL=<printed URL>) or poking it with curl:
//
//	go run ./cmd/mockllm -addr 127.0.0.1:8089 -delay 20ms
//	curl -N http://127.0.0.1:8089/v1/chat/completions \
//	  -d '{"model":"airlock-demo","stream":true,"messages":[{"role":"user","content":"think"}]}'
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"airlock/backend/demomodel"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8089", "listen address (port 0 picks a free port)")
	delay := flag.Duration("delay", 20*time.Millisecond, "pause between streamed chunks")
	key := flag.String("key", "", "if set, require this API key (Authorization: Bearer KEY)")
	models := flag.String("models", strings.Join(demomodel.DefaultModels(), ","), "comma-separated model names to offer")
	flag.Parse()

	opts := demomodel.Options{ChunkDelay: *delay, APIKey: *key, Models: strings.Split(*models, ",")}
	baseURL, shutdown, err := demomodel.Start(*addr, opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(baseURL)
	fmt.Fprintf(os.Stderr, "mockllm: serving %s at %s (Ctrl-C to stop)\n", strings.Join(opts.Models, ", "), baseURL)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := shutdown(sctx); err != nil {
		log.Fatal(err)
	}
}
