package paradigm

import (
	"regexp"
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
	writing Writing
}

// Writing is the call the model is in the middle of: its opener has been
// seen, its end not yet. Name is "" until it can be read.
type Writing struct {
	Format string `json:"format"`
	Name   string `json:"name"`
	Raw    string `json:"raw"`
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
	st.writing = Writing{}
	for i, c := range res.Calls {
		if !res.open[i] && settled(text, c.End) {
			st.forming = append(st.forming, c)
		} else if res.open[i] {
			st.writing = Writing{Format: c.Format, Name: c.Name, Raw: c.Raw}
		}
	}
	// A call cut off at the end of what has arrived is one being written.
	if n := len(res.Problems); n > 0 && st.writing.Raw == "" {
		if p := res.Problems[n-1]; p.Kind == "syntax" && strings.TrimSpace(text[p.End:]) == "" {
			st.writing = Writing{Format: p.Format, Name: p.Name, Raw: p.Raw}
			if st.writing.Name == "" {
				st.writing.Name = nameIn(p.Raw)
			}
		}
	}
	return st.forming
}

// callOpeners is where a call begins (a parameter's name="" is not one).
var callOpeners = regexp.MustCompile(`"(?:name|function|tool_name|tool)"\s*:\s*"|<function=|<invoke name="`)

// argsKey is where a call's own arguments begin in the spellings models use.
var argsKey = regexp.MustCompile(`"(?:arguments|parameters|params|input|args)"\s*:\s*`)

// Arguments is what the call being written has of its own arguments so
// far: from its arguments key (or, in a tag format, after its opener) to
// the end, not the whole block, which may hold a call before it.
func (w Writing) Arguments() string {
	raw := w.Raw
	if ms := callOpeners.FindAllStringIndex(raw, -1); len(ms) > 0 {
		raw = raw[ms[len(ms)-1][0]:] // the last call the block begins
	}
	if m := argsKey.FindStringIndex(raw); m != nil {
		return strings.TrimSpace(raw[m[1]:])
	}
	if strings.HasPrefix(raw, "<") {
		if i := strings.IndexByte(raw, '>'); i >= 0 {
			return strings.TrimSpace(raw[i+1:])
		}
	}
	return strings.TrimSpace(raw)
}

// Writing returns the call being written, as of the last Forming; ok is
// false when there is none.
func (st *Stream) Writing() (Writing, bool) { return st.writing, st.writing.Raw != "" }

// nameIn reads a tool name from the start of a call that is still being
// written: {"name": "x", <function=x>, <invoke name="x">, "function": "x".
var nameSpellings = regexp.MustCompile(`(?:"(?:name|function|tool_name|tool)"\s*:\s*"|<function=|<invoke name="|name=")([A-Za-z0-9_.:-]{1,64})["> ]`)

func nameIn(raw string) string {
	if m := nameSpellings.FindStringSubmatch(raw[:min(len(raw), 512)]); m != nil {
		return m[1]
	}
	return ""
}

// settled says two line breaks have arrived after end.
func settled(text string, end int) bool {
	nl := strings.IndexByte(text[end:], '\n')
	return nl >= 0 && strings.IndexByte(text[end+nl+1:], '\n') >= 0
}

// Result scans the complete message.
func (st *Stream) Result() Result { return Scan(st.buf.String(), st.opts) }
