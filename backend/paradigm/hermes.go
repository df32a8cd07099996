package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// JSON inside a wrapper tag: Hermes and Qwen's <tool_call>{"name": …,
// "arguments": …}</tool_call> (one call per tag, or a list, or several
// objects one per line), Airlock's XML paradigm (<tool_code>), Jamba,
// Hunyuan and MiniMax-M1's <tool_calls>, LongCat's <longcat_tool_call>,
// Apertus's <|tools_prefix|>[{"name": {…}}]<|tools_suffix|>; and a name
// followed by its JSON arguments (<tool_call>get_weather {"city": …}).

const (
	FormatXML     = "xml"     // Airlock's XML paradigm
	FormatHermes  = "hermes"  // <tool_call>{…}</tool_call>
	FormatApertus = "apertus" // <|tools_prefix|>[{"name": {…}}]<|tools_suffix|>
)

var hermesParser = &parser{
	families: []Family{
		{ID: FormatXML, Name: "Airlock XML", Models: "any (XML paradigm)",
			Markers: []string{"<tool_code>"},
			Source:  "Airlock's own paradigm (paradigm/xml_paradigm.go)",
			Example: `<tool_code>{"name":"read_file","arguments":{"path":"notes.md"}}</tool_code>`},
		{ID: FormatHermes, Name: "Hermes", Models: "Hermes 2/3, Qwen 2.5/3, QwQ, ERNIE 4.5, Jamba, Hunyuan, MiniMax-M1, LongCat, many fine-tunes",
			Markers: []string{"<tool_call>", "<tool_calls>", "<function_call>", "<longcat_tool_call>"},
			Source:  "NousResearch/Hermes-Function-Calling; Qwen function-calling docs; vLLM hermes, jamba, hunyuan, minimax, longcat tool parsers",
			Example: "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.md\"}}\n</tool_call>"},
		{ID: FormatApertus, Name: "Apertus", Models: "Swiss AI Apertus",
			Markers: []string{"<|tools_prefix|>"},
			Source:  "vLLM apertus tool parser; llama.cpp chat tests",
			Example: `<|tools_prefix|>[{"read_file": {"path": "notes.md"}}]<|tools_suffix|>`},
	},
	payload: func(s *scanner, w wrapper, k int) int {
		t := s.text
		hi := len(t)
		switch {
		case t[k] == '{' || t[k] == '[' && s.jsonListAt(k, hi):
			label := w.label
			if w.g.name == "|tools_prefix|" {
				label = FormatApertus
			}
			start := w.j
			if end := s.doubledBraces(w, k, label, hi); end > 0 {
				return end
			}
			if end := s.namedWrapper(w, k, label, hi); end > 0 {
				return end
			}
			for {
				r := s.readJSON(k, hi, w.closer, true)
				end := s.afterCloser(max(r.end, k), w.closer, hi)
				if !r.ok() {
					s.problem(r.msg, label, start, end)
					return end
				}
				s.jsonCalls(r, label, start, end, true, false)
				if end > r.end || w.closer == "" {
					return end // the closer followed
				}
				// Something unreadable before the closer (one call per line,
				// one of them broken): say so, and read on after its line.
				q := s.skipSpace(r.end, hi)
				c := s.findIn(w.closer, q, hi)
				nl := s.findIn("\n", q, hi)
				if c < 0 || nl < 0 || nl > c {
					return end
				}
				next := s.skipSpace(nl, hi)
				s.problem("This line is not a tool call Airlock can read, so it was not run: "+strconv.Quote(strings.TrimSpace(s.text[q:nl])), label, q, nl)
				if next >= hi || s.text[next] != '{' {
					return s.afterCloser(next, w.closer, hi)
				}
				k, start = next, next
			}
		case isIdentByte(t[k]):
			// name {json}
			name, p := s.ident(k, hi)
			q := s.skipSpace(p, hi)
			if name != "" && q > p && q < hi && isIdentByte(t[q]) {
				return s.attrCall(w, name, q, hi)
			}
			if name == "" || q >= hi || t[q] != '{' {
				return -1
			}
			r := s.readJSON(q, hi, w.closer, false)
			end := s.afterCloser(max(r.end, q), w.closer, hi)
			if !r.ok() {
				s.problem(r.msg, w.label, w.j, end)
				return end
			}
			obj, _ := r.vals[0].(ojson.Object)
			it := item{name: name, args: obj, format: w.label, start: w.j, end: end}
			if obj == nil {
				it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
			}
			s.add(it)
			return end
		}
		return -1
	},
}

