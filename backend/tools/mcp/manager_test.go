package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
)

// Both protocol eras: the 2026 stateless one (server/discover) and the
// initialize handshake that servers in the wild speak.
var eras = []struct {
	name   string
	legacy bool
}{{"current", false}, {"legacy", true}}

func TestListAndNames(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			m := startManager(t, newTestServer(t, era.legacy), Options{})
			got := toolNamesOf(m.Tools())
			want := []string{"mcp__test__echo", "mcp__test__fail", "mcp__test__slow", "mcp__test__count", "mcp__test__picture", "mcp__test__big"}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("tools = %v, want %v", got, want)
			}
			echo := toolNamed(t, m, "mcp__test__echo")
			if echo.Kind != tools.KindMCP || echo.Server != "test" || echo.Description != "Echo the text." {
				t.Errorf("echo = %+v", echo)
			}
			if !strings.Contains(string(echo.Parameters), `"text"`) {
				t.Errorf("echo parameters = %s", echo.Parameters)
			}
			// The whole set goes into a toolbox: every schema compiles.
			if _, err := tools.NewToolbox(m.Tools()...); err != nil {
				t.Fatal(err)
			}
			st, _ := m.ServerStatus("test")
			if st.Tools != 6 || st.ServerName != "test-server" || st.ServerVersion != "1.2.3" {
				t.Errorf("status = %+v", st)
			}
		})
	}
}

func TestInvalidInputSchemaIsLeftOutAndSaid(t *testing.T) {
	m := startManager(t, newTestServer(t, false), Options{})
	for _, tool := range m.Tools() {
		if strings.Contains(tool.Name, "broken_schema") {
			t.Fatalf("the tool with an invalid schema is offered: %s", tool.Parameters)
		}
	}
	st, _ := m.ServerStatus("test")
	if len(st.Problems) != 1 || !strings.Contains(st.Problems[0], `tool "broken_schema" is left out`) ||
		!strings.Contains(st.Problems[0], "not valid JSON Schema") {
		t.Errorf("problems = %q", st.Problems)
	}
}

func TestCall(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			m := startManager(t, newTestServer(t, era.legacy), Options{})
			out, err := run(t, toolNamed(t, m, "mcp__test__echo"), `{"text":"hi"}`)
			if err != nil || out.Text != "echo: hi" || out.IsError {
				t.Fatalf("echo = %+v, %v", out, err)
			}
			out, err = run(t, toolNamed(t, m, "mcp__test__fail"), ``)
			if err != nil || !out.IsError || out.Text != "the disk is full" {
				t.Fatalf("fail = %+v, %v", out, err)
			}
		})
	}
}

func TestProtocolErrorIsAnError(t *testing.T) {
	m := startManager(t, newTestServer(t, false), Options{})
	echo := toolNamed(t, m, "mcp__test__echo")
	ghost := echo
	ghost.Run = func(ctx context.Context, env tools.Env, args json.RawMessage) (tools.Output, error) {
		s, _ := m.find("test")
		return s.call(ctx, remoteTool{name: "mcp__test__ghost", remote: "ghost"}, args)
	}
	_, err := run(t, ghost, `{}`)
	if err == nil || !strings.Contains(err.Error(), `the MCP server "test" could not run ghost`) {
		t.Fatalf("err = %v", err)
	}
	if st, _ := m.ServerStatus("test"); st.State != StateReady {
		t.Errorf("a refused call must not fail the server: %+v", st)
	}
}

func TestCancelReachesServer(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			ts := newTestServer(t, era.legacy)
			m := startManager(t, ts, Options{})
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := toolNamed(t, m, "mcp__test__slow").Run(ctx, tools.Env{}, json.RawMessage(`{}`))
				errc <- err
			}()
			waitFor(t, ts.started, "the slow tool to start")
			cancel()
			waitFor(t, ts.cancelled, "the server to see notifications/cancelled")
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			// The session is still usable.
			if out, err := run(t, toolNamed(t, m, "mcp__test__echo"), `{"text":"after"}`); err != nil || out.Text != "echo: after" {
				t.Errorf("after cancel: %+v, %v", out, err)
			}
		})
	}
}

