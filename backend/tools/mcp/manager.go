package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
)

// Defaults for Options' zero values.
const (
	DefaultInitTimeout    = 20 * time.Second
	DefaultListTimeout    = 10 * time.Second
	DefaultStopGrace      = 2 * time.Second
	DefaultMaxResultBytes = 1 << 20
)

// Options configure a Manager. The zero value works.
type Options struct {
	// InitTimeout bounds starting a server: the process or the connection,
	// and the initialize handshake. A ServerConfig may override it.
	InitTimeout time.Duration
	// ListTimeout bounds each tools/list. A ServerConfig may override it.
	ListTimeout time.Duration
	// StopGrace is how long a stdio server may take to exit after its stdin
	// closes, and again after SIGTERM, before it is killed.
	StopGrace time.Duration
	// MaxResultBytes caps a call's result (text, images and structured
	// content together); more is cut with a note saying so.
	MaxResultBytes int
	// OnChange is called when a server's status or tool list changed. It
	// runs on its own goroutine, never twice at once, and bursts of changes
	// are coalesced; it may call back into the Manager (but not Close,
	// which waits for it).
	OnChange func()
	// Logger receives the SDK's and the Manager's diagnostics; nil discards.
	Logger *slog.Logger
	// ClientName and ClientVersion are sent in the initialize handshake.
	ClientName, ClientVersion string
	// Elicit answers a server's question (elicitation/create) asked while
	// one of its tools runs; nil answers "cancel" to every question (and
	// Airlock then does not advertise elicitation). ctx ends when the call
	// that asked ends (its timeout, Stop) or the server withdraws the
	// question: then the answer is "cancel".
	Elicit func(ctx context.Context, q Question) (Answer, error)
	// OnProgress receives the progress notifications of running calls.
	// It must not block.
	OnProgress func(Progress)
	// OAuth, when set, gives the OAuth handler of a Streamable HTTP server
	// (nil: the server gets none). The SDK calls it when the server answers
	// 401 or 403 with a scope challenge; see NewOAuthHandler.
	OAuth func(ServerConfig) auth.OAuthHandler
	// Transport, when set, connects to a server instead of the transport its
	// config describes (tests, servers running inside Airlock).
	Transport func(ServerConfig) (sdk.Transport, error)
}

// Manager runs the configured MCP servers and offers their tools. It is
// safe for concurrent use.
type Manager struct {
	opts Options

	mu      sync.Mutex
	servers []*server   // in config order
	closed  atomic.Bool // set first thing in Close: no server starts after

	notify chan struct{} // capacity 1: a pending change
	quit   chan struct{}
	wg     sync.WaitGroup // the notifier
}

// sweepOnce: what a crashed Airlock left is looked for once per run.
var sweepOnce sync.Once

// NewManager makes a Manager with no servers; give it some with Configure.
func NewManager(opts Options) *Manager {
	if opts.InitTimeout <= 0 {
		opts.InitTimeout = DefaultInitTimeout
	}
	if opts.ListTimeout <= 0 {
		opts.ListTimeout = DefaultListTimeout
	}
	if opts.StopGrace <= 0 {
		opts.StopGrace = DefaultStopGrace
	}
	if opts.MaxResultBytes <= 0 {
		opts.MaxResultBytes = DefaultMaxResultBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.ClientName == "" {
		opts.ClientName, opts.ClientVersion = "airlock", "dev"
	}
	m := &Manager{opts: opts, notify: make(chan struct{}, 1), quit: make(chan struct{})}
	m.wg.Add(1)
	go m.notifier()
	sweepOnce.Do(func() { go sweepOrphans() })
	return m
}

func (m *Manager) notifier() {
	defer m.wg.Done()
	for {
		select {
		case <-m.quit:
			return
		case <-m.notify:
			if m.opts.OnChange != nil {
				m.opts.OnChange()
			}
		}
	}
}

// changed schedules an OnChange call.
func (m *Manager) changed() {
	select {
	case m.notify <- struct{}{}:
	default: // one is pending already and will see this change too
	}
}

// Configure sets the servers. It validates them all first and changes
// nothing on error. Servers no longer listed are stopped; a server whose
// config changed is restarted; enabled servers not running are started
// (in the background: watch Status or OnChange); disabled ones are stopped.
func (m *Manager) Configure(cfgs []ServerConfig) error {
	if err := ValidateAll(cfgs); err != nil {
		return err
	}
	m.mu.Lock()
	if m.closed.Load() {
		m.mu.Unlock()
		return errors.New("the MCP manager is closed")
	}
	old := map[string]*server{}
	for _, s := range m.servers {
		old[s.cfg.Name] = s
	}
	var next, start, stop []*server
	for _, c := range cfgs {
		s := old[c.Name]
		delete(old, c.Name)
		if s != nil && s.cfg.equal(c) {
			next = append(next, s)
			continue
		}
		if s != nil {
			stop = append(stop, s)
		}
		s = newServer(m, c)
		next = append(next, s)
		if c.Enabled {
			start = append(start, s)
		}
	}
	for _, s := range old {
		stop = append(stop, s)
	}
	m.servers = next
	m.mu.Unlock()

	var wg sync.WaitGroup
	for _, s := range stop {
		wg.Go(func() { s.stop(txtRemoved.With()) })
	}
	wg.Wait()
	for _, s := range start {
		s.start()
	}
	m.changed()
	return nil
}

func (m *Manager) find(name string) (*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.cfg.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no MCP server is called %q", name)
}

func (m *Manager) list() []*server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.servers)
}

// Status reports every configured server, in config order.
func (m *Manager) Status() []Status {
	var out []Status
	for _, s := range m.list() {
		out = append(out, s.status())
	}
	return out
}

// ServerStatus reports one server.
func (m *Manager) ServerStatus(name string) (Status, bool) {
	s, err := m.find(name)
	if err != nil {
		return Status{}, false
	}
	return s.status(), true
}

// Restart stops the server if it runs and starts it again, even when its
// config says it is disabled, and waits until it is ready or has failed.
func (m *Manager) Restart(ctx context.Context, name string) error {
	s, err := m.find(name)
	if err != nil {
		return err
	}
	if m.closed.Load() {
		return errors.New("the MCP manager is closed")
	}
	s.stop(txtRestarting.With())
	return s.awaitStart(ctx, s.start())
}

// Stop stops one server; its tools leave Tools until it is restarted.
func (m *Manager) Stop(name string) error {
	s, err := m.find(name)
	if err != nil {
		return err
	}
	s.stop(txtStopped.With())
	return nil
}

// Wait blocks until no server is starting (or ctx ends).
func (m *Manager) Wait(ctx context.Context) error {
	for _, s := range m.list() {
		if done := s.pendingStart(); done != nil {
			select {
			case <-done:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return nil
}

// Close stops every server (in parallel, each given StopGrace twice before
// it is killed) and waits for them. The Manager can't be used afterwards.
func (m *Manager) Close() error {
	if m.closed.Swap(true) {
		return nil
	}
	servers := m.list()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(func() { s.stop(txtAirlockClosed.With()) })
	}
	wg.Wait()
	close(m.quit)
	m.wg.Wait()
	return nil
}

// Tools lists the tools of every ready server, in config order, then in
// each server's order, adapted to tools.Tool (named mcp__<server>__<tool>).
// A server that stopped unexpectedly keeps its tools listed: the next call
// restarts it (once).
func (m *Manager) Tools() []tools.Tool {
	var out []tools.Tool
	for _, s := range m.list() {
		out = append(out, s.offered()...)
	}
	return out
}
