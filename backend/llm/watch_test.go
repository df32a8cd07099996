package llm

import (
	"io"
	"strings"
	"testing"
	"time"
)

// The [DONE] line is found however the body is cut into reads, and only as
// a line of its own.
func TestDoneLine(t *testing.T) {
	body := "data: {\"choices\":[{\"delta\":{\"content\":\"data: [DONE]\\n\"}}]}\n\n: keep-alive\n\ndata: [DONE]\r\n\r\n"
	for cut := range len(body) + 1 {
		var d doneLine
		found := d.scan([]byte(body[:cut]))
		found = d.scan([]byte(body[cut:])) || found
		if !found {
			t.Fatalf("cut at %d: [DONE] not seen", cut)
		}
	}
	for _, s := range []string{"data: {\"content\":\"[DONE]\"}\n", "data: [DONE] and more\n", "[DONE]\n", "data: [DON\n"} {
		var d doneLine
		if d.scan([]byte(s)) {
			t.Errorf("%q taken for the end", s)
		}
	}
	var d doneLine // the last line without its newline
	if d.scan([]byte("data:[DONE]")) || !d.end() {
		t.Error("a final data:[DONE] without newline was missed")
	}
}

// An endless line ends the read instead of growing without end.
func TestLineLimit(t *testing.T) {
	w := &watch{maxLine: 10}
	w.timer = time.NewTimer(time.Hour)
	defer w.timer.Stop()
	b := &idleBody{ReadCloser: io.NopCloser(strings.NewReader("data: 12\n\ndata: 0123456789abc")), w: w}
	buf := make([]byte, 4)
	var err error
	var got string
	for err == nil {
		var n int
		n, err = b.Read(buf)
		got += string(buf[:n])
	}
	if err != errLineTooLong || len(got) > len("data: 12\n\ndata: 0123456789ab") {
		t.Errorf("err %v after %q", err, got)
	}
}
