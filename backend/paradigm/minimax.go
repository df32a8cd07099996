package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// Invoke XML: <invoke name="f"><parameter name="k">v</parameter></invoke>,
// inside <minimax:tool_call> (MiniMax-M2) or <function_calls> (Claude-style
// fine-tunes), or bare. DeepSeek's DSML (deepseek_dsml.go) spells the same
// shape with ｜DSML｜ in every tag and is read by the same code. Values are
// raw text, or JSON when the tag says string="false".

const FormatInvoke = "minimax"

var invokeParser = &parser{
	families: []Family{{ID: FormatInvoke, Name: "Invoke XML", Models: "MiniMax-M2/M2.1, Claude-style fine-tunes",
		Markers: []string{"<minimax:tool_call>", "<function_calls>", `<invoke name=`},
		Source:  "MiniMax-AI/MiniMax-M2 tool calling guide; vLLM minimax_m2 tool parser",
		Example: "<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">notes.md</parameter>\n</invoke>\n</minimax:tool_call>"}},
	openers: []opener{{tag: "invoke"}},
	read: func(s *scanner, r readAt) int {
		return s.invokeIn(r.j, r.g, "", r.hi, true)
	},
	payload: func(s *scanner, w wrapper, k int) int {
		g, ok := s.parseTag(k, len(s.text))
		if !ok || !isInvoke(g) {
			return -1
		}
		return s.invokeList(w.j, k, w.closer, "", len(s.text))
	},
}

// invokeList reads invokes until closer.
func (s *scanner) invokeList(j, k int, closer, label string, hi int) int {
	p := k
	n := len(s.items)
	read, closed := false, false
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if closer != "" && strings.HasPrefix(s.text[p:], closer) {
			p += len(closer)
			closed = true
			break
		}
		g, ok := s.parseTag(p, hi)
		if !ok || g.closing || !isInvoke(g) {
			break
		}
		end := s.invokeIn(p, g, label, hi, false)
		if end <= p {
			break
		}
		read = true
		p = end
	}
	if !read {
		return -1
	}
	if !closed {
		s.closerAtEnd(p, closer, hi) // the wrapper's closer never came
	}
	if len(s.items) > n {
		// The first call's span starts at the wrapper, the last one's ends
		// after it.
		s.items[n].start = j
		if last := len(s.items) - 1; s.items[last].end < p {
			s.items[last].end = p
		}
	}
	return p
}

// invokeIn reads one <invoke name="x">…</invoke>. Unwrapped (bare), it must
// be closed or hold a parameter, or it is a tag mentioned in prose.
func (s *scanner) invokeIn(j int, g tag, label string, hi int, bare bool) int {
	t := s.text
	if label == "" {
		label = invokeFamily(g)
	}
	name, ok := attr(g.attrs, "name")
	if k := strings.Index(name, "<|"); k > 0 {
		name = name[:k] // a special token leaked into the name: read<|message|>
	}
	name = strings.TrimSpace(name)
	if !ok || !validName(name, false) {
		return -1
	}
	invokeCloser := g.closer()
	paramOpen := strings.TrimSuffix(g.rawName, "invoke") + "parameter"
	spec := valueSpec{closer: "</" + strings.TrimPrefix(paramOpen, "<") + ">", next: []string{paramOpen, invokeCloser}, stop: paramOpen, end: invokeCloser}
	args := ojson.Object{}
	cut, closed := false, false
	p := g.end
	if a := s.skipSpace(p, hi); a < hi && t[a] == '{' {
		// A JSON object instead of parameter tags.
		r := s.readJSON(a, hi, invokeCloser, false)
		if !r.ok() {
			end := s.afterCloser(max(r.end, a), invokeCloser, hi)
			s.problem(r.msg, label, j, end)
			return end
		}
		obj, _ := r.vals[0].(ojson.Object)
		end := s.afterCloser(r.end, invokeCloser, hi)
		it := item{name: name, args: obj, format: label, start: j, end: end}
		if obj == nil {
			it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
		}
		s.add(it)
		return end
	}
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], invokeCloser) {
			p += len(invokeCloser)
			closed = true
			break
		}
		if !strings.HasPrefix(t[p:], paramOpen) {
			break
		}
		pg, ok := s.parseTag(p, hi)
		if !ok {
			break
		}
		pname, _ := attr(pg.attrs, "name")
		vs := pg.end
		end, next, complete := s.valueEnd(vs, hi, spec)
		if !complete {
			cut = true
		}
		isStr, has := attr(pg.attrs, "string")
		v := textOf(s.valueText(vs, end, false))
		v.JSON = has && isStr == "false"
		args = append(args, ojson.Member{Key: pname, Value: v})
		p = next
	}
	if bare && !closed && len(args) == 0 {
		return -1
	}
	it := item{name: name, args: args, format: label, start: j, end: p, open: !closed}
	if cut {
		it.msg = msgCutOff
	}
	s.add(it)
	return p
}

