package paradigm

import (
	"encoding/json"
	"strconv"
	"strings"

	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// Lenient JSON. The extent of a JSON payload is found by a string-aware
// bracket scan (so "</tool_call>" or "```" inside a string value doesn't end
// it); the text is then decoded strictly, and only when that fails repaired
// with jsonrepair (trailing commas, single quotes, unquoted keys, comments,
// Python's True/False/None, ...). A payload cut off by the end of the
// message is completed only when nothing but closing brackets is missing;
// a cut inside a string, a key or after a comma is not guessed at.

const maxRepair = 1 << 20 // larger payloads must be strict JSON

type extent struct {
	end         int // after the closing bracket, or where the scan stopped
	complete    bool
	atStop      bool // stopped at the stop marker, outside any string
	inStr       bool
	completable bool
	closers     string
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
	strIsKey, lastStrKey := false, false
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
				lastStrKey = strIsKey
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
			strIsKey = len(stack) > 0 && stack[len(stack)-1] == '{' && (lastSig == '{' || lastSig == ',')
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
				return s.finishExtent(p, true, inStr != 0, lastSig, lastStrKey, stack)
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
	return s.finishExtent(hi, false, inStr != 0, lastSig, lastStrKey, stack)
}

func (s *scanner) finishExtent(p int, atStop, inStr bool, lastSig byte, lastStrKey bool, stack []byte) extent {
	e := extent{end: p, atStop: atStop, inStr: inStr}
	if inStr {
		return e
	}
	switch lastSig {
	case ',', ':', '{', '[', 0:
		return e
	case '"':
		if lastStrKey {
			return e
		}
	}
	var b strings.Builder
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	e.completable = true
	e.closers = b.String()
	return e
}

// jsonRead is the outcome of reading JSON payloads at a position.
type jsonRead struct {
	vals  []any
	end   int  // after the last value read (or the stop point when incomplete)
	cut   bool // the message ended inside the payload
	msg   string
	state int
}

const (
	jsonOK        = iota
	jsonCompleted // closers were missing and have been supplied
	jsonBad
	jsonCutOff
)

func (r jsonRead) ok() bool { return r.state == jsonOK || r.state == jsonCompleted }

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
		r.end = one.end
		r.cut = r.cut || one.cut
		if one.state == jsonCompleted {
			r.state = jsonCompleted
		}
		if !multi || one.state == jsonCompleted {
			return r
		}
		p := s.skipSpace(one.end, hi)
		if p < hi && (t[p] == ',' || t[p] == ';') {
			p = s.skipSpace(p+1, hi)
		}
		if p >= hi || (t[p] != '{' && t[p] != '[') {
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
		v, err := decodeLenient(t[k:ext.end])
		if err != nil {
			return jsonRead{end: ext.end, state: jsonBad, msg: badJSON(err)}
		}
		return jsonRead{vals: []any{v}, end: ext.end, state: jsonOK}
	case ext.tooDeep:
		return jsonRead{end: s.plainEnd(k, hi, stop), state: jsonBad, msg: "The tool call is nested too deeply to read."}
	case ext.outOfBudget:
		p := s.plainEnd(k, hi, stop)
		v, err := decodeLenient(t[k:p])
		if err != nil {
			return jsonRead{end: p, state: jsonBad, msg: badJSON(err)}
		}
		return jsonRead{vals: []any{v}, end: p, state: jsonOK}
	case ext.completable:
		seg := strings.TrimRight(t[k:ext.end], " \t\r\n") + ext.closers
		v, err := decodeLenient(seg)
		if err != nil {
			return jsonRead{end: ext.end, state: jsonBad, msg: badJSON(err)}
		}
		return jsonRead{vals: []any{v}, end: ext.end, cut: !ext.atStop, state: jsonCompleted}
	case ext.atStop:
		// Broken before its closing tag (a trailing comma, say): let the
		// repairer try.
		v, err := decodeLenient(t[k:ext.end])
		if err != nil {
			return jsonRead{end: ext.end, state: jsonBad, msg: badJSON(err)}
		}
		return jsonRead{vals: []any{v}, end: ext.end, state: jsonOK}
	default: // ran into the end of the text
		if stop != "" {
			if p := s.findIn(stop, k, hi); p >= 0 {
				return jsonRead{end: p, state: jsonBad, msg: "The tool call is not valid JSON: a string is not closed before " + strconv.Quote(stop) + "."}
			}
		}
		return jsonRead{end: hi, cut: true, state: jsonCutOff, msg: msgCutOff}
	}
}

