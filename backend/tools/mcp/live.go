package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
)

// Question is a server asking the person something while one of its tools
// runs (elicitation/create): a form built from Schema, or (Mode "url") a
// link to open. CallID names the call that asked, when Airlock can tell
// (the server's one running call, or its latest): the UI shows the
// question on that call's card.
type Question struct {
	Server  string          `json:"server"`
	CallID  string          `json:"callId,omitempty"`
	Tool    string          `json:"tool,omitempty"` // the server's name for the running tool
	Mode    string          `json:"mode"`           // "form" or "url"
	Message string          `json:"message"`
	Schema  json.RawMessage `json:"schema,omitempty"` // form mode: flat object of primitive properties
	URL     string          `json:"url,omitempty"`    // url mode
}

// Answer is the person's reply: Action "accept" (with Content for a form),
// "decline" or "cancel".
type Answer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// Progress is a notifications/progress a server sent about a running call.
// Total is 0 when the server did not say.
type Progress struct {
	Server   string  `json:"server"`
	CallID   string  `json:"callId"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// MaxQuestionBytes caps a question's schema and message: a server asking
// more than this is answered "cancel" without bothering the person.
const MaxQuestionBytes = 64 << 10

// running is a call in flight on an attempt, for the questions and the
// progress its server sends about it.
type running struct {
	seq    uint64
	callID string
	tool   string
	token  string          // the progress token sent with the call
	ctx    context.Context // the call's: a question ends with it
}

// liveCalls tracks an attempt's calls in flight.
type liveCalls struct {
	mu    sync.Mutex
	calls map[string]running // by progress token
	seq   atomic.Uint64
}

func (l *liveCalls) add(ctx context.Context, tool string) running {
	n := l.seq.Add(1)
	r := running{ctx: ctx, seq: n, callID: tools.CallFrom(ctx).ID, tool: tool, token: "airlock-" + strconv.FormatUint(n, 10)}
	l.mu.Lock()
	if l.calls == nil {
		l.calls = map[string]running{}
	}
	l.calls[r.token] = r
	l.mu.Unlock()
	return r
}

func (l *liveCalls) done(r running) {
	l.mu.Lock()
	delete(l.calls, r.token)
	l.mu.Unlock()
}

func (l *liveCalls) byToken(tok any) (running, bool) {
	s, ok := tok.(string)
	if !ok {
		return running{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.calls[s]
	return r, ok
}

// latest is the call most recently begun (zero when none runs).
func (l *liveCalls) latest() running {
	l.mu.Lock()
	defer l.mu.Unlock()
	var best running
	for _, r := range l.calls {
		if r.seq > best.seq {
			best = r
		}
	}
	return best
}

// progress forwards a server's progress notification to Options.OnProgress,
// when it names a call of this attempt.
func (s *server) progress(a *attempt, req *sdk.ProgressNotificationClientRequest) {
	if s.m.opts.OnProgress == nil || req == nil || req.Params == nil {
		return
	}
	r, ok := a.live.byToken(req.Params.ProgressToken)
	if !ok || r.callID == "" {
		return
	}
	msg := req.Params.Message
	if len(msg) > 500 {
		msg = msg[:500]
	}
	s.m.opts.OnProgress(Progress{Server: s.cfg.Name, CallID: r.callID, Progress: req.Params.Progress,
		Total: req.Params.Total, Message: scrub(msg, s.secrets)})
}

// elicit puts a server's question to Options.Elicit. Without a handler
// (or for a question over MaxQuestionBytes) the answer is "cancel". The
// question waits at most as long as the call that asked may run: the
// SDK's ctx ends with the request, and the running call's own ctx ends
// with its timeout.
func (s *server) elicit(a *attempt, ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	if s.m.opts.Elicit == nil || req == nil || req.Params == nil {
		return &sdk.ElicitResult{Action: "cancel"}, nil
	}
	p := req.Params
	q := Question{Server: s.cfg.Name, Mode: p.Mode, Message: p.Message, URL: p.URL}
	if q.Mode == "" {
		q.Mode = "form"
		if p.URL != "" {
			q.Mode = "url"
		}
	}
	if p.RequestedSchema != nil {
		raw, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return nil, fmt.Errorf("unreadable requested schema: %w", err)
		}
		q.Schema = raw
	}
	if len(q.Schema)+len(q.Message)+len(q.URL) > MaxQuestionBytes {
		s.m.opts.Logger.Warn("MCP question too large; answered cancel", "server", s.cfg.Name, "bytes", len(q.Schema)+len(q.Message))
		return &sdk.ElicitResult{Action: "cancel"}, nil
	}
	r := a.live.latest()
	q.CallID, q.Tool = r.callID, r.tool
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if r.ctx != nil {
		defer context.AfterFunc(r.ctx, cancel)()
	}
	ans, err := s.m.opts.Elicit(ctx, q)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return &sdk.ElicitResult{Action: "cancel"}, nil
		}
		return nil, err
	}
	switch ans.Action {
	case "accept":
		if q.Mode == "url" {
			return &sdk.ElicitResult{Action: "accept"}, nil
		}
		content := ans.Content
		if content == nil {
			content = map[string]any{}
		}
		return &sdk.ElicitResult{Action: "accept", Content: content}, nil
	case "decline":
		return &sdk.ElicitResult{Action: "decline"}, nil
	default:
		return &sdk.ElicitResult{Action: "cancel"}, nil
	}
}