// jsonListAt says a JSON list of objects (or an empty one) opens at k, not
// a pythonic list ([get_time()]).
func (s *scanner) jsonListAt(k, hi int) bool {
	p := s.skipSpace(k+1, hi)
	return p < hi && (s.text[p] == '{' || s.text[p] == ']')
}

// doubledBraces reads a call object wrapped in a second pair of braces,
// {{"name": …, "arguments": {…}}}, as models copy it from prompts written
// with format strings (Qwen issue 924): the inner object must be a call
// and the extra '}' must stand right before the closer.
func (s *scanner) doubledBraces(w wrapper, k int, label string, hi int) int {
	t := s.text
	q := s.skipSpace(k+1, hi)
	if q >= hi || t[q] != '{' || w.closer == "" {
		return -1
	}
	r := s.readJSON(q, hi, w.closer, false)
	if !r.ok() {
		return -1
	}
	e := s.skipSpace(r.end, hi)
	if e >= hi || t[e] != '}' || !strings.HasPrefix(t[s.skipSpace(e+1, hi):], w.closer) {
		return -1
	}
	if _, _, ok := callsIn(r.vals[0], false); !ok {
		return -1
	}
	end := s.afterCloser(e+1, w.closer, hi)
	s.jsonCalls(r, label, w.j, end, true, false)
	return end
}

// attrCall reads a call whose arguments are attributes after its name,
// <tool_call>exec command="ls -la" /> or …</tool_call> (OpenClaw issue
// 33258): key="value" pairs, then "/>" or the closer. A tool= or name=
// attribute that repeats the name is not an argument.
func (s *scanner) attrCall(w wrapper, name string, p, hi int) int {
	t := s.text
	args := ojson.Object{}
	cut := false
	for n := 0; n < 256; n++ {
		p = s.skipSpace(p, hi)
		if p >= hi || !isIdentByte(t[p]) {
			break
		}
		key, e := s.ident(p, hi)
		if key == "" || e >= hi || t[e] != '=' {
			return -1 // words, not attributes
		}
		if e+1 >= hi {
			cut, p = true, hi
			break
		}
		if t[e+1] != '"' && t[e+1] != '\'' {
			return -1
		}
		q := t[e+1]
		ve := strings.IndexByte(t[e+2:hi], q)
		if ve < 0 {
			cut, p = true, hi
			break
		}
		v := t[e+2 : e+2+ve]
		p = e + 3 + ve
		if (key == "tool" || key == "name") && v == name {
			continue
		}
		args = append(args, ojson.Member{Key: key, Value: v})
	}
	if !cut && len(args) == 0 {
		return -1
	}
	closed := false
	if strings.HasPrefix(t[p:hi], "/>") {
		p += 2
		closed = true
	}
	if q := s.skipSpace(p, hi); w.closer != "" && strings.HasPrefix(t[q:hi], w.closer) {
		p = q + len(w.closer)
		closed = true
	}
	if !closed && !cut && p < hi {
		return -1 // more text: not attributes after all
	}
	it := item{name: name, args: args, format: w.label, start: w.j, end: p, open: !closed}
	if cut {
		it.msg = msgCutOff
	}
	s.add(it)
	return p
}

// namedWrapper reads a call whose name is an attribute of the wrapper tag
// and whose payload is its arguments, <tool_call id="c1" name="f">{"k":
// "v"}</tool_call> (DeepSeek V4 in Memoh, issue 435). A payload that is
// itself a call object, or names a tool, is left to the usual reading.
func (s *scanner) namedWrapper(w wrapper, k int, label string, hi int) int {
	name, ok := attr(w.g.attrs, "name")
	name = strings.TrimSpace(name)
	if !ok || !validName(name, true) || s.text[k] != '{' {
		return -1
	}
	r := s.readJSON(k, hi, w.closer, false)
	if !r.ok() {
		return -1
	}
	obj, _ := r.vals[0].(ojson.Object)
	if obj == nil {
		return -1
	}
	if _, _, isCall := callsIn(obj, false); isCall {
		return -1
	}
	for _, key := range nameKeys {
		if _, has := obj.Get(key); has {
			return -1
		}
	}
	end := s.afterCloser(max(r.end, k), w.closer, hi)
	if q := s.skipSpace(r.end, hi); q < hi && !strings.HasPrefix(s.text[q:hi], w.closer) {
		return -1 // more than one object before the closer
	}
	id, _ := attr(w.g.attrs, "id")
	s.add(item{id: id, name: name, args: obj, format: label, start: w.j, end: end})
	return end
}
