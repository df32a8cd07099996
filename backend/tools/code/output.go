package code

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// capped keeps the first limit bytes written to it and counts the rest: a
// flood of output costs the run nothing but time. It also keeps the last
// tailKeep bytes, where the Python runner finds the return value.
type capped struct {
	mu    sync.Mutex
	limit int
	buf   []byte
	cut   int64
	tail  []byte
}

const tailKeep = 64 << 10

func newCapped(limit int) *capped { return &capped{limit: limit} }

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if room := c.limit - len(c.buf); room > 0 {
		take := min(room, len(p))
		c.buf = append(c.buf, p[:take]...)
		p = p[take:]
	}
	c.cut += int64(len(p))
	c.tail = append(c.tail, p...)
	if len(c.tail) > tailKeep {
		c.tail = append(c.tail[:0], c.tail[len(c.tail)-tailKeep:]...)
	}
	return n, nil
}

// WriteString lets the JavaScript host functions write without a copy.
func (c *capped) WriteString(s string) (int, error) { return c.Write([]byte(s)) }

// text is what was kept (cut on a character boundary) and how many bytes
// were left out.
func (c *capped) text() (string, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.buf
	cut := c.cut
	if cut > 0 {
		for len(b) > 0 && !utf8.Valid(b[len(b)-min(len(b), 3):]) && !utf8.RuneStart(b[len(b)-1]) {
			b = b[:len(b)-1]
			cut++
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), cut
}

// takeMarked removes the last "marker…" record from the output, wherever
// it was kept, and returns what followed the marker.
func (c *capped) takeMarked(marker string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := strings.LastIndex(string(c.tail), marker); i >= 0 && c.cut > 0 {
		v := string(c.tail[i+len(marker):])
		c.cut -= int64(len(c.tail) - i)
		c.tail = c.tail[:i]
		return v, true
	}
	if i := strings.LastIndex(string(c.buf), marker); i >= 0 {
		v := string(c.buf[i+len(marker):])
		c.buf = c.buf[:i]
		return v, true
	}
	return "", false
}
