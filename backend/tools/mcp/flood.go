package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a server may send per second before Airlock stops listening, so a
// server that floods it costs bounded work and memory.
const (
	// MaxNotificationsPerSecond caps the notifications handled from one
	// server; the rest are dropped and counted (a dropped tools/list_changed
	// still marks the list to be read again: no change is lost).
	MaxNotificationsPerSecond = 100
	// MaxLogLinesPerSecond caps the log messages (notifications/message) of
	// one server written to Airlock's log; each is cut at MaxLogLineBytes.
	MaxLogLinesPerSecond = 10
	MaxLogLineBytes      = 1 << 10
	// MinRefreshGap is the least time between two reads of a server's tool
	// list: announcements in between are coalesced into one read.
	MinRefreshGap = time.Second
)

// rateGate lets at most limit events through per one-second window and
// counts the rest.
type rateGate struct {
	limit int
	what  string        // "notifications", "log lines"
	note  func(n int64) // told, once a window is over, how many it dropped
	mu    sync.Mutex
	start time.Time
	n     int
	drops int64 // in the current window
	prev  int64 // in the window before
	total int64
}

func (g *rateGate) allow() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if now.Sub(g.start) >= time.Second {
		g.start, g.n, g.drops, g.prev = now, 0, 0, g.drops
	}
	if g.n < g.limit {
		g.n++
		return true
	}
	if g.drops == 0 && g.note != nil { // report the window's drops when it ends
		start := g.start
		time.AfterFunc(time.Second-now.Sub(start), func() {
			g.mu.Lock()
			n := g.drops
			if !g.start.Equal(start) { // a new window began already
				n = g.prev
			}
			g.mu.Unlock()
			g.note(n)
		})
	}
	g.drops++
	g.total++
	return false
}

func (g *rateGate) dropped() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.total
}

// floodGuard is what an attempt keeps to bound what its server sends: the
// two gates and the coalesced refresh of its tool list.
type floodGuard struct {
	notes, logs rateGate
	atRead      bool // notifications are gated as they are read (set before the session starts)

	mu         sync.Mutex
	refreshing bool // a refresh goroutine runs
	pending    bool // and must read the list once more
}

func (s *server) newFloodGuard() *floodGuard {
	warn := func(what string, limit int) func(int64) {
		return func(n int64) {
			s.m.opts.Logger.Warn(fmt.Sprintf("MCP server sent too many %s: %d dropped in one second (at most %d a second are read)", what, n, limit),
				"server", s.cfg.Name)
		}
	}
	return &floodGuard{
		notes: rateGate{limit: MaxNotificationsPerSecond, what: "notifications", note: warn("notifications", MaxNotificationsPerSecond)},
		logs:  rateGate{limit: MaxLogLinesPerSecond, what: "log lines", note: warn("log lines", MaxLogLinesPerSecond)},
	}
}

// problems says what was dropped, for the status.
func (f *floodGuard) problems() []string {
	var out []string
	for _, g := range []*rateGate{&f.notes, &f.logs} {
		if n := g.dropped(); n > 0 {
			out = append(out, fmt.Sprintf("%d %s dropped: the server sent more than %d a second", n, g.what, g.limit))
		}
	}
	return out
}

// admit says whether a notification from the server is handled; one over
// the cap is dropped (a tools/list_changed still marks the list to be read).
func (s *server) admit(a *attempt, method string) bool {
	if !strings.HasPrefix(method, "notifications/") || a.flood.notes.allow() {
		return true
	}
	if method == "notifications/tools/list_changed" {
		s.refreshSoon(a)
	}
	return false
}

// gate is the client middleware that drops notifications over the cap, for
// the HTTP transports. (The SDK queues what it reads without bound before
// the middleware sees it; the stream's pace is the network's.)
func (s *server) gate(a *attempt) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if a.flood.atRead || s.admit(a, method) {
				return next(ctx, method, req)
			}
			return nil, nil
		}
	}
}

// gateAtRead drops notifications over the cap as they are read, before the
// SDK queues them, on the transports that are a plain stream of messages
// (stdio, in-memory). The HTTP ones carry more than Read and Write (session
// state the SDK reaches by type assertion), so they keep the middleware.
func (s *server) gateAtRead(a *attempt, t sdk.Transport) sdk.Transport {
	switch t.(type) {
	case *sdk.IOTransport, *sdk.InMemoryTransport, *sdk.StdioTransport, *sdk.CommandTransport:
		a.flood.atRead = true
		return gatedTransport{t, s, a}
	}
	return t
}

type gatedTransport struct {
	sdk.Transport
	s *server
	a *attempt
}

func (g gatedTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := g.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return gatedConn{c, g.s, g.a}, nil
}

type gatedConn struct {
	sdk.Connection
	s *server
	a *attempt
}

func (g gatedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := g.Connection.Read(ctx)
		if req, ok := msg.(*jsonrpc.Request); err != nil || !ok || req.IsCall() || g.s.admit(g.a, req.Method) {
			return msg, err
		}
	}
}

// logMessage writes a server's log message to Airlock's log, within the
// cap, cut and with the server's secrets masked.
func (s *server) logMessage(a *attempt, req *sdk.LoggingMessageRequest) {
	if req == nil || req.Params == nil || !a.flood.logs.allow() {
		return
	}
	data, _ := json.Marshal(req.Params.Data)
	text := string(data)
	if len(text) > MaxLogLineBytes {
		text = cutUTF8(text, MaxLogLineBytes) + "…"
	}
	s.m.opts.Logger.Info("MCP server log", "server", s.cfg.Name, "level", string(req.Params.Level),
		"logger", scrub(cutUTF8(req.Params.Logger, 100), s.secrets), "data", scrub(text, s.secrets))
}

// refreshSoon reads the tool list again after the server said it changed:
// one refresh runs at a time, announcements meanwhile make one more, and
// two are at least MinRefreshGap apart.
func (s *server) refreshSoon(a *attempt) {
	f := a.flood
	f.mu.Lock()
	if f.refreshing {
		f.pending = true
		f.mu.Unlock()
		return
	}
	f.refreshing = true
	f.mu.Unlock()
	go func() {
		select { // a change announced during the first listing is read after it
		case <-a.done:
		case <-a.ctx.Done():
		}
		var last time.Time
		for {
			if !last.IsZero() {
				select {
				case <-time.After(MinRefreshGap - time.Since(last)):
				case <-a.ctx.Done():
				}
			}
			last = time.Now()
			if a.ctx.Err() == nil {
				s.refresh(a)
			}
			f.mu.Lock()
			if !f.pending || a.ctx.Err() != nil {
				f.refreshing, f.pending = false, false
				f.mu.Unlock()
				return
			}
			f.pending = false
			f.mu.Unlock()
		}
	}()
}
