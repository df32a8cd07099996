package llm

import (
	"bytes"
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
	// body, when set, is sent instead of the body go-openai built.
	body []byte
	// sawDone is set once the body held the "data: [DONE]" line that ends
	// an OpenAI stream, which go-openai reports as a plain io.EOF.
	sawDone atomic.Bool
	// maxLine, when set, bounds a line of the body: go-openai keeps a whole
	// line in memory, so an endless one would grow without end.
	maxLine int
}

// maxStreamLine bounds one line of a streamed answer: far above any real
// chunk (a whole tool call with MaxToolArguments of arguments included).
const maxStreamLine = 16 << 20

var errLineTooLong = errors.New("the provider sent a line of more than 16 MiB")

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
	if w.body != nil {
		req = req.Clone(req.Context())
		body := w.body
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		req.ContentLength = int64(len(body))
	}
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
	w    *watch
	line doneLine
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.w.timer.Reset(b.w.idle)
		if b.line.scan(p[:n]) {
			b.w.sawDone.Store(true)
		}
		if b.w.maxLine > 0 && b.line.size > b.w.maxLine {
			return n, errLineTooLong
		}
	}
	if err == io.EOF && b.line.end() {
		b.w.sawDone.Store(true)
	}
	return n, err
}

// doneLine spots the line "data: [DONE]" in a body read piece by piece. It
// keeps only the start of the current line, so it costs a byte comparison
// per byte read.
type doneLine struct {
	buf  [24]byte
	n    int
	long bool // the line is longer than buf: not [DONE]
	size int  // bytes of the current line so far
}

func (d *doneLine) scan(p []byte) (found bool) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		d.size += len(part)
		if !d.long {
			if d.n+len(part) > len(d.buf) {
				d.long = true
			} else {
				d.n += copy(d.buf[d.n:], part)
			}
		}
		if i < 0 {
			return found
		}
		found = found || d.end()
		p = p[i+1:]
	}
	return found
}

// end finishes the current line and says whether it was [DONE].
func (d *doneLine) end() bool {
	line := bytes.TrimSpace(d.buf[:d.n])
	done := !d.long && bytes.HasPrefix(line, []byte("data:")) &&
		string(bytes.TrimSpace(line[len("data:"):])) == "[DONE]"
	d.n, d.long, d.size = 0, false, 0
	return done
}
