package mcp

import (
	"airlock/backend/uitext"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/redact"
)

// State is where a server is in its life.
type State string

const (
	StateStarting State = "starting"
	StateReady    State = "ready"
	StateFailed   State = "failed"
	StateStopped  State = "stopped"
)

// Status is what the UI shows about one server. Nothing in it holds a
// secret: the config is redacted, the reason and stderr are scrubbed.
type Status struct {
	Name  string `json:"name"`
	State State  `json:"state"`
	// Tools is the number of tools offered to the model.
	Tools int `json:"tools"`
	// Reason says why the server failed or stopped; ReasonText is the same
	// sentence coded for the UI's language.
	Reason     string       `json:"reason,omitempty"`
	ReasonText *uitext.Text `json:"reasonText,omitempty"`
	// Stderr is the tail (about 4 KB) of a stdio server's error output,
	// kept when it failed.
	Stderr string `json:"stderr,omitempty"`
	// Problems are tools left out (an input schema that does not compile)
	// or not checked (an output schema that does not compile).
	Problems []string `json:"problems,omitempty"`
	// RestartsOnUse says the server stopped unexpectedly and its tools are
	// still offered: the next call starts it again, once.
	RestartsOnUse bool `json:"restartsOnUse,omitempty"`
	// ServerName and ServerVersion are what the server said it is.
	ServerName    string `json:"serverName,omitempty"`
	ServerVersion string `json:"serverVersion,omitempty"`
	// Instructions are what the server said about using it (its initialize
	// result's instructions), credentials masked, cut at
	// MaxInstructionsBytes (InstructionsCut says so).
	Instructions    string       `json:"instructions,omitempty"`
	InstructionsCut bool         `json:"instructionsCut,omitempty"`
	Since           time.Time    `json:"since"`
	Config          ServerConfig `json:"config"` // Redacted
}

// legacyProtocolVersion is the last MCP version with the initialize
// handshake.
const legacyProtocolVersion = "2025-11-25"

// server is one configured server and its current attempt to run.
type server struct {
	m       *Manager
	cfg     ServerConfig
	secrets []string // masked in what it says: errors, stderr, logs
	masked  []string // masked in its results (see resultSecrets)

	mu       sync.Mutex
	state    State
	reason   uitext.Text
	stderr   string
	since    time.Time
	crashed  bool     // died while ready: restart on the next call
	cur      *attempt // starting or ready; nil otherwise
	tools    []remoteTool
	problems []string
	info     *sdk.Implementation
	// What the server said about using it (capInstructions), and whether
	// it was cut.
	instructions    string
	instructionsCut bool
}

func newServer(m *Manager, cfg ServerConfig) *server {
	s := &server{m: m, cfg: cfg, secrets: cfg.secrets(), masked: cfg.resultSecrets(), state: StateStopped, since: time.Now()}
	if !cfg.Enabled {
		s.reason = txtDisabled.With()
	}
	return s
}

// attempt is one run of a server, from its start to its end.
type attempt struct {
	ctx    context.Context // cancelled when the attempt ends: stops its start and its calls
	cancel context.CancelFunc
	done   chan struct{} // closed when the start settled (ready or failed)
	over   chan struct{} // closed when a ready session ended, for whatever reason

	mu      sync.Mutex
	ended   bool
	session *sdk.ClientSession
	child   *child // stdio only
	flood   *floodGuard
	live    liveCalls
	endOnce sync.Once
	// How it ended, for the calls it broke: stopped on purpose, or died
	// (crashNote "exit status 3" or "it closed the connection", and the
	// stderr tail).
	stopped   bool
	crashNote uitext.Text
	crashTail string
}

func (a *attempt) ending() (stopped bool, crashNote uitext.Text, crashTail string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stopped, a.crashNote, a.crashTail
}

func (a *attempt) adopt(c *child) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ended {
		return false
	}
	a.child = c
	return true
}

func (a *attempt) getChild() *child {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.child
}

