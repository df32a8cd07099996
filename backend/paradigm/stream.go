package paradigm

import (
	"strings"

	"airlock/backend/chat"
)

// Stream reads a message as the model writes it, for cards that form
// before the answer is complete. What runs is always what the complete
// message says (Result, the same as Scan of the whole text); Forming only
// shows what has settled so far.
//
// A call has settled when the text after it can no longer change it: its
// span has ended, and the rest of its line and the next line (where a cue
// could still call it an example, or a sibling could still join it) have
// arrived. A settled call stays in the final result with the same name and
// arguments, unless a reasoning closer arrives later and turns everything
// before it into reasoning.
type Stream struct {
	opts    Options
	buf     strings.Builder
	last    int // buffer length at the last scan
	forming []chat.ToolCall
}

// NewStream starts reading a message.
func NewStream(opts Options) *Stream { return &Stream{opts: opts} }

// Write adds the next piece of the message.
func (st *Stream) Write(chunk string) { st.buf.WriteString(chunk) }

// rescanEvery bounds the work of Forming on a long message: past 256 KB
// the buffer is scanned again only after it grew by this much.
const rescanEvery = 64 << 10

// Forming returns the calls settled so far, in order.
func (st *Stream) Forming() []chat.ToolCall {
	text := st.buf.String()
	if len(text) > 256<<10 && len(text)-st.last < rescanEvery && st.last > 0 {
		return st.forming
	}
	st.last = len(text)
	res := Scan(text, st.opts)
	st.forming = st.forming[:0]
	for i, c := range res.Calls {
		if !res.open[i] && settled(text, c.End) {
			st.forming = append(st.forming, c)
		}
	}
	return st.forming
}

// settled says two line breaks have arrived after end.
func settled(text string, end int) bool {
	nl := strings.IndexByte(text[end:], '\n')
	return nl >= 0 && strings.IndexByte(text[end+nl+1:], '\n') >= 0
}

// Result scans the complete message.
func (st *Stream) Result() Result { return Scan(st.buf.String(), st.opts) }
