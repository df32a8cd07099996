package paradigm

import (
	"encoding/json"
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// Gemma 4 and FunctionGemma: call:name{key:<|"|>text<|"|>,n:42,l:[…]}
// (Gemma 4 also writes call:name(key: "text") through some servers)
// inside <|tool_call>…<tool_call|> (Gemma 4) or
// <start_function_call>…<end_function_call> (FunctionGemma, which spells
// the string delimiter <escape>). Keys are bare; strings are delimited,
// other values are literals.

const (
	FormatGemma4        = "gemma4"
	FormatFunctionGemma = "functiongemma"
)

var gemmaFamilies = &parser{
	families: []Family{
		{ID: FormatGemma4, Name: "Gemma 4", Models: "Gemma 4",
			Markers: []string{"<|tool_call>", "call:", `<|"|>`, "<tool_call|>"},
			Source:  "Gemma 4 chat template; vLLM gemma4 tool parser; ollama model/parsers/gemma4.go",
			Example: `<|tool_call>call:read_file{path:<|"|>notes.md<|"|>}<tool_call|>`},
		{ID: FormatFunctionGemma, Name: "FunctionGemma", Models: "FunctionGemma 270M",
			Markers: []string{"<start_function_call>", "call:", "<escape>", "<end_function_call>"},
			Source:  "google/functiongemma model card; vLLM functiongemma tool parser; ollama model/parsers/functiongemma.go",
			Example: `<start_function_call>call:read_file{path:<escape>notes.md<escape>}<end_function_call>`},
	},
	payload: func(s *scanner, w wrapper, k int) int {
		t := s.text
		if t[k] == ':' {
			k = s.skipSpace(k+1, len(t)) // a stray colon after the opener
		}
		if !strings.HasPrefix(t[k:], "call:") {
			return -1
		}
		label := w.label
		if label != FormatFunctionGemma {
			label = FormatGemma4
		}
		// Several calls may share one wrapper: call:a{…}call:b{…}.
		j, end := w.j, -1
		for strings.HasPrefix(t[k:], "call:") {
			e := s.gemma(j, k+len("call:"), w.closer, label, len(t))
			if e < 0 {
				break
			}
			end = e
			k = s.skipSpace(e, len(t))
			j = k
		}
		return end
	},
}

// gemmaBare reads call:name{…} on its own, without the <|tool_call>
// wrapper (seen after Gemma 4's thought channel), at a line start.
func (s *scanner) gemmaBare(k, hi int) int {
	if !strings.HasPrefix(s.text[k:], "call:") {
		return -1
	}
	return s.gemma(k, k+len("call:"), "<tool_call|>", FormatGemma4, hi)
}

// gemma reads name{…} at k (after "call:"), then the closer if it follows.
func (s *scanner) gemma(j, k int, closer, label string, hi int) int {
	t := s.text
	name, p := s.ident(k, hi)
	if name == "" || p >= hi || t[p] != '{' && t[p] != '(' {
		return -1 // call:name(k: "v") is seen too (hermes-agent issue 7457)
	}
	gp := gemmaReader{s: s, hi: hi}
	args, end, ok := gp.object(p)
	if !ok {
		e := hi
		if c := s.findIn(closer, p, hi); c >= 0 {
			e = c + len(closer)
		}
		msg := "The arguments of " + strconv.Quote(name) + " could not be read, so the call was not run."
		if e == hi && s.findIn(closer, p, hi) < 0 {
			msg = msgCutOff
		}
		s.problem(msg, label, j, e)
		return e
	}
	end = s.afterCloser(end, closer, hi)
	s.add(item{name: name, args: args, format: label, start: j, end: end})
	return end
}

type gemmaReader struct {
	s      *scanner
	hi     int
	depth  int
	parens int // objects in parentheses open: ')' ends a bare value
}

var gemmaDelims = []string{`<|"|>`, "<escape>"}

func (g *gemmaReader) delimAt(p int) string {
	for _, d := range gemmaDelims {
		if strings.HasPrefix(g.s.text[p:min(len(g.s.text), p+len(d))], d) {
			return d
		}
	}
	return ""
}

func (g *gemmaReader) ws(p int) int {
	for p < g.hi && (isSpace(g.s.text[p]) || g.s.text[p] == ',') {
		p++
	}
	return p
}

func (g *gemmaReader) object(p int) (ojson.Object, int, bool) {
	t := g.s.text
	if g.depth > 64 {
		return nil, p, false
	}
	g.depth++
	defer func() { g.depth-- }()
	closer := byte('}')
	if t[p] == '(' {
		closer = ')'
		g.parens++
		defer func() { g.parens-- }()
	}
	p++ // '{' or '('
	obj := ojson.Object{}
	for {
		p = g.ws(p)
		if p >= g.hi {
			return nil, p, false
		}
		if t[p] == closer {
			return obj, p + 1, true
		}
		var key string
		if d := g.delimAt(p); d != "" {
			e := g.s.findIn(d, p+len(d), g.hi)
			if e < 0 {
				return nil, g.hi, false
			}
			key, p = t[p+len(d):e], e+len(d)
		} else {
			e := p
			for e < g.hi && e-p < 256 && t[e] != ':' && t[e] != closer {
				e++
			}
			if e >= g.hi || t[e] != ':' {
				return nil, e, false
			}
			key, p = strings.TrimSpace(t[p:e]), e
		}
		p = g.s.skipSpace(p, g.hi)
		if p >= g.hi || t[p] != ':' {
			return nil, p, false
		}
		v, np, ok := g.value(g.s.skipSpace(p+1, g.hi))
		if !ok {
			return nil, np, false
		}
		obj = append(obj, ojson.Member{Key: key, Value: v})
		p = np
	}
}

// missingOpener finds a closing delimiter ahead of p that ends a string
// whose opening delimiter was left out: it comes before the end of the
// object or list, and no key ("…:") stands between.
func (g *gemmaReader) missingOpener(p int) (string, int) {
	t := g.s.text
	for e := p; e < g.hi && e-p < 4096; e++ {
		switch t[e] {
		case '}', ']', ':', '{', '[':
			return "", -1
		case '<':
			if d := g.delimAt(e); d != "" {
				return d, e
			}
			return "", -1
		}
	}
	return "", -1
}

func (g *gemmaReader) value(p int) (any, int, bool) {
	t := g.s.text
	if p >= g.hi {
		return nil, p, false
	}
	if d := g.delimAt(p); d != "" {
		e := g.s.findIn(d, p+len(d), g.hi)
		if e < 0 {
			return nil, g.hi, false
		}
		return t[p+len(d) : e], e + len(d), true
	}
	if t[p] == '"' {
		// A JSON string where the delimiter belongs.
		for e := p + 1; e < g.hi && e-p < 1<<16; e++ {
			if t[e] == '\\' {
				e++
				continue
			}
			if t[e] == '"' {
				var str string
				if err := json.Unmarshal([]byte(t[p:e+1]), &str); err == nil {
					return str, e + 1, true
				}
				break
			}
		}
	}
	if d, e := g.missingOpener(p); e > 0 {
		// text<|"|>: the opening delimiter was left out.
		return strings.TrimSpace(t[p:e]), e + len(d), true
	}
	switch t[p] {
	case '{':
		return g.object(p)
	case '[':
		if g.depth > 64 {
			return nil, p, false
		}
		g.depth++
		defer func() { g.depth-- }()
		p++
		arr := []any{}
		for {
			p = g.ws(p)
			if p >= g.hi {
				return nil, p, false
			}
			if t[p] == ']' {
				return arr, p + 1, true
			}
			v, np, ok := g.value(p)
			if !ok {
				return nil, np, false
			}
			arr = append(arr, v)
			p = np
		}
	}
	e := p
	for e < g.hi && e-p < 4096 && t[e] != ',' && t[e] != '}' && t[e] != ']' && t[e] != '<' && (g.parens == 0 || t[e] != ')') {
		e++
	}
	raw := strings.TrimSpace(t[p:e])
	switch raw {
	case "true":
		return true, e, true
	case "false":
		return false, e, true
	case "null", "None", "none":
		return nil, e, true
	}
	if isJSONNumber(raw) {
		return json.Number(raw), e, true
	}
	if e == p {
		return nil, e, false
	}
	return raw, e, true
}