// end shuts the attempt down: calls in flight are cancelled, the session
// closed, the child stopped (stdin closed, grace, SIGTERM, grace, kill).
// Concurrent and repeated calls all return once it is done.
func (a *attempt) end(grace time.Duration) {
	a.endOnce.Do(func() {
		a.cancel()
		a.mu.Lock()
		a.ended = true
		sess, c := a.session, a.child
		a.mu.Unlock()
		closed := make(chan struct{})
		go func() {
			if sess != nil {
				_ = sess.Close() // waits for calls in flight, which were just cancelled
			}
			close(closed)
		}()
		if c != nil {
			c.stop(grace)
		}
		select {
		case <-closed:
		case <-time.After(grace + time.Second):
		}
	})
}

// startLocked begins a new attempt; s.mu must be held. Call launch after
// unlocking. Once the Manager is closing it starts nothing (Close stops the
// attempts it finds, so one begun after would outlive it) and returns nil.
func (s *server) startLocked() *attempt {
	if s.m.closed.Load() {
		s.setState(StateStopped, txtManagerClosed.With())
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &attempt{ctx: ctx, cancel: cancel, done: make(chan struct{}), over: make(chan struct{}), flood: s.newFloodGuard()}
	s.cur = a
	s.setState(StateStarting, uitext.Text{})
	s.crashed, s.tools, s.problems, s.stderr, s.info = false, nil, nil, "", nil
	s.instructions, s.instructionsCut = "", false
	return a
}

func (s *server) launch(a *attempt) {
	s.m.changed()
	if a != nil {
		go s.run(a)
	}
}

// start begins a new attempt; the channel closes once it is ready or failed.
func (s *server) start() <-chan struct{} {
	s.mu.Lock()
	a := s.startLocked()
	s.mu.Unlock()
	s.launch(a)
	if a == nil {
		done := make(chan struct{})
		close(done)
		return done
	}
	return a.done
}

func (s *server) setState(st State, reason uitext.Text) {
	s.state, s.reason, s.since = st, reason.Map(func(x string) string { return scrub(x, s.secrets) }), time.Now()
	s.m.opts.Logger.Info("MCP server", "server", s.cfg.Name, "state", st, "reason", s.reason.English)
}

// run connects, lists the tools and makes the attempt current, or records
// why it failed.
func (s *server) run(a *attempt) {
	defer close(a.done)
	sess, err := s.connect(a)
	var listed []remoteTool
	var problems []string
	if err == nil {
		listed, problems, err = s.listTools(a.ctx, sess)
		if err != nil {
			err = listError{err}
		}
	}
	s.mu.Lock()
	if s.cur != a { // stopped meanwhile; stop ends the attempt
		s.mu.Unlock()
		return
	}
	if err != nil {
		s.cur = nil
		s.setState(StateFailed, s.describeFailure(a, err))
		s.stderr = s.stderrTail(a)
		s.mu.Unlock()
		a.end(0) // a server that failed to start gets no grace
		s.m.changed()
		return
	}
	s.tools, s.problems = listed, problems
	if res := sess.InitializeResult(); res != nil {
		s.info = res.ServerInfo
		s.instructions, s.instructionsCut = capInstructions(redact.Known(res.Instructions, s.masked...))
	}
	s.setState(StateReady, uitext.Text{})
	s.mu.Unlock()
	s.m.changed()
	go s.watch(a, sess)
}

// connect opens the transport and runs the initialize handshake, within
// the init timeout.
func (s *server) connect(a *attempt) (*sdk.ClientSession, error) {
	// The context given to Connect must live as long as the session: the SSE
	// transport ties its event stream to it. So the timeout is a timer that
	// cancels it only while the handshake runs.
	ctx, cancel := context.WithCancelCause(a.ctx)
	timeout := initTimeoutError{s.initTimeout()}
	timer := time.AfterFunc(timeout.after, func() { cancel(timeout) })
	sess, err := s.handshake(ctx, a)
	if !timer.Stop() && err != nil && a.ctx.Err() == nil {
		return nil, timeout
	}
	if err != nil {
		cancel(err)
		return nil, err
	}
	a.mu.Lock()
	ended := a.ended
	a.session = sess
	a.mu.Unlock()
	if ended {
		_ = sess.Close()
		return nil, context.Canceled
	}
	return sess, nil
}

func (s *server) handshake(ctx context.Context, a *attempt) (*sdk.ClientSession, error) {
	tr, err := s.transport(a)
	if err != nil {
		return nil, err
	}
	opts := &sdk.ClientOptions{
		Logger: scrubbingLogger(s.m.opts.Logger, s.secrets).With("mcp_server", s.cfg.Name),
		// Airlock offers no roots or sampling (deprecated by the 2026-07-28
		// spec); elicitation when the app answers questions.
		Capabilities:           &sdk.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.refreshSoon(a) },
		// Prompts and resources are read when the person asks: a change
		// only tells the UI to read them again.
		PromptListChangedHandler:    func(context.Context, *sdk.PromptListChangedRequest) { s.m.changed() },
		ResourceListChangedHandler:  func(context.Context, *sdk.ResourceListChangedRequest) { s.m.changed() },
		LoggingMessageHandler:       func(_ context.Context, req *sdk.LoggingMessageRequest) { s.logMessage(a, req) },
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) { s.progress(a, req) },
	}
	if s.m.opts.Elicit != nil {
		opts.Capabilities.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}, URL: &sdk.URLElicitationCapabilities{}}
		opts.ElicitationHandler = func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return s.elicit(a, ctx, req)
		}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: s.m.opts.ClientName, Version: s.m.opts.ClientVersion}, opts)
	client.AddReceivingMiddleware(s.gate(a))
	var sopts *sdk.ClientSessionOptions
	if s.cfg.Kind() == TransportSSE {
		// The SSE transport predates the stateless protocol: speak the last
		// version with the initialize handshake, as SSE servers do.
		sopts = &sdk.ClientSessionOptions{ProtocolVersion: legacyProtocolVersion}
	}
	return client.Connect(ctx, s.gateAtRead(a, tr), sopts)
}

