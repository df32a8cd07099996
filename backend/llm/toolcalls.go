package llm

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Limits on the tool calls of one answer. Whatever a server sends, the work
// and memory they cost stay bounded.
const (
	MaxToolCalls     = 128     // calls per answer; later ones are dropped (Result.ToolCallsDropped)
	MaxToolArguments = 1 << 20 // bytes of arguments per call; more is cut (ToolCall.Truncated)
	maxToolName      = 256     // bytes of a tool name
	maxToolCallID    = 256     // bytes of a call id
	maxExtraContent  = 64 << 10
)

// chunkToolCall is one entry of delta.tool_calls as servers send it: every
// field may be missing or null.
type chunkToolCall struct {
	Index    looseIndex `json:"index"`
	ID       looseText  `json:"id"`
	Function struct {
		Name      looseText `json:"name"`
		Arguments argText   `json:"arguments"`
	} `json:"function"`
	// ExtraContent is provider data the server wants back with the call
	// (Gemini: {"google":{"thought_signature":…}}).
	ExtraContent json.RawMessage `json:"extra_content"`
}

// looseIndex is a tool call's index: a number, or nothing (Gemini's OpenAI
// layer and old Ollama leave it out).
type looseIndex struct {
	n   int
	set bool
}

func (x *looseIndex) UnmarshalJSON(b []byte) error {
	b = bytes.Trim(b, `"`) // a few servers quote it
	if n, err := strconv.Atoi(string(b)); err == nil {
		x.n, x.set = n, true
	}
	return nil
}

// argText is an arguments fragment. Most servers send a string; some send
// the arguments as a JSON object, which is kept as its compact text.
type argText string

func (a *argText) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0 || string(b) == "null":
		return nil
	case b[0] == '"':
		return json.Unmarshal(b, (*string)(a))
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return nil
	}
	*a = argText(buf.String())
	return nil
}

// toolAccumulator builds an answer's tool calls from their streamed pieces.
//
// Servers disagree on how calls are cut up:
//   - OpenAI, vLLM, SGLang: an index on every piece, the id (and name) on the
//     first; parallel calls have distinct indexes, possibly interleaved.
//   - Ollama: each call whole in one piece; index 0 for every call on old
//     versions, and no index at all before 0.4.6; always a fresh id.
//   - Gemini's OpenAI layer: no index; a call whole or its arguments spread
//     over index-less pieces.
//   - Some servers repeat the id (or the whole name) on every piece.
//
// So: with an index, pieces go to the latest call with that index unless
// they carry a different id (then a new call starts). Without an index, an
// id picks its call (or starts one); a piece with neither continues the last
// call, unless it names another tool after that call's arguments began.
type toolAccumulator struct {
	calls   []accCall
	byIndex map[int]int    // server index → position of the latest call with it
	byID    map[string]int // server id → position
	last    int            // position of the last call touched; noCall or dropped
	dropped bool           // calls beyond MaxToolCalls were ignored
}

const (
	noCall  = -1
	dropped = -2
)

type accCall struct {
	id, name  string
	args      []byte
	extra     json.RawMessage
	truncated bool // arguments were cut
	nameCut   bool
}

func newToolAccumulator() toolAccumulator {
	return toolAccumulator{last: noCall}
}

// add takes one streamed piece and appends to out what it changed.
func (a *toolAccumulator) add(tc *chunkToolCall, out []ToolCallDelta) []ToolCallDelta {
	id := string(tc.ID)
	if len(id) > maxToolCallID {
		id = "" // not an id anyone will need to quote back
	}
	name, args := string(tc.Function.Name), string(tc.Function.Arguments)
	pos, isNew := a.locate(tc.Index, id, name, args != "")
	if pos < 0 {
		return out
	}
	c := &a.calls[pos]
	d := ToolCallDelta{Index: pos}
	if id != "" && c.id == "" {
		c.id, d.ID = id, id
		if a.byID == nil {
			a.byID = make(map[string]int)
		}
		if _, taken := a.byID[id]; !taken {
			a.byID[id] = pos
		}
	}
	if name != "" && name != c.name {
		// A name in pieces is joined; the whole name sent again is not.
		if room := maxToolName - len(c.name); len(name) > room {
			name, c.nameCut = cutUTF8(name, room), true
		}
		c.name += name
		d.Name = name
	}
	if args != "" && !c.truncated {
		if room := MaxToolArguments - len(c.args); len(args) > room {
			args, c.truncated = cutUTF8(args, room), true
		}
		c.args = append(c.args, args...)
		d.Arguments = args
	}
	if x := bytes.TrimSpace(tc.ExtraContent); len(x) > 0 && string(x) != "null" && len(x) <= maxExtraContent {
		c.extra = append(json.RawMessage(nil), x...)
	}
	if isNew || d.ID != "" || d.Name != "" || d.Arguments != "" {
		out = append(out, d)
	}
	return out
}

// locate finds the call a piece belongs to, or starts one. It returns a
// negative position for a piece of a dropped call.
func (a *toolAccumulator) locate(index looseIndex, id, name string, hasArgs bool) (pos int, isNew bool) {
	if index.set {
		if pos, ok := a.byIndex[index.n]; ok {
			if c := &a.calls[pos]; id == "" || c.id == "" || id == c.id {
				a.last = pos
				return pos, false
			}
			// A different id on a used index: Ollama and Gemini's layer
			// send each whole call with index 0.
		}
		pos := a.start()
		if pos >= 0 {
			if a.byIndex == nil {
				a.byIndex = make(map[int]int)
			}
			a.byIndex[index.n] = pos
		}
		return pos, pos >= 0
	}
	if id != "" {
		if pos, ok := a.byID[id]; ok {
			a.last = pos
			return pos, false
		}
		pos := a.start()
		return pos, pos >= 0
	}
	switch {
	case a.last >= 0:
		c := &a.calls[a.last]
		if name == "" || c.name == "" || name == c.name || len(c.args) == 0 {
			return a.last, false
		}
		// Another tool's name after this call's arguments: a new call.
	case a.last == dropped:
		return dropped, false
	case name == "" && !hasArgs:
		return noCall, false // nothing to attach to (a lone extra_content)
	}
	pos = a.start()
	return pos, pos >= 0
}

func (a *toolAccumulator) start() int {
	if len(a.calls) >= MaxToolCalls {
		a.dropped, a.last = true, dropped
		return dropped
	}
	a.calls = append(a.calls, accCall{})
	a.last = len(a.calls) - 1
	return a.last
}

// result returns the calls in the order they began. Calls without an id, or
// whose id an earlier call already has, get call_<n>, unique in the answer.
func (a *toolAccumulator) result() []ToolCall {
	if len(a.calls) == 0 {
		return nil
	}
	used := make(map[string]bool, len(a.calls))
	for _, c := range a.calls {
		if c.id != "" {
			used[c.id] = true
		}
	}
	seen := make(map[string]bool, len(a.calls))
	out := make([]ToolCall, len(a.calls))
	n := 0
	for i, c := range a.calls {
		id := c.id
		if id == "" || seen[id] {
			for {
				n++
				id = "call_" + strconv.Itoa(n)
				if !used[id] {
					break
				}
			}
			used[id] = true
		}
		seen[id] = true
		out[i] = ToolCall{ID: id, Name: c.name, Arguments: string(c.args), Truncated: c.truncated || c.nameCut, Extra: c.extra}
	}
	return out
}

// cutUTF8 shortens s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