func TestStopCancelsCallsInFlight(t *testing.T) {
	ts := newTestServer(t, false)
	m := startManager(t, ts, Options{})
	errc := make(chan error, 1)
	go func() {
		_, err := run(t, toolNamed(t, m, "mcp__test__slow"), `{}`)
		errc <- err
	}()
	waitFor(t, ts.started, "the slow tool to start")
	start := time.Now()
	if err := m.Stop("test"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Stop took %s with a call in flight", d)
	}
	err := <-errc
	if err == nil || !strings.Contains(err.Error(), `the MCP server "test" was stopped while running slow`) {
		t.Errorf("err = %v", err)
	}
	if len(m.Tools()) != 0 {
		t.Errorf("a stopped server offers %v", toolNamesOf(m.Tools()))
	}
	if st, _ := m.ServerStatus("test"); st.State != StateStopped || st.Reason != "stopped" {
		t.Errorf("status = %+v", st)
	}
	if err := m.Restart(context.Background(), "test"); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, toolNamed(t, m, "mcp__test__echo"), `{"text":"back"}`); err != nil || out.Text != "echo: back" {
		t.Errorf("after restart: %+v, %v", out, err)
	}
}

func TestOutputSchemaCheck(t *testing.T) {
	m := startManager(t, newTestServer(t, false), Options{})
	count := toolNamed(t, m, "mcp__test__count")
	out, err := run(t, count, `{}`)
	if err != nil || out.IsError || out.Text != `{"count":3}` || string(out.Structured) != `{"count":3}` {
		t.Fatalf("matching = %+v, %v", out, err)
	}
	out, err = run(t, count, `{"wrong":true}`)
	if err != nil {
		t.Fatal(err)
	}
	if out.IsError || string(out.Structured) != `{"count":"three"}` {
		t.Errorf("mismatching = %+v", out)
	}
	// No text content: the model reads the structured result, then the note.
	if !strings.HasPrefix(out.Text, `{"count":"three"}`) ||
		!strings.Contains(out.Text, "does not match the tool's output schema: at /count:") {
		t.Errorf("text = %q", out.Text)
	}
}

func TestImageAndResources(t *testing.T) {
	m := startManager(t, newTestServer(t, false), Options{})
	out, err := run(t, toolNamed(t, m, "mcp__test__picture"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Images) != 1 || out.Images[0].MIME != "image/png" || string(out.Images[0].Data) != string(pngPixel) {
		t.Fatalf("images = %+v", out.Images)
	}
	for _, want := range []string{
		"here it is",
		"[image returned (image/png, 67 bytes): it is shown to the person on the card; you cannot see it]",
		"[resource link: a.png <file:///tmp/a.png> (image/png)]",
		"[resource mem://note (text/plain)]:\na note",
	} {
		if !strings.Contains(out.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, out.Text)
		}
	}
}

func TestResultCap(t *testing.T) {
	m := startManager(t, newTestServer(t, false), Options{MaxResultBytes: 1 << 20})
	out, err := run(t, toolNamed(t, m, "mcp__test__big"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Text) > 1<<20+1024 {
		t.Errorf("text is %d bytes", len(out.Text))
	}
	if !strings.HasSuffix(out.Text, "[Airlock: the result was 10.0 MB; only its first 1.0 MB is kept]") {
		t.Errorf("text ends %q", out.Text[len(out.Text)-200:])
	}
	if !strings.Contains(out.Text, "[an image (image/png, 67 bytes) is left out: results are capped at 1.0 MB]") {
		t.Error("the image over the cap is not said to be left out")
	}
	if len(out.Images) != 0 {
		t.Errorf("%d images kept past the cap", len(out.Images))
	}
	body := strings.Split(out.Text, "\n")[0]
	if strings.Trim(body, "é") != "" || len(body)%2 != 0 {
		t.Error("the text was not cut at a character boundary")
	}
}

func TestToolListChangeRefreshes(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			ts := newTestServer(t, era.legacy)
			changes := make(chan struct{}, 16)
			m := startManager(t, ts, Options{OnChange: func() { changes <- struct{}{} }})
			ts.srv.AddTool(&sdk.Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
					return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil
				})
			deadline := time.After(5 * time.Second)
			for !slices.Contains(toolNamesOf(m.Tools()), "mcp__test__late") {
				select {
				case <-changes:
				case <-deadline:
					t.Fatalf("the new tool never appeared: %v", toolNamesOf(m.Tools()))
				}
			}
			if out, err := run(t, toolNamed(t, m, "mcp__test__late"), `{}`); err != nil || out.Text != "late" {
				t.Errorf("late = %+v, %v", out, err)
			}
		})
	}
}