func (s *server) transport(a *attempt) (sdk.Transport, error) {
	if s.m.opts.Transport != nil {
		return s.m.opts.Transport(s.cfg)
	}
	switch s.cfg.Kind() {
	case TransportStdio:
		c, err := startChild(s.cfg)
		if err != nil {
			return nil, err
		}
		if !a.adopt(c) {
			c.killNow()
			return nil, context.Canceled
		}
		return c.transport(), nil
	case TransportSSE:
		return &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: headerClient(s.cfg.Headers)}, nil
	default:
		t := &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: headerClient(s.cfg.Headers)}
		if s.m.opts.OAuth != nil {
			t.OAuthHandler = s.m.opts.OAuth(s.cfg)
		}
		return t, nil
	}
}

// headerClient sends the config's headers (an API key, usually) with every
// request. No overall timeout: a Streamable HTTP stream stays open.
func headerClient(headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return http.DefaultClient
	}
	return &http.Client{Transport: headerTransport{base: http.DefaultTransport, headers: headers}}
}

type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

// watch notices a session that ends while the attempt is current: the
// server crashed or hung up. Its tools stay offered; the next call
// restarts it.
func (s *server) watch(a *attempt, sess *sdk.ClientSession) {
	why := endNote(sess.Wait(), a.getChild())
	s.mu.Lock()
	crashed := s.cur == a && s.state == StateReady
	if crashed {
		s.cur, s.crashed = nil, true
		s.setState(StateFailed, txtStoppedSuddenly.With("why", why))
		s.stderr = s.stderrTail(a)
		a.mu.Lock()
		a.crashNote, a.crashTail = why.Map(func(x string) string { return scrub(x, s.secrets) }), s.stderr
		a.mu.Unlock()
	}
	s.mu.Unlock()
	close(a.over)
	if crashed {
		a.end(0)
		s.m.changed()
	}
}

// endNote says why a session ended: "exit status 3" for a stdio server
// that exited, the broken connection's error, or that the server hung up.
func endNote(waitErr error, c *child) uitext.Text {
	if waitErr != nil && !errors.Is(waitErr, io.EOF) {
		if overFrameLimit(waitErr) {
			return frameLimitNote()
		}
		return txtConnBroke.With("reason", waitErr.Error())
	}
	if c != nil && c.waitExited(context.Background(), time.Second) {
		return c.exitText()
	}
	return txtHungUp.With()
}

// stop ends the current attempt, if any, and waits for it.
func (s *server) stop(reason uitext.Text) {
	s.mu.Lock()
	a := s.cur
	s.cur = nil
	s.crashed, s.tools, s.problems, s.stderr, s.info = false, nil, nil, "", nil
	s.instructions, s.instructionsCut = "", false
	s.setState(StateStopped, reason)
	s.mu.Unlock()
	if a != nil {
		a.mu.Lock()
		a.stopped = true
		a.mu.Unlock()
		a.end(s.m.opts.StopGrace)
		<-a.done
	}
	s.m.changed()
}