func isInvoke(g tag) bool { return g.name == "invoke" || g.alias == "invoke" }

// invokeFamily names the family by the invoke's namespace.
func invokeFamily(g tag) string {
	switch strings.TrimSuffix(g.name, ":invoke") {
	case "dsml":
		return FormatDSML
	case "steptml":
		return FormatStep3
	case "gcml":
		return FormatGigaChat
	}
	return FormatInvoke
}

// invokeBracketless reads an invoke whose tags lost their '<' and '</', at
// the start of a line (MiniMax M2.1–M2.7 quants, exo issue 1882):
//
//	invoke name="get_weather">
//	parameter name="location">Parisparameter>
//	invoke>
//
// A value ends at its closer, with or without its "</"; the message ending
// inside one is a cut-off call.
func (s *scanner) invokeBracketless(j, hi int) int {
	t := s.text
	name, p, ok := bracketlessOpener(t, j, hi, "invoke")
	if !ok || !validName(name, false) {
		return -1
	}
	args := ojson.Object{}
	cut, closed := false, false
	for n := 0; n < 256; n++ {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if c := bracketlessCloser(t[p:], "invoke"); c > 0 {
			p += c
			closed = true
			break
		}
		key, vs, ok := bracketlessOpener(t, p, hi, "parameter")
		if !ok {
			break
		}
		ve := s.findIn("parameter>", vs, hi)
		if ve < 0 {
			cut, p = true, hi
			break
		}
		end := ve
		if strings.HasSuffix(t[vs:end], "</") {
			end -= 2
		}
		args = append(args, ojson.Member{Key: key, Value: textOf(s.valueText(vs, end, false))})
		p = ve + len("parameter>")
	}
	if !closed && len(args) == 0 && !cut && !(p >= hi && hi == len(t)) {
		return -1 // at the end of the message: cut right after the name
	}
	it := item{name: name, args: args, format: FormatInvoke, start: j, end: p, open: !closed}
	if cut {
		it.msg = msgCutOff
	}
	s.add(it)
	return p
}

// bracketlessOpener reads `tag name="x">` at p: the name and where the
// tag ends.
func bracketlessOpener(t string, p, hi int, tag string) (string, int, bool) {
	pre := tag + ` name="`
	if !strings.HasPrefix(t[p:hi], pre) {
		return "", p, false
	}
	q := p + len(pre)
	e := strings.IndexByte(t[q:hi], '"')
	if e < 0 || e > 128 || !strings.HasPrefix(t[q+e:hi], `">`) {
		return "", p, false
	}
	return t[q : q+e], q + e + 2, true
}

// bracketlessCloser is the length of `tag>` or `</tag>` at the start of
// rest, or 0.
func bracketlessCloser(rest, tag string) int {
	for _, c := range []string{tag + ">", "</" + tag + ">", "/" + tag + ">"} {
		if strings.HasPrefix(rest, c) {
			return len(c)
		}
	}
	return 0
}