func TestConfigureKeepsRestartsAndRemoves(t *testing.T) {
	ts := newTestServer(t, false)
	m := startManager(t, ts, Options{})
	s1, _ := m.find("test")
	cfg := ServerConfig{Name: "test", Enabled: true, URL: "http://in-process.invalid"}
	if err := m.Configure([]ServerConfig{cfg}); err != nil {
		t.Fatal(err)
	}
	if s2, _ := m.find("test"); s2 != s1 {
		t.Error("an unchanged config restarted the server")
	}
	cfg.Enabled = false
	if err := m.Configure([]ServerConfig{cfg, {Name: "bad name"}}); err == nil {
		t.Error("an invalid config was accepted")
	}
	if err := m.Configure([]ServerConfig{cfg}); err != nil {
		t.Fatal(err)
	}
	if st, _ := m.ServerStatus("test"); st.State != StateStopped || st.Reason != "disabled" || len(m.Tools()) != 0 {
		t.Errorf("disabled: %+v, %v", st, toolNamesOf(m.Tools()))
	}
	if err := m.Configure(nil); err != nil {
		t.Fatal(err)
	}
	if len(m.Status()) != 0 {
		t.Errorf("status after removing all: %+v", m.Status())
	}
}

func TestServerClosingConnectionRestartsOnNextCall(t *testing.T) {
	ts := newTestServer(t, false)
	var mu sync.Mutex
	var serverSides []*sdk.ServerSession
	m := NewManager(Options{Transport: func(ServerConfig) (sdk.Transport, error) {
		a, b := sdk.NewInMemoryTransports()
		ss, err := ts.srv.Connect(context.Background(), a, nil)
		mu.Lock()
		serverSides = append(serverSides, ss)
		mu.Unlock()
		return b, err
	}})
	defer m.Close()
	if err := m.Configure([]ServerConfig{{Name: "test", Enabled: true, URL: "http://x.invalid"}}); err != nil {
		t.Fatal(err)
	}
	if err := m.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	echo := toolNamed(t, m, "mcp__test__echo")
	mu.Lock()
	first := serverSides[0]
	mu.Unlock()
	_ = first.Close()
	waitUntil(t, func() bool { st, _ := m.ServerStatus("test"); return st.RestartsOnUse }, "the server to be seen gone")
	st, _ := m.ServerStatus("test")
	if st.State != StateFailed || !strings.Contains(st.Reason, "stopped unexpectedly") || st.Tools == 0 || len(m.Tools()) == 0 {
		t.Errorf("status after the server left = %+v", st)
	}
	if out, err := run(t, echo, `{"text":"again"}`); err != nil || out.Text != "echo: again" {
		t.Fatalf("call after the server left = %+v, %v", out, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(serverSides) != 2 {
		t.Errorf("%d connections, want 2", len(serverSides))
	}
}

func waitFor(t *testing.T, c <-chan string, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A message over the SDK's 16 MB frame limit ends the connection; the call
// says why, and the next call reconnects.
func TestOversizedMessage(t *testing.T) {
	ts := newTestServer(t, false)
	ts.srv.AddTool(&sdk.Tool{Name: "huge", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("x", 20<<20)}}}, nil
		})
	m := startManager(t, ts, Options{})
	_, err := run(t, toolNamed(t, m, "mcp__test__huge"), `{}`)
	if err == nil || err.Error() != `the MCP server "test" stopped while running huge (it sent a message over 16 MB, more than Airlock reads)` {
		t.Fatalf("err = %v", err)
	}
	if out, err := run(t, toolNamed(t, m, "mcp__test__echo"), `{"text":"x"}`); err != nil || out.Text != "echo: x" {
		t.Errorf("after: %+v, %v", out, err)
	}
}
