package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"airlock/backend/tools"
	"airlock/backend/uitext"
)

// remoteTool is one tool a server listed, as Airlock offers it.
type remoteTool struct {
	name        string // mcp__<server>__<tool>
	remote      string // the server's own name for it
	description string
	params      json.RawMessage
	output      *jsonschema.Schema // nil: no output schema, or one that does not compile
	hints       *tools.Hints
}

// listTools reads the server's tools (all pages) within the list timeout.
func (s *server) listTools(ctx context.Context, sess *sdk.ClientSession) ([]remoteTool, []string, error) {
	if res := sess.InitializeResult(); res != nil && res.Capabilities != nil && res.Capabilities.Tools == nil {
		return nil, []string{txtNoTools.With().English}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.listTimeout())
	defer cancel()
	var caps capper
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			if ctx.Err() == context.DeadlineExceeded {
				return nil, nil, txtListTimeout.Error("after", s.listTimeout().String())
			}
			return nil, nil, err
		}
		caps.screen(t)
		if caps.seen >= maxListedTools {
			break
		}
	}
	out, problems := adaptTools(s.cfg.Name, caps.kept)
	return out, append(caps.problems(), problems...), nil
}

// adaptTools names the tools and checks their schemas the way the toolbox
// will. A tool whose input schema does not compile is left out, and the
// server's status says so: offering it with a permissive schema instead
// would put arguments nobody checked on the approval card, and the model
// would be guessing them from the description alone.
func adaptTools(server string, listed []candidate) ([]remoteTool, []string) {
	names := make([]string, len(listed))
	for i, t := range listed {
		names[i] = t.remote
	}
	airlockNames := ToolNames(server, names)
	var out []remoteTool
	var problems []string
	for i, t := range listed {
		rt := remoteTool{name: airlockNames[i], remote: t.remote, description: t.description, params: t.params, hints: t.hints}
		if rt.params == nil {
			rt.params = json.RawMessage(`{"type":"object"}`)
		}
		if _, err := tools.NewRegistry([]tools.Spec{{Name: rt.name, Parameters: rt.params}}); err != nil {
			problems = append(problems, fmt.Sprintf("tool %q is left out: its input schema is not valid JSON Schema (%s)", t.remote, firstLine(err.Error())))
			continue
		}
		if t.output != nil {
			var err error
			rt.output, err = compileOutputSchema(t.output)
			var big outputTooBig
			switch {
			case errors.As(err, &big):
				problems = append(problems, fmt.Sprintf("tool %q: its output schema is %s, so its structured results are not checked", t.remote, big))
			case err != nil:
				problems = append(problems, fmt.Sprintf("tool %q: its output schema is not valid JSON Schema, so its structured results are not checked (%s)", t.remote, firstLine(err.Error())))
			}
		}
		out = append(out, rt)
	}
	return out, problems
}

// outputTooBig is an output schema over MaxSchemaBytes or MaxSchemaDepth.
type outputTooBig string

func (e outputTooBig) Error() string { return string(e) }

