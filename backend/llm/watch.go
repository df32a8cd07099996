package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// Causes set on the request context when a timer fires, so a timeout is never
// mistaken for the user pressing Stop.
var (
	errConnectTimeout = errors.New("llm: connect timeout")
	errIdleTimeout    = errors.New("llm: idle timeout")
)

// watch follows one request: a single timer runs first as the connect
// timeout, then, once headers arrive, as the idle timeout, reset by every
// read of the body. Keep-alive comments count as life, so reasoning models
// behind proxies that ping during long silent thinking are not cut off.
type watch struct {
	parent  context.Context // the caller's context: its end means Stop
	timer   *time.Timer
	idle    time.Duration
	sent    atomic.Bool // the request reached the transport
	headers atomic.Bool // response headers arrived
	header  http.Header // written and read on the calling goroutine only
}

type watchKey struct{}

// begin derives the request context and arms the timer; call done when the
// request is over.
func (c *Client) begin(parent context.Context) (context.Context, *watch, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	w := &watch{parent: parent, idle: c.cfg.IdleTimeout}
	w.timer = time.AfterFunc(c.cfg.ConnectTimeout, func() {
		if w.headers.Load() {
			cancel(errIdleTimeout)
		} else {
			cancel(errConnectTimeout)
		}
	})
	return context.WithValue(ctx, watchKey{}, w), w, func() {
		w.timer.Stop()
		cancel(nil)
	}
}

// watchTransport wraps the real transport to see headers and body reads,
// which go-openai does not expose (Retry-After on errors, for one).
type watchTransport struct{ base http.RoundTripper }

func (t *watchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	w, _ := req.Context().Value(watchKey{}).(*watch)
	if w == nil {
		return t.base.RoundTrip(req)
	}
	w.sent.Store(true)
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	w.header = resp.Header
	w.headers.Store(true)
	w.timer.Reset(w.idle)
	resp.Body = &idleBody{ReadCloser: resp.Body, w: w}
	return resp, nil
}

type idleBody struct {
	io.ReadCloser
	w *watch
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.w.timer.Reset(b.w.idle)
	}
	return n, err
}