const msgCutOff = "The tool call was cut off before it was complete, so it was not run. Send the whole call again."

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

// decodeLenient decodes strictly, then with jsonrepair's help.
func decodeLenient(seg string) (any, error) {
	v, err := ojson.Decode([]byte(seg))
	if err == nil {
		return v, nil
	}
	if len(seg) > maxRepair || err == ojson.ErrTooDeep {
		return nil, err
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
	return strings.Contains(seg, "name") && (strings.Contains(seg, "arguments") || strings.Contains(seg, "parameters"))
}

// --- call objects ------------------------------------------------------

var nameKeys = []string{"name", "tool_name", "toolName", "function_name", "functionName", "tool", "function", "recipient_name"}
var argKeys = []string{"arguments", "parameters", "args", "input", "params", "tool_input", "argument", "action_input"}
var idKeys = []string{"id", "call_id", "tool_call_id", "toolCallId", "callId"}

type callObj struct {
	id, name string
	args     ojson.Object
	msg      string
	hasArgs  bool
	shape    string // FormatOpenAI for the function wrapper, FormatLlama for "parameters"
}

// callsIn interprets a decoded JSON value as calls. explicit means the
// context already said "this is a call" (a <tool_call> tag, [TOOL_CALLS]):
// then anything that isn't a call is a problem. Otherwise, only values
// shaped like calls count, and ok is false for anything else.
func callsIn(v any, explicit bool) (calls []callObj, envelope bool, ok bool) {
	switch t := v.(type) {
	case []any:
		any1 := false
		for _, e := range t {
			c, isCall := callFrom(e, explicit)
			if isCall {
				any1 = true
			}
			if isCall || explicit {
				calls = append(calls, c)
			}
		}
		if !any1 && !explicit {
			return nil, false, false
		}
		return calls, false, len(calls) > 0
	case ojson.Object:
		for _, key := range []string{"tool_calls", "toolCalls", "tool_uses", "function_calls"} {
			inner, has := t.Get(key)
			if !has {
				continue
			}
			switch it := inner.(type) {
			case []any:
				for _, e := range it {
					c, _ := callFrom(e, true)
					calls = append(calls, c)
				}
				return calls, true, true
			case ojson.Object:
				c, _ := callFrom(it, true)
				return []callObj{c}, true, true
			default:
				return []callObj{{msg: `"` + key + `" must be a list of calls.`}}, true, true
			}
		}
		c, isCall := callFrom(t, explicit)
		if !isCall && !explicit {
			return nil, false, false
		}
		return []callObj{c}, false, true
	}
	if explicit {
		return []callObj{{msg: "This is not a tool call: expected a JSON object with \"name\" and \"arguments\"."}}, false, true
	}
	return nil, false, false
}

// callFrom reads one call object. isCall says whether it is shaped like
// one (a name, and arguments or the function wrapper).
func callFrom(v any, explicit bool) (c callObj, isCall bool) {
	o, ok := v.(ojson.Object)
	if !ok {
		return callObj{msg: "This is not a tool call: expected a JSON object with \"name\" and \"arguments\"."}, false
	}
	c.id = idOf(o)
	src := o
	if fn, has := o.Get("function"); has {
		if fo, isObj := fn.(ojson.Object); isObj {
			src = fo
			c.shape = FormatOpenAI
			if c.id == "" {
				c.id = idOf(fo)
			}
		}
	}
	for _, k := range nameKeys {
		if nv, has := src.Get(k); has {
			if ns, isStr := nv.(string); isStr {
				c.name = strings.TrimSpace(ns)
				break
			}
		}
	}
	if c.name == "" {
		if act, has := src.Get("action"); has {
			if _, hasIn := src.Get("action_input"); hasIn {
				c.name, _ = act.(string)
			}
		}
	}
	var argv any
	for _, k := range argKeys {
		if av, has := src.Get(k); has {
			argv, c.hasArgs = av, true
			if k == "parameters" && c.shape == "" {
				c.shape = FormatLlama
			}
			break
		}
	}
	typ, _ := o.Get("type")
	isCall = c.name != "" && (c.hasArgs || c.shape == FormatOpenAI || typ == "function")
	if !isCall && !explicit {
		return c, false
	}
	if c.name == "" {
		c.msg = "The tool call has no tool name, so it was not run."
		return c, isCall
	}
	if !validName(c.name, !explicit) {
		if !explicit {
			return c, false // a placeholder like <function-name> in prose
		}
		c.msg = strconv.Quote(c.name) + " is not a tool name, so the call was not run."
		return c, isCall
	}
	if !explicit && isDefinition(src, argv) {
		return c, false
	}
	switch a := argv.(type) {
	case nil:
		c.args = ojson.Object{}
	case ojson.Object:
		c.args = a
	case string:
		args, ok := decodeArgString(a)
		if !ok {
			c.msg = "The arguments of " + strconv.Quote(c.name) + " are a string that is not a JSON object, so the call was not run. Give \"arguments\" as a JSON object."
			return c, isCall
		}
		c.args = args
	default:
		c.msg = "The arguments of " + strconv.Quote(c.name) + " must be a JSON object, so the call was not run."
	}
	return c, isCall
}

func idOf(o ojson.Object) string {
	for _, k := range idKeys {
		if v, has := o.Get(k); has {
			switch t := v.(type) {
			case string:
				return t
			case json.Number:
				return string(t)
			}
		}
	}
	return ""
}

// isDefinition spots a tool definition echoed by the model (a name, a
// description and a parameters *schema*): not a call.
func isDefinition(o ojson.Object, args any) bool {
	if _, has := o.Get("description"); !has {
		return false
	}
	a, ok := args.(ojson.Object)
	if !ok {
		return false
	}
	typ, _ := a.Get("type")
	_, hasProps := a.Get("properties")
	return typ == "object" && hasProps
}

// jsonCalls adds the calls found in r. label "" derives the format from
// the shape (envelope → json, function wrapper → openai, else llama), and
// fenced marks a code fence of the JSON paradigm. It reports whether r held
// calls; when explicit, anything it held is reported (as calls or problems).
func (s *scanner) jsonCalls(r jsonRead, label string, start, end int, explicit, fenced bool) bool {
	found := false
	for _, v := range r.vals {
		calls, envelope, ok := callsIn(v, explicit)
		if !ok {
			continue
		}
		for _, c := range calls {
			f := label
			if f == "" {
				switch {
				case envelope || (fenced && s.set.has(fJSON)):
					f = FormatJSON
				case c.shape != "":
					f = c.shape
				default:
					f = FormatLlama
				}
			}
			if !s.set.has(fmtFor(f)) {
				continue
			}
			found = true
			it := item{id: c.id, name: c.name, args: c.args, msg: c.msg, format: f, start: start, end: end}
			if it.msg == "" && r.cut && !c.hasArgs {
				it.msg = msgCutOff
			}
			s.add(it)
		}
	}
	return found
}

func fmtFor(format string) fmtSet {
	switch format {
	case FormatJSON:
		return fJSON
	case FormatXML:
		return fXML
	case FormatHermes:
		return fHermes
	case FormatLlama, FormatOpenAI:
		return fLlama
	case FormatMistral:
		return fMistral
	case FormatDeepSeek:
		return fDeepSeek
	case FormatKimi:
		return fKimi
	case FormatHarmony:
		return fHarmony
	case FormatGemma:
		return fGemma
	case FormatPythonic:
		return fPythonic
	case FormatGLM:
		return fGLM
	case FormatInvoke:
		return fInvoke
	case FormatQwenCoder:
		return fQwenCoder
	case FormatVCP:
		return fVCP
	}
	return fMisc
}
