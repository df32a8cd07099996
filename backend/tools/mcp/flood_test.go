package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
)

// tapTransport hands the test the server side's connection, so it can
// write raw messages a well-behaved SDK server would never send.
type tapTransport struct {
	sdk.Transport
	conns chan sdk.Connection
}

func (t tapTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err == nil {
		t.conns <- c
	}
	return c, err
}

// floodServer is the fixture server, counting its tools/list calls, with
// its connection exposed.
func floodServer(t *testing.T) (*testServer, *atomic.Int64, func(ServerConfig) (sdk.Transport, error), chan sdk.Connection) {
	ts := newTestServer(t, true)
	var lists atomic.Int64
	ts.srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				lists.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	conns := make(chan sdk.Connection, 4)
	connect := ts.connectVia(t, func(tr sdk.Transport) sdk.Transport { return tapTransport{tr, conns} })
	return ts, &lists, connect, conns
}

// rssKB is the process's resident set and its peak, from /proc (0 elsewhere).
func rssKB() (now, peak int) {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "VmRSS:" {
			now, _ = strconv.Atoi(f[1])
		}
		if len(f) >= 2 && f[0] == "VmHWM:" {
			peak, _ = strconv.Atoi(f[1])
		}
	}
	return now, peak
}

func floodCount() int {
	if n, err := strconv.Atoi(os.Getenv("AIRLOCK_MCP_FLOOD")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// A server that announces tools/list_changed 100,000 times (and sends as
// many log lines) costs a bounded number of goroutines and list calls:
// refreshes are coalesced (one running, one pending), notifications and
// log lines beyond the caps per second are dropped and counted, and a
// change announced in the flood is still read.
func TestNotificationFloodIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("floods a server")
	}
	ts, lists, connect, conns := floodServer(t)
	m := NewManager(Options{Transport: connect})
	t.Cleanup(func() { m.Close() })
	if err := m.Configure([]ServerConfig{{Name: "flood", Enabled: true, URL: "http://in-process.invalid"}}); err != nil {
		t.Fatal(err)
	}
	if err := m.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	conn := <-conns
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	goBefore, heapBefore := runtime.NumGoroutine(), ms.HeapInuse
	rssBefore, _ := rssKB()
	listsBefore := lists.Load()

	var peakGo atomic.Int64
	var peakHeap atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			if n := int64(runtime.NumGoroutine()); n > peakGo.Load() {
				peakGo.Store(n)
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peakHeap.Load() {
				peakHeap.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()

	n := floodCount()
	var liveMid uint64
	start := time.Now()
	changed := &jsonrpc.Request{Method: "notifications/tools/list_changed"}
	logParams, _ := json.Marshal(map[string]any{"level": "info", "data": strings.Repeat("log line ", 20)})
	logLine := &jsonrpc.Request{Method: "notifications/message", Params: logParams}
	ctx := context.Background()
	for i := range n {
		msg := changed
		if i%2 == 1 {
			msg = logLine
		}
		if i == n/2 { // a real change in the middle of the flood
			ts.srv.AddTool(&sdk.Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return nil, nil })
		}
		if i == n*3/4 { // what the flood holds on to, garbage aside
			runtime.GC()
			runtime.ReadMemStats(&ms)
			liveMid = ms.HeapInuse
		}
		if err := conn.Write(ctx, msg); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	flood := time.Since(start)
	waitUntil(t, func() bool { return slices.Contains(toolNamesOf(m.Tools()), "mcp__flood__late") }, "the change announced in the flood to be read")
	close(stop)
	<-sampled
	runtime.GC()
	runtime.ReadMemStats(&ms)
	rssAfter, rssPeak := rssKB()
	t.Logf("%d notifications in %s: goroutines %d before, peak %d, %d after; heap in use %.1f MB before, %.1f MB live at 3/4 of the flood (peak with garbage %.1f MB), %.1f MB after; RSS %.1f MB before, %.1f MB after (peak %.1f MB); tools/list calls %d",
		n, flood.Round(time.Millisecond), goBefore, peakGo.Load(), runtime.NumGoroutine(),
		float64(heapBefore)/(1<<20), float64(liveMid)/(1<<20), float64(peakHeap.Load())/(1<<20), float64(ms.HeapInuse)/(1<<20),
		float64(rssBefore)/1024, float64(rssAfter)/1024, float64(rssPeak)/1024, lists.Load()-listsBefore)

	if p := peakGo.Load(); p > int64(goBefore)+50 {
		t.Errorf("goroutines peaked at %d (%d before the flood)", p, goBefore)
	}
	if liveMid > heapBefore+16<<20 {
		t.Errorf("the flood holds %.1f MB of heap (%.1f MB before)", float64(liveMid)/(1<<20), float64(heapBefore)/(1<<20))
	}
	// One refresh at a time, at most one a second, plus the one pending.
	if l, most := lists.Load()-listsBefore, int64(flood/time.Second)+3; l > most {
		t.Errorf("%d tools/list calls for a %s flood, want at most %d", l, flood, most)
	}
	st, _ := m.ServerStatus("flood")
	if !slices.ContainsFunc(st.Problems, func(p string) bool { return strings.Contains(p, "notifications dropped") }) {
		t.Errorf("the status does not count the dropped notifications: %q", st.Problems)
	}
}

// Over Streamable HTTP the gate is the client middleware (the transport
// carries session state a wrapper would hide): a flood of notifications
// during a call still costs a bounded number of goroutines and memory.
func TestHTTPNotificationFloodIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("floods a server")
	}
	n := floodCount() / 5 // 100,000 take 20 s here (AIRLOCK_MCP_FLOOD=500000 for them)
	ts := newTestServer(t, false)
	ts.srv.AddTool(&sdk.Tool{Name: "noisy", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			for i := range n {
				if err := req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: "t", Progress: float64(i)}); err != nil {
					return nil, err
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return ts.srv }, nil))
	t.Cleanup(hs.Close)
	m := NewManager(Options{})
	t.Cleanup(func() { m.Close() })
	if err := m.Configure([]ServerConfig{{Name: "noisy", Enabled: true, URL: hs.URL}}); err != nil {
		t.Fatal(err)
	}
	if err := m.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	goBefore, heapBefore := runtime.NumGoroutine(), ms.HeapInuse
	var peakGo atomic.Int64
	var peakLive atomic.Uint64
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			peakGo.Store(max(peakGo.Load(), int64(runtime.NumGoroutine())))
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peakLive.Store(max(peakLive.Load(), ms.HeapInuse))
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := toolNamed(t, m, "mcp__noisy__noisy").Run(ctx, tools.Env{}, json.RawMessage(`{}`))
	took := time.Since(start)
	close(stop)
	<-sampled
	if err != nil || out.Text != "done" {
		t.Fatalf("noisy = %+v, %v", out, err)
	}
	st, _ := m.ServerStatus("noisy")
	t.Logf("%d progress notifications over HTTP in %s: goroutines %d before, peak %d; live heap %.1f MB before, peak %.1f MB; problems %q",
		n, took.Round(time.Millisecond), goBefore, peakGo.Load(), float64(heapBefore)/(1<<20), float64(peakLive.Load())/(1<<20), st.Problems)
	if p := peakGo.Load(); p > int64(goBefore)+50 {
		t.Errorf("goroutines peaked at %d (%d before)", p, goBefore)
	}
	// Loose on purpose: over HTTP the gate runs after the SDK has queued a
	// message, so a starved consumer (a loaded CI machine) holds more of them;
	// the goroutine count above is what must not grow with the flood.
	if l := peakLive.Load(); l > heapBefore+128<<20 {
		t.Errorf("the flood held %.1f MB of heap", float64(l)/(1<<20))
	}
	if !slices.ContainsFunc(st.Problems, func(p string) bool { return strings.Contains(p, "notifications dropped") }) {
		t.Errorf("the status does not count the dropped notifications: %q", st.Problems)
	}
}