func compileOutputSchema(schema any) (*jsonschema.Schema, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	if len(raw) > MaxSchemaBytes {
		return nil, outputTooBig(fmt.Sprintf("over %d KB", MaxSchemaBytes>>10))
	}
	if jsonDepth(raw) > MaxSchemaDepth {
		return nil, outputTooBig(fmt.Sprintf("nested deeper than %d levels", MaxSchemaDepth))
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	const loc = "airlock-mcp:///output.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// refresh re-reads the tool list after the server said it changed (see
// refreshSoon, which runs it).
func (s *server) refresh(a *attempt) {
	a.mu.Lock()
	sess := a.session
	a.mu.Unlock()
	if sess == nil {
		return
	}
	listed, problems, err := s.listTools(a.ctx, sess)
	s.mu.Lock()
	if s.cur != a || s.state != StateReady {
		s.mu.Unlock()
		return
	}
	if err != nil {
		s.m.opts.Logger.Warn("MCP tool list refresh failed", "server", s.cfg.Name, "err", scrub(err.Error(), s.secrets))
		s.mu.Unlock()
		return
	}
	s.tools, s.problems = listed, problems
	s.mu.Unlock()
	s.m.changed()
}

// offered adapts the server's tools to tools.Tool.
func (s *server) offered() []tools.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateReady && !s.crashed {
		return nil
	}
	out := make([]tools.Tool, len(s.tools))
	for i, t := range s.tools {
		out[i] = tools.Tool{
			Spec:   tools.Spec{Name: t.name, Description: t.description, Parameters: t.params},
			Kind:   tools.KindMCP,
			Server: s.cfg.Name,
			Remote: t.remote,
			Hints:  t.hints,
			Run: func(ctx context.Context, _ tools.Env, args json.RawMessage) (tools.Output, error) {
				return s.call(ctx, t, args)
			},
		}
	}
	return out
}

// call runs one tool. The caller's ctx carries the per-call timeout;
// cancelling it makes the SDK send notifications/cancelled to the server.
func (s *server) call(ctx context.Context, t remoteTool, args json.RawMessage) (tools.Output, error) {
	a, err := s.readyAttempt(ctx)
	if err != nil {
		return tools.Output{}, err
	}
	a.mu.Lock()
	sess := a.session
	a.mu.Unlock()
	// Stopping the server cancels its calls, so a stop never waits on them.
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(a.ctx, cancel)()
	r := a.live.add(callCtx, t.remote)
	defer a.live.done(r)
	params := &sdk.CallToolParams{Name: t.remote, Arguments: arguments(args)}
	params.SetProgressToken(r.token)
	res, err := sess.CallTool(callCtx, params)
	if err == nil {
		return scrubOutput(convertResult(res, t.output, s.m.opts.MaxResultBytes), s.masked), nil
	}
	return tools.Output{}, s.callError(ctx, a, t, err)
}

// callError says why a call got no result, in words for the model and the
// card.
func (s *server) callError(ctx context.Context, a *attempt, t remoteTool, err error) error {
	name := s.cfg.Name
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		return &uitext.Error{Text: txtAbandoned.With("tool", t.remote, "name", strconv.Quote(name), "reason", cause), Err: cause}
	}
	if stopped, _, _ := a.ending(); stopped {
		return txtStoppedWhile.Error("name", strconv.Quote(name), "tool", t.remote)
	}
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		// The connection broke: give the watcher a moment to see the server go.
		select {
		case <-a.over:
		case <-time.After(time.Second + drainDelay):
		}
	}
	if _, why, tail := a.ending(); !why.IsZero() {
		return txtCrashedWhile.Error("name", strconv.Quote(name), "tool", t.remote, "why", why, "stderr", stderrNote(tail))
	}
	return txtCouldNotRun.Error("name", strconv.Quote(name), "tool", t.remote, "reason", scrub(err.Error(), s.secrets))
}

// readyAttempt returns the running attempt, waiting for a start in progress
// and restarting, once, a server that stopped unexpectedly.
func (s *server) readyAttempt(ctx context.Context) (*attempt, error) {
	restarted := false
	for {
		s.mu.Lock()
		switch {
		case s.state == StateReady && s.cur != nil:
			a := s.cur
			s.mu.Unlock()
			return a, nil
		case s.state == StateStarting && s.cur != nil:
			done := s.cur.done
			s.mu.Unlock()
			select {
			case <-done:
			case <-ctx.Done():
				cause := context.Cause(ctx)
				return nil, &uitext.Error{Text: txtStillStarting.With("name", strconv.Quote(s.cfg.Name), "reason", cause), Err: cause}
			}
		case s.crashed && !restarted:
			restarted = true
			a := s.startLocked()
			s.mu.Unlock()
			s.launch(a)
			if a == nil {
				return nil, txtClosing.Error("name", strconv.Quote(s.cfg.Name))
			}
		default:
			reason, tail := s.reason, s.stderr
			s.mu.Unlock()
			if restarted {
				return nil, txtNotRestarted.Error("name", strconv.Quote(s.cfg.Name), "reason", reason, "stderr", stderrNote(tail))
			}
			return nil, txtNotRunning.Error("name", strconv.Quote(s.cfg.Name), "reason", reason)
		}
	}
}

// arguments passes the model's arguments through as they are; the SDK
// would send null for none, which servers reject.
func arguments(args json.RawMessage) any {
	if t := bytes.TrimSpace(args); len(t) == 0 || string(t) == "null" {
		return map[string]any{}
	}
	return args
}

func firstLine(s string) string {
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
