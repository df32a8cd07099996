package paradigm

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// Lenient JSON. The extent of a JSON payload is found by a string-aware
// bracket scan (so "</tool_call>" or "```" inside a string value doesn't end
// it); the text is then decoded strictly, and only when that fails repaired
// with jsonrepair (trailing commas, single quotes, unquoted keys, comments,
// Python's True/False/None, ...). A payload whose brackets don't balance
// (cut off by the end of the message, or by its closing tag) is never
// completed by guessing: it becomes a problem card, and the model is told.

const maxRepair = 1 << 20 // larger payloads must be strict JSON

type extent struct {
	end         int // after the closing bracket, or where the scan stopped
	complete    bool
	atStop      bool // stopped at the stop marker, outside any string
	tooDeep     bool
	outOfBudget bool
}

// scanExtent scans the JSON value opening at k ('{' or '[').
func (s *scanner) scanExtent(k, hi int, stop string) extent {
	t := s.text
	var stack []byte
	var inStr byte
	esc := false
	var lastSig byte
	n := hi - k
	if s.budget < n {
		hi = k + max(s.budget, 0)
	}
	p := k
	for ; p < hi; p++ {
		c := t[p]
		if inStr != 0 {
			if esc {
				esc = false
				continue
			}
			switch c {
			case '\\':
				esc = true
			case inStr:
				inStr = 0
				lastSig = '"'
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '"', '\'':
			if c == '\'' && !(lastSig == 0 || lastSig == '{' || lastSig == '[' || lastSig == ',' || lastSig == ':') {
				lastSig = 'a' // an apostrophe in unquoted text
				continue
			}
			inStr = c
		case '{', '[':
			stack = append(stack, c)
			lastSig = c
			if len(stack) > ojson.MaxDepth {
				s.budget -= p - k
				return extent{end: p, tooDeep: true}
			}
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			lastSig = c
			if len(stack) == 0 {
				s.budget -= p - k
				return extent{end: p + 1, complete: true}
			}
		case '/':
			if p+1 < hi && t[p+1] == '/' && lastSig != ':' {
				e := s.findIn("\n", p, hi)
				if e < 0 {
					p = hi
					break
				}
				p = e
				continue
			}
			if p+1 < hi && t[p+1] == '*' {
				e := s.findIn("*/", p+2, hi)
				if e < 0 {
					p = hi
					break
				}
				p = e + 1
				continue
			}
			lastSig = c
		case '<':
			if stop != "" && strings.HasPrefix(t[p:], stop) {
				s.budget -= p - k
				return extent{end: p, atStop: true}
			}
			lastSig = c
		default:
			lastSig = c
		}
	}
	s.budget -= p - k
	if hi < k+n { // the budget ran out before the end
		return extent{end: hi, outOfBudget: true}
	}
	return extent{end: hi}
}

// jsonRead is the outcome of reading JSON payloads at a position.
type jsonRead struct {
	vals  []any
	end   int // after the last value read (or the stop point when incomplete)
	msg   string
	state int
	bad   []badElement // elements of a list that could not be read (the rest could)
}

// badElement is an unreadable element of a list of calls.
type badElement struct {
	start, end int
	msg        string
}

const (
	jsonOK = iota
	jsonBad
	jsonCutOff // the message ended inside the payload
)

func (r jsonRead) ok() bool { return r.state == jsonOK }

// readJSON reads one JSON value at k (or several, separated by blanks,
// commas or semicolons, when multi). stop is the marker that closes the
// surrounding construct ("</tool_call>", a fence), "" for none.
func (s *scanner) readJSON(k, hi int, stop string, multi bool) jsonRead {
	var r jsonRead
	t := s.text
	for {
		one := s.readOne(k, hi, stop)
		if !one.ok() {
			if len(r.vals) > 0 {
				// Keep what was read; the rest is junk after the calls.
				return r
			}
			return one
		}
		r.vals = append(r.vals, one.vals...)
		r.bad = append(r.bad, one.bad...)
		r.end = one.end
		if !multi {
			return r
		}
		p := s.skipSpace(one.end, hi)
		if p < hi && (t[p] == ',' || t[p] == ';') {
			p = s.skipSpace(p+1, hi)
		}
		if p >= hi || (t[p] != '{' && !(t[p] == '[' && s.jsonListAt(p, hi))) {
			return r
		}
		k = p
	}
}

func (s *scanner) readOne(k, hi int, stop string) jsonRead {
	t := s.text
	ext := s.scanExtent(k, hi, stop)
	switch {
	case ext.complete:
		v, err := s.decode(t[k:ext.end])
		if err != nil {
			if t[k] == '[' {
				if r, ok := s.readElements(k, ext.end); ok {
					return r
				}
			}
			return jsonRead{end: ext.end, state: jsonBad, msg: badJSON(err)}
		}
		return jsonRead{vals: []any{v}, end: ext.end, state: jsonOK}
	case ext.tooDeep:
		return jsonRead{end: s.plainEnd(k, hi, stop), state: jsonBad, msg: "The tool call is nested too deeply to read."}
	case ext.outOfBudget:
		p := s.plainEnd(k, hi, stop)
		v, err := s.decode(t[k:p])
		if err != nil {
			return jsonRead{end: p, state: jsonBad, msg: badJSON(err)}
		}
		return jsonRead{vals: []any{v}, end: p, state: jsonOK}
	case ext.atStop:
		// The closing marker came before the brackets balanced: a bracket
		// is missing or the call was cut. Never guessed at.
		return jsonRead{end: ext.end, state: jsonBad, msg: "The tool call's JSON is not complete before " + strconv.Quote(stop) + " (a bracket, brace or quote is missing), so it was not run. Write the whole call again."}
	default: // ran into the end of the text
		if stop != "" {
			if p := s.findIn(stop, k, hi); p >= 0 {
				return jsonRead{end: p, state: jsonBad, msg: "The tool call is not valid JSON: a string is not closed before " + strconv.Quote(stop) + "."}
			}
		}
		if hi == len(t) {
			// The message ended inside the payload: when only closing
			// brackets are missing, add them (endrule.go decides whether
			// the call stands, marked repaired).
			if closers, ok := missingClosers(t[k:hi]); ok {
				if v, err := s.decode(strings.TrimSpace(t[k:hi]) + closers); err == nil {
					s.jsonRepaired++
					return jsonRead{vals: []any{v}, end: hi, state: jsonOK}
				}
			}
		}
		return jsonRead{end: hi, state: jsonCutOff, msg: msgCutOff}
	}
}

const msgCutOff = "The tool call was cut off before it was complete, so it was not run. Send the whole call again."

// readElements reads a list of objects that does not decode whole, one
// element at a time: the readable elements stand, the others become
// problems. ok is false when no element could be read.
func (s *scanner) readElements(k, end int) (jsonRead, bool) {
	t := s.text
	var list []any
	var bad []badElement
	for p := k + 1; p < end; {
		p = s.skipSpace(p, end)
		for p < end && (t[p] == ',' || isSpace(t[p])) {
			p++
		}
		if p >= end || t[p] != '{' {
			break
		}
		ext := s.scanExtent(p, end, "")
		if !ext.complete {
			return jsonRead{}, false
		}
		if v, err := s.decode(t[p:ext.end]); err == nil {
			list = append(list, v)
		} else {
			bad = append(bad, badElement{p, ext.end, badJSON(err)})
		}
		p = ext.end
	}
	if len(list) == 0 {
		return jsonRead{}, false
	}
	return jsonRead{vals: []any{list}, end: end, state: jsonOK, bad: bad}, true
}

// jsonString is a JSON string literal read at a position.
type jsonString struct {
	str string
	end int
	ok  bool
}

// readJSONString reads the JSON string literal opening at k.
func (s *scanner) readJSONString(k, hi int) jsonString {
	t := s.text
	for e := k + 1; e < hi; e++ {
		switch t[e] {
		case '\\':
			e++
		case '"':
			var str string
			if err := json.Unmarshal([]byte(t[k:e+1]), &str); err != nil {
				return jsonString{end: e + 1}
			}
			return jsonString{str: str, end: e + 1, ok: true}
		}
	}
	return jsonString{end: hi}
}

// plainEnd is where a payload ends when string-aware scanning can't say:
// at the stop marker, or hi.
func (s *scanner) plainEnd(k, hi int, stop string) int {
	if stop != "" {
		if p := s.findIn(stop, k, hi); p >= 0 {
			return p
		}
	}
	return hi
}

func badJSON(err error) string {
	m := err.Error()
	m = strings.TrimPrefix(m, "json: ")
	if len(m) > 160 {
		m = m[:160] + "…"
	}
	return "The tool call is not valid JSON (" + m + "), so it was not run. Write it again as valid JSON."
}

// maxRepairs bounds the payloads one scan hands to jsonrepair: a message
// with thousands of broken payloads gets strict decoding after that.
const maxRepairs = 256

// decode is decodeLenient within the scan's repair allowance.
func (s *scanner) decode(seg string) (any, error) {
	if json.Valid([]byte(seg)) {
		return ojson.Decode([]byte(seg))
	}
	if s.repairs >= maxRepairs {
		var raw json.RawMessage
		return nil, json.Unmarshal([]byte(seg), &raw) // for its error, cheaply
	}
	s.repairs++
	return decodeLenient(seg)
}

// decodeLenient decodes strictly, then with jsonrepair's help.
func decodeLenient(seg string) (any, error) {
	v, err := ojson.Decode([]byte(seg))
	if err == nil {
		return v, nil
	}
	if len(seg) > maxRepair || err == ojson.ErrTooDeep {
		return nil, err
	}
	if call := callValue(seg); call != "" {
		// jsonrepair makes ")" of get_date(): a value written as a call
		// has no JSON reading.
		return nil, errors.New("a value is written as a function call, " + strconv.Quote(call) + ", not as JSON")
	}
	fixed, rerr := tools.SafeRepair(seg)
	if rerr != nil {
		return nil, err
	}
	v, err2 := ojson.Decode([]byte(fixed))
	if err2 != nil {
		return nil, err
	}
	return v, nil
}

// decodeArgString reads arguments a model wrote as a JSON string.
func decodeArgString(str string) (ojson.Object, bool) {
	ts := strings.TrimSpace(str)
	if ts == "" {
		return ojson.Object{}, true
	}
	v, err := decodeLenient(ts)
	if err != nil {
		return nil, false
	}
	o, ok := v.(ojson.Object)
	return o, ok
}

// looksLikeCall says whether malformed text was probably meant as a call,
// so that failing to read it is worth a problem.
func looksLikeCall(seg string) bool {
	if len(seg) > 4096 {
		seg = seg[:4096]
	}
	if strings.Contains(seg, "tool_calls") {
		return true
	}
	return strings.Contains(seg, "name") && (strings.Contains(seg, "arguments") || strings.Contains(seg, "parameters") || strings.Contains(seg, "tool_input"))
}

// callValue finds, outside strings, a name followed by '(' — a value
// written as a function call (get_current_date ()) — and returns it, or "".
func callValue(seg string) string {
	var quote byte
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(':
			e := i
			for e > 0 && (seg[e-1] == ' ' || seg[e-1] == '\t') {
				e--
			}
			b := e
			for b > 0 && (isIdentByte(seg[b-1]) || seg[b-1] == '.') {
				b--
			}
			if b < e {
				return seg[b:min(len(seg), i+1)] + "…)"
			}
		}
	}
	return ""
}
