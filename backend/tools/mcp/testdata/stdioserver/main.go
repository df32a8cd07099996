// Command stdioserver is an MCP server over stdio for the mcp package's
// tests; its behaviour is chosen by flags.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	hang := flag.Bool("hang", false, "never answer, ignore SIGTERM and the end of stdin")
	exitAtStart := flag.Bool("exit-at-start", false, "write noise and the TOKEN to stderr, then exit 1")
	failIfExists := flag.String("fail-if-exists", "", "exit 1 at start when this file exists; create it otherwise")
	hugeList := flag.Bool("huge-list", false, "list a tool whose description is 20 MB (over the client's frame limit)")
	hugeInit := flag.Bool("huge-init", false, "answer initialize with 20 MB of instructions")
	flag.Parse()

	if f := os.Getenv("PIDFILE"); f != "" {
		_ = os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	if *hang {
		signal.Ignore(syscall.SIGTERM)
		for {
			time.Sleep(time.Hour) // a bare select{} would be a detected deadlock
		}
	}
	if *exitAtStart {
		fmt.Fprint(os.Stderr, strings.Repeat("noise noise noise noise noise\n", 400))
		fmt.Fprintf(os.Stderr, "fatal: the API rejected TOKEN=%s\n", os.Getenv("TOKEN"))
		os.Exit(1)
	}
	if *failIfExists != "" {
		if _, err := os.Stat(*failIfExists); err == nil {
			fmt.Fprintln(os.Stderr, "refusing to start twice")
			os.Exit(1)
		}
		_ = os.WriteFile(*failIfExists, nil, 0o644)
	}

	opts := &mcp.ServerOptions{Instructions: "Use echo to repeat things."}
	if *hugeInit {
		opts = &mcp.ServerOptions{Instructions: strings.Repeat("x", 20<<20)}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "stdioserver", Version: "0.1"}, opts)
	obj := json.RawMessage(`{"type":"object"}`)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: obj}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("echo: " + string(req.Params.Arguments)), nil
	})
	s.AddTool(&mcp.Tool{Name: "crash", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "panic: the crash tool was called")
		os.Exit(3)
		return nil, nil
	})
	s.AddTool(&mcp.Tool{Name: "spawn", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		cmd := exec.Command("sleep", "300")
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return text(strconv.Itoa(cmd.Process.Pid)), nil
	})
	s.AddTool(&mcp.Tool{Name: "spawn_setsid", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// A helper in a session (and process group) of its own: a group
		// kill does not reach it.
		cmd := exec.Command("setsid", "sleep", "300")
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return text(strconv.Itoa(cmd.Process.Pid)), nil
	})
	s.AddTool(&mcp.Tool{Name: "spawn_orphan", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// setsid -f forks and its parent exits at once: the helper is an
		// orphan in its own session, no longer a descendant of the server.
		pidFile := filepath.Join(os.TempDir(), fmt.Sprintf("airlock-orphan-%d", os.Getpid()))
		if err := exec.Command("setsid", "-f", "sh", "-c", `echo $$ > "$0"; exec sleep 300`, pidFile).Run(); err != nil {
			return nil, err
		}
		for range 100 {
			if data, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(data), "\n") {
				os.Remove(pidFile)
				return text(strings.TrimSpace(string(data))), nil
			}
			time.Sleep(20 * time.Millisecond)
		}
		return nil, fmt.Errorf("the orphan did not write its pid")
	})
	if *hugeList {
		s.AddTool(&mcp.Tool{Name: "huge", Description: strings.Repeat("x", 20<<20), InputSchema: obj},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("huge"), nil })
	}
	s.AddTool(&mcp.Tool{Name: "where", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		dir, _ := os.Getwd()
		return text(dir + " " + os.Getenv("GREETING")), nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
