package mcp

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// stderrTailSize is how much of a child's stderr is kept: enough for the
// stack trace or the "missing API key" line that explains a failure.
const stderrTailSize = 4 << 10

// tailBuffer keeps the last bytes written to it. A child's stderr is piped
// into one, so a chatty server can't grow Airlock's memory.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	limit int
	cut   bool // bytes were dropped from the front
}

func newTailBuffer(limit int) *tailBuffer { return &tailBuffer{limit: limit} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.limit {
		p = p[len(p)-t.limit:]
		t.buf = t.buf[:0]
		t.cut = true
	} else if over := len(t.buf) + len(p) - t.limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// String is the tail, starting at a whole line when bytes were dropped.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	if t.cut {
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
		for len(s) > 0 && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		s = "…" + s
	}
	return strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
}