// pendingStart is the current start's channel, or nil when not starting.
func (s *server) pendingStart() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateStarting && s.cur != nil {
		return s.cur.done
	}
	return nil
}

// awaitStart waits for a start and reports its failure as an error.
func (s *server) awaitStart(ctx context.Context, done <-chan struct{}) error {
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	st := s.status()
	if st.State != StateReady { // for the model: English
		reason := uitext.Plain(st.Reason)
		if st.ReasonText != nil {
			reason = *st.ReasonText
		}
		return txtDidNotStart.Error("name", strconv.Quote(s.cfg.Name), "reason", reason, "stderr", stderrNote(st.Stderr))
	}
	return nil
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{
		Name: s.cfg.Name, State: s.state, Reason: s.reason.English, Stderr: s.stderr,
		ReasonText: codedPtr(s.reason),
		Problems:   slices.Clone(s.problems), RestartsOnUse: s.crashed,
		Since: s.since, Config: s.cfg.Redacted(),
	}
	if s.state == StateReady || s.crashed {
		st.Tools = len(s.tools)
	}
	if s.cur != nil {
		st.Problems = append(st.Problems, s.cur.flood.problems()...)
	}
	if s.info != nil {
		st.ServerName, st.ServerVersion = s.info.Name, s.info.Version
	}
	if s.state == StateReady {
		st.Instructions, st.InstructionsCut = s.instructions, s.instructionsCut
	}
	return st
}

// initTimeoutError is a server that did not finish the handshake in time.
type initTimeoutError struct{ after time.Duration }

func (e initTimeoutError) Error() string { return e.UIText().English }
func (e initTimeoutError) UIText() uitext.Text {
	return txtInitTimeout.With("after", e.after.String())
}

// frameLimitNote says the SDK refused a message over its frame limit (it
// then closes the connection, and a stdio server exits as its input ends).
func frameLimitNote() uitext.Text {
	return txtFrameLimit.With("mb", sdk.DefaultMaxLineLength>>20)
}

func overFrameLimit(err error) bool {
	return err != nil && strings.Contains(err.Error(), "maximum line length")
}

// listError is a failure to list the tools of a server that did start.
type listError struct{ err error }

func (e listError) Error() string { return "listing its tools failed: " + e.err.Error() }
func (e listError) Unwrap() error { return e.err }

// describeFailure explains a failed start: one of Airlock's own limits (a
// timeout, the message size), then an exit, then the error. A server
// that exits because Airlock hung up on it ("exit status 0") did not fail
// on its own: the limit is the reason.
func (s *server) describeFailure(a *attempt, err error) uitext.Text {
	var it initTimeoutError
	if errors.As(err, &it) {
		return it.UIText()
	}
	if overFrameLimit(err) {
		if errors.As(err, new(listError)) {
			return txtListFailed.With("reason", frameLimitNote())
		}
		return txtHandshakeFailed.With("reason", frameLimitNote())
	}
	if c := a.getChild(); c != nil && c.waitExited(context.Background(), drainDelay) {
		return txtExitedAtStart.With("exit", c.exitText())
	}
	return reasonOf(err)
}

// codedPtr is t when coded, for Status.ReasonText.
func codedPtr(t uitext.Text) *uitext.Text {
	if t.Code == "" {
		return nil
	}
	return &t
}

func (s *server) stderrTail(a *attempt) string {
	if c := a.getChild(); c != nil {
		return scrub(c.stderr.String(), s.secrets)
	}
	return ""
}

func stderrNote(tail string) string {
	if tail == "" {
		return ""
	}
	return "\n" + tail
}

func (s *server) initTimeout() time.Duration {
	if s.cfg.InitTimeout > 0 {
		return s.cfg.InitTimeout
	}
	return s.m.opts.InitTimeout
}

func (s *server) listTimeout() time.Duration {
	if s.cfg.ListTimeout > 0 {
		return s.cfg.ListTimeout
	}
	return s.m.opts.ListTimeout
}
