package paradigm

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/fnv"
	"strconv"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// Options says what Scan looks for.
type Options struct {
	// Paradigm is the chat's paradigm: "json" (the default when empty),
	// "xml", "vcp", or "auto" for every format the scanner knows.
	Paradigm string
	// RecognizeOthers also accepts the formats model families are trained
	// to emit (Hermes/Qwen, Qwen3-Coder, Llama, Mistral, DeepSeek, ...)
	// beside the paradigm's own. On by default in chats.
	RecognizeOthers bool
	// Registry, when set, repairs names and validates and coerces
	// arguments; unknown tools and bad arguments become problems. Nil keeps
	// names and argument values as the model wrote them.
	Registry *tools.Registry
	// IDSeed is mixed into generated call ids (the message id, say), so the
	// same call in two messages gets two ids. Re-scanning the same message
	// with the same seed yields the same ids.
	IDSeed string
}

// DefaultOptions is what a new chat uses.
func DefaultOptions() Options { return Options{Paradigm: "json", RecognizeOthers: true} }

// Result is what a scan found, in order of appearance.
type Result struct {
	Calls    []chat.ToolCall `json:"calls"`
	Problems []chat.Problem  `json:"problems"`
	// Ignored lists regions that were deliberately not scanned for calls:
	// reasoning, code blocks in other languages, labelled examples. For
	// people debugging a model ("why wasn't my call seen?").
	Ignored []Ignored `json:"ignored,omitempty"`
	// open marks the calls whose closing marker never came (their text
	// may still grow: Stream doesn't let them form).
	open []bool
}

// Ignored is a region the scanner skipped, and why.
type Ignored struct {
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Reason string `json:"reason"` // "reasoning", "example", "code"
}

// One message makes at most maxCalls cards and maxProblems problem cards;
// what is beyond is counted in one more problem that tells the model. A
// hostile or runaway answer can't flood the chat with cards.
const (
	maxCalls    = 64
	maxProblems = 64
	maxItems    = 1024 // what the scanner keeps; past it, it only counts
)

// Scan finds the tool calls in a complete assistant message. It never
// panics, and its time grows linearly with the length of text. Pass only
// the message content: a provider's separate reasoning field must never be
// scanned. Inline reasoning (<think>…</think> and its relatives) is masked.
func Scan(text string, opts Options) (res Result) {
	s := newScanner(text, familiesFor(opts))
	if opts.Registry != nil {
		s.known = func(name string) bool { _, ok := opts.Registry.Lookup(name); return ok }
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				// A bug in a recogniser must not take the app down: report
				// what we have and say the rest could not be read.
				s.items = append(s.items, item{msg: "Airlock could not read the rest of this message (internal error: " + strconv.Quote(toString(r)) + ").", start: 0, end: len(text)})
			}
		}()
		s.run(0, len(text), ctxTop)
	}()
	return s.finish(opts)
}

func toString(v any) string {
	switch t := v.(type) {
	case error:
		return t.Error()
	case string:
		return t
	}
	return "panic"
}

// item is a call or a problem, before ids and the registry are applied.
type item struct {
	id, name string
	args     ojson.Object
	msg      string // non-empty: a problem
	format   string
	start    int
	end      int
	open     bool // the call's closing marker never came
	// cutValue: a value ran into the end of the message (values.go).
	cutValue bool
	// repaired: only closers were missing at the end of the message and
	// were added (endrule.go).
	repaired bool
	// closersAdded: the JSON payload's closing brackets were added
	// because the message ended before them (lenient.go).
	closersAdded bool
	// unclosed: the call's closing marker, or its wrapper's, never came.
	unclosed bool
}

func (s *scanner) finish(opts Options) Result {
	s.endRule()
	res := Result{Calls: []chat.ToolCall{}, Problems: []chat.Problem{}, Ignored: s.ignored}
	used := map[string]bool{}
	moreProblems, moreCalls, firstDropped := s.moreProblems, s.moreCalls, -1
	for idx, it := range s.items {
		if it.msg == "" && len(res.Calls) == maxCalls {
			moreCalls++
			if firstDropped < 0 {
				firstDropped = it.start
			}
			continue
		}
		if it.msg != "" && len(res.Problems) == maxProblems {
			moreProblems++
			continue
		}
		raw := s.text[it.start:it.end]
		id := strings.TrimSpace(it.id)
		if id == "" || used[id] || len(id) > 128 {
			id = genID(opts.IDSeed, raw, idx)
		}
		used[id] = true
		name := strings.TrimSpace(it.name)
		kind := "syntax"
		var checkErr error
		if it.msg == "" && name == "" {
			it.msg = "The tool call has no tool name, so it was not run."
		}
		if it.msg == "" && opts.Registry != nil {
			canon, args, err := opts.Registry.Check(name, it.args)
			it.args, checkErr = args, err
			switch {
			case err == nil:
				name = canon
			case errors.As(err, new(*tools.UnknownToolError)):
				it.msg, kind = err.Error(), "unknown_tool"
			default:
				it.msg, kind, name = err.Error(), "arguments", canon
			}
		}
		args, _ := tools.Settle(it.args).(ojson.Object)
		if it.msg != "" {
			if len(res.Problems) == maxProblems {
				moreProblems++
				continue
			}
			p := chat.Problem{Message: it.msg, Text: problemText(it.msg, checkErr), Raw: raw, Name: name, ID: id, Format: it.format, Start: it.start, End: it.end, Kind: kind}
			if kind != "syntax" {
				p.Arguments, p.Repaired = ojson.Encode(args), it.repaired
			}
			res.Problems = append(res.Problems, p)
			continue
		}
		if args == nil {
			args = ojson.Object{}
		}
		res.Calls = append(res.Calls, chat.ToolCall{ID: id, Name: name, Arguments: ojson.Encode(args), Raw: raw, Format: it.format, Start: it.start, End: it.end, Repaired: it.repaired})
		res.open = append(res.open, it.open)
	}
	if moreCalls > 0 {
		res.Problems = append(res.Problems, chat.Problem{
			Message: strconv.Itoa(moreCalls) + " more tool calls in this message were not turned into cards: Airlock takes at most " +
				strconv.Itoa(maxCalls) + " calls from one message. Make fewer calls at a time.",
			ID: genID(opts.IDSeed, "dropped-calls", len(s.items)), Start: max(firstDropped, 0), End: max(firstDropped, 0), Kind: "limit"})
	}
	if moreProblems > 0 {
		res.Problems = append(res.Problems, chat.Problem{Message: strconv.Itoa(moreProblems) + " more problems were found in this message and not listed.",
			ID: genID(opts.IDSeed, "dropped-problems", len(s.items)), Start: len(s.text), End: len(s.text), Kind: "limit"})
	}
	codeProblems(res.Problems)
	return res
}

// genID is stable: the same seed, raw text and position give the same id.
func genID(seed, raw string, idx int) string {
	h := fnv.New64a()
	h.Write([]byte(seed))
	h.Write([]byte{0})
	h.Write([]byte(raw))
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(idx))
	h.Write(b[:])
	return "call_" + hex.EncodeToString(h.Sum(nil))[:10]
}
