package paradigm

import (
	"encoding/json"
	"strings"

	"airlock/backend/tools/ojson"
)

// [TOOL_CALL] blocks with Perl-style arrows, which MiniMax M2.x writes as
// text when a gateway did not give it its own format:
//
//	[TOOL_CALL]
//	{tool => "terminal", args => {
//	  --command "echo test"
//	}}
//	[/TOOL_CALL]
//
// The arguments are --flags followed by a value, key => value pairs, or a
// JSON object. Values are JSON strings, numbers, lists or objects, or bare
// text up to the end of the line without quotes, braces or '='.

const FormatArrowCall = "arrow_call"

const arrowOpen, arrowClose = "[TOOL_CALL]", "[/TOOL_CALL]"

var arrowCallParser = &parser{
	families: []Family{{ID: FormatArrowCall, Name: "[TOOL_CALL] arrows", Models: "MiniMax M2.x through gateways that print its calls as text",
		Markers: []string{"[TOOL_CALL]", "{tool => …, args => {…}}", "[/TOOL_CALL]"},
		Source:  "NousResearch/hermes-agent issues 11994 and 35935; the parsers of zeroclaw (parse_perl_style_tool_calls) and openclaw",
		Example: "[TOOL_CALL]\n{tool => \"read_file\", args => {\n  --path \"notes.md\"\n}}\n[/TOOL_CALL]"}},
	openers: []opener{{prefix: arrowOpen}},
	read: func(s *scanner, r readAt) int {
		return s.arrowCall(r.j, r.hi)
	},
}

// arrowCall reads the block opening at j.
func (s *scanner) arrowCall(j, hi int) int {
	t := s.text
	atEnd := hi == len(t)
	p := s.skipSpace(j+len(arrowOpen), hi)
	if p >= hi {
		if atEnd {
			s.problem(msgCutOff, FormatArrowCall, j, hi)
			return hi
		}
		return -1
	}
	if t[p] != '{' {
		return -1 // the marker named in prose
	}
	it := item{format: FormatArrowCall, start: j}
	p, ok := s.arrowPairs(p+1, hi, func(key string, k int) (int, bool) {
		switch key {
		case "tool", "name", "function":
			if t[k] == '"' {
				str := s.readJSONString(k, hi)
				if !str.ok {
					return str.end, false
				}
				it.name = str.str
				return str.end, true
			}
			name, e := s.ident(k, hi)
			it.name = name
			return e, name != ""
		case "args", "arguments", "params", "parameters":
			args, e, ok := s.arrowArgs(k, hi)
			it.args = args
			return e, ok
		}
		return k, false
	})
	if it.name == "" || !validName(it.name, false) {
		if p >= hi && atEnd {
			s.problem(cutOffMsg(it.name, "right after the name of the tool"), FormatArrowCall, j, hi)
			return hi
		}
		return -1
	}
	if it.args == nil {
		it.args = ojson.Object{}
	}
	switch {
	case ok:
		if q := s.skipSpace(p, hi); strings.HasPrefix(t[q:], arrowClose) {
			p = q + len(arrowClose)
		} else if atEnd && (q >= hi || partialMarker(t[q:])) {
			it.unclosed = true
		}
	case p >= hi && atEnd:
		it.msg = cutOffMsg(it.name, "inside its arguments")
	default:
		it.msg = "The [TOOL_CALL] block of " + jsonQuote(it.name) + " could not be read, so it was not run. Write {tool => \"name\", args => {--key \"value\"}}."
		if e := s.findIn(arrowClose, p, hi); e >= 0 {
			p = e + len(arrowClose)
		}
	}
	it.end = p
	s.add(it)
	return p
}

// arrowPairs reads key => value pairs (and --key value flags) up to the
// closing brace, calling val for each value at its first byte. It returns
// where it stopped and whether the brace closed the pairs.
func (s *scanner) arrowPairs(p, hi int, val func(key string, k int) (int, bool)) (int, bool) {
	t := s.text
	for n := 0; n < 256; n++ {
		p = s.skipSpace(p, hi)
		for p < hi && t[p] == ',' {
			p = s.skipSpace(p+1, hi)
		}
		if p >= hi {
			return hi, false
		}
		if t[p] == '}' {
			return p + 1, true
		}
		var key string
		switch {
		case strings.HasPrefix(t[p:], "--"):
			key, p = s.ident(p+2, hi)
			if p < hi && t[p] == ':' {
				p++
			}
		case t[p] == '"':
			str := s.readJSONString(p, hi)
			if !str.ok {
				return str.end, false
			}
			key, p = str.str, str.end
		default:
			key, p = s.ident(p, hi)
		}
		if key == "" || p >= hi {
			return p, false
		}
		q := s.skipSpace(p, hi)
		switch {
		case strings.HasPrefix(t[q:], "=>"):
			q = s.skipSpace(q+2, hi)
		case q < hi && t[q] == ':':
			q = s.skipSpace(q+1, hi)
		case q == p && q < hi && t[q] != '\n':
			return q, false // a flag runs straight into its value
		}
		if q >= hi {
			return hi, false
		}
		var ok bool
		if p, ok = val(key, q); !ok {
			return p, false
		}
	}
	return p, false
}

// arrowArgs reads the arguments at k: a JSON object, or pairs in braces.
func (s *scanner) arrowArgs(k, hi int) (ojson.Object, int, bool) {
	t := s.text
	if t[k] != '{' {
		return nil, k, false
	}
	if q := s.skipSpace(k+1, hi); q < hi && t[q] == '"' {
		if r := s.readJSON(k, hi, "", false); r.ok() {
			if obj, ok := r.vals[0].(ojson.Object); ok {
				return obj, r.end, true
			}
		}
	}
	args := ojson.Object{}
	end, ok := s.arrowPairs(k+1, hi, func(key string, v int) (int, bool) {
		val, e, ok := s.arrowValue(v, hi)
		if ok {
			args = append(args, ojson.Member{Key: key, Value: val})
		}
		return e, ok
	})
	return args, end, ok
}

// arrowValue reads one value at k: JSON, or a bare word to the end of its
// line (or the closing brace).
func (s *scanner) arrowValue(k, hi int) (any, int, bool) {
	t := s.text
	switch t[k] {
	case '"':
		str := s.readJSONString(k, hi)
		return str.str, str.end, str.ok
	case '[', '{':
		r := s.readJSON(k, hi, "", false)
		if !r.ok() {
			return nil, r.end, false
		}
		return r.vals[0], r.end, true
	}
	e := k
	for e < hi && t[e] != '\n' && t[e] != ',' && t[e] != '}' {
		e++
	}
	if e >= hi {
		return nil, hi, false // the message may have ended inside it
	}
	word := strings.TrimSpace(t[k:e])
	if word != "" && json.Valid([]byte(word)) && word[0] != '"' {
		if v, err := ojson.Decode([]byte(word)); err == nil {
			return v, e, true // a number, true, false, null
		}
	}
	// A bare word holds no quote, brace or arrow: "= = \"ls\"" is not one.
	return word, e, word != "" && !strings.ContainsAny(word, "\"'={}[]")
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
