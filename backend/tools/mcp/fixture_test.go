package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
)

// pngPixel is a 1×1 PNG.
var pngPixel = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

// testServer is an in-process MCP server with one tool per behaviour the
// client must handle.
type testServer struct {
	srv       *sdk.Server
	started   chan string // the slow tool began
	cancelled chan string // the slow tool saw its context end
}

const bigSize = 10 << 20

func newTestServer(t *testing.T, legacyOnly bool) *testServer {
	t.Helper()
	opts := &sdk.ServerOptions{}
	if legacyOnly { // an older server: the initialize handshake, no server/discover
		opts.SupportedProtocolVersions = []string{"2025-11-25"}
	}
	ts := &testServer{
		srv:       sdk.NewServer(&sdk.Implementation{Name: "test-server", Version: "1.2.3"}, opts),
		started:   make(chan string, 4),
		cancelled: make(chan string, 4),
	}
	obj := func(props string, required ...string) json.RawMessage {
		req, _ := json.Marshal(required)
		if len(required) == 0 {
			req = []byte("[]")
		}
		return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `}`)
	}
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	args := func(req *sdk.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	ts.srv.AddTool(&sdk.Tool{Name: "echo", Description: "Echo the text.", InputSchema: obj(`"text":{"type":"string"}`, "text")},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("echo: " + args(req)["text"].(string)), nil
		})
	ts.srv.AddTool(&sdk.Tool{Name: "fail", Description: "Always fails.", InputSchema: obj(``)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r := text("the disk is full")
			r.IsError = true
			return r, nil
		})
	ts.srv.AddTool(&sdk.Tool{Name: "slow", Description: "Takes forever.", InputSchema: obj(``)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			ts.started <- "slow"
			select {
			case <-ctx.Done():
				ts.cancelled <- "slow"
				return nil, ctx.Err()
			case <-time.After(time.Minute):
				return text("done"), nil
			}
		})
	ts.srv.AddTool(&sdk.Tool{Name: "count", Description: "Counts, with structured output.", InputSchema: obj(`"wrong":{"type":"boolean"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if args(req)["wrong"] == true {
				return &sdk.CallToolResult{StructuredContent: map[string]any{"count": "three"}}, nil
			}
			r := text(`{"count":3}`)
			r.StructuredContent = map[string]any{"count": 3}
			return r, nil
		})
	ts.srv.AddTool(&sdk.Tool{Name: "picture", Description: "Returns an image.", InputSchema: obj(``)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "here it is"},
				&sdk.ImageContent{MIMEType: "image/png", Data: pngPixel},
				&sdk.ResourceLink{URI: "file:///tmp/a.png", Name: "a.png", MIMEType: "image/png"},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://note", MIMEType: "text/plain", Text: "a note"}},
			}}, nil
		})
	ts.srv.AddTool(&sdk.Tool{Name: "broken_schema", Description: "Its schema is wrong.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","minLength":"five"}}}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("unreachable"), nil
		})
	ts.srv.AddTool(&sdk.Tool{Name: "big", Description: "Returns 10 MB.", InputSchema: obj(``)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: strings.Repeat("é", bigSize/2)},
				&sdk.ImageContent{MIMEType: "image/png", Data: pngPixel},
			}}, nil
		})
	return ts
}

// connect is an Options.Transport that serves each connection in-process.
func (ts *testServer) connect(t *testing.T) func(ServerConfig) (sdk.Transport, error) {
	return ts.connectVia(t, func(tr sdk.Transport) sdk.Transport { return tr })
}

// connectVia is connect with the server side's transport wrapped.
func (ts *testServer) connectVia(t *testing.T, wrap func(sdk.Transport) sdk.Transport) func(ServerConfig) (sdk.Transport, error) {
	var mu sync.Mutex
	var sessions []*sdk.ServerSession
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range sessions {
			_ = s.Close()
		}
	})
	return func(ServerConfig) (sdk.Transport, error) {
		serverSide, clientSide := sdk.NewInMemoryTransports()
		ss, err := ts.srv.Connect(context.Background(), wrap(serverSide), nil)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		sessions = append(sessions, ss)
		mu.Unlock()
		return clientSide, nil
	}
}

// startManager runs one in-process server called "test" and waits for it.
func startManager(t *testing.T, ts *testServer, opts Options) *Manager {
	t.Helper()
	opts.Transport = ts.connect(t)
	m := NewManager(opts)
	t.Cleanup(func() { m.Close() })
	if err := m.Configure([]ServerConfig{{Name: "test", Enabled: true, URL: "http://in-process.invalid"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := m.ServerStatus("test"); st.State != StateReady {
		t.Fatalf("server not ready: %+v", st)
	}
	return m
}

func toolNamed(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, tool := range m.Tools() {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %q in %v", name, toolNamesOf(m.Tools()))
	return tools.Tool{}
}

func toolNamesOf(ts []tools.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

func run(t *testing.T, tool tools.Tool, args string) (tools.Output, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return tool.Run(ctx, tools.Env{}, json.RawMessage(args))
}
