package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// Qwen3-Coder's XML: <function=name> with one <parameter=key>value</parameter>
// per argument, inside <tool_call> (Qwen3-Coder, Qwen3.5/3.6, Seed-OSS in
// <seed:tool_call>, MiniCPM, …) or bare. Several functions may share one
// wrapper. Values are raw text; a registry coerces them by the schema.
// Llama 3.1's custom tool format, <function=name>{"k": "v"}</function>,
// shares the opener and is read here too.

const FormatQwenCoder = "qwen3coder"

var qwen3CoderParser = &parser{
	families: []Family{{ID: FormatQwenCoder, Name: "Qwen3-Coder XML", Models: "Qwen3-Coder, Qwen3.5/3.6, Seed-OSS, MiniCPM, Nemotron 3",
		Markers: []string{"<function=", "<parameter=", "<seed:tool_call>"},
		Source:  "QwenLM/Qwen3-Coder qwen3coder_tool_parser; vLLM qwen3coder and seed_oss tool parsers; ollama model/parsers/qwen3coder.go",
		Example: "<tool_call>\n<function=read_file>\n<parameter=path>\nnotes.md\n</parameter>\n</function>\n</tool_call>"}},
	openers: []opener{{tag: "function"}},
	read: func(s *scanner, r readAt) int {
		return s.functionTags(r.j, r.g, "", r.hi)
	},
	payload: func(s *scanner, w wrapper, k int) int {
		if !strings.HasPrefix(s.text[k:], "<function") {
			return -1
		}
		g, ok := s.parseTag(k, len(s.text))
		if !ok || g.name != "function" {
			return -1
		}
		n := len(s.items)
		end := s.functionTags(w.j, g, w.closer, len(s.text))
		if end < 0 {
			return -1
		}
		end = s.afterCloser(end, w.closer, len(s.text))
		if len(s.items) > n {
			s.items[n].start = w.j // the wrapper is part of the first call's text
			s.items[len(s.items)-1].end = end
		}
		return end
	},
}

// functionTags reads <function=…> calls, one after another, starting with
// the tag g. outer is the wrapper's closer, if any: reading stops there.
func (s *scanner) functionTags(j int, g tag, outer string, hi int) int {
	end := s.functionTag(j, g, outer, hi)
	if end < 0 {
		return -1
	}
	for {
		p := s.skipSpace(end, hi)
		if p >= hi || !strings.HasPrefix(s.text[p:], "<function") || (outer != "" && strings.HasPrefix(s.text[p:], outer)) {
			return end
		}
		ng, ok := s.parseTag(p, hi)
		if !ok || ng.name != "function" {
			return end
		}
		e := s.functionTag(p, ng, outer, hi)
		if e < 0 {
			return end
		}
		end = e
	}
}

// functionTag reads one <function=name> followed by either a JSON object
// (Llama 3.1, </function> closing it) or a <parameter=p>value</parameter>
// list.
func (s *scanner) functionTag(j int, g tag, outer string, hi int) int {
	t := s.text
	name, ok := eqName(g.attrs)
	if !ok || !validName(name, false) {
		return -1
	}
	p := s.skipSpace(g.end, hi)
	if p < hi && t[p] == '{' {
		r := s.readJSON(p, hi, "</function>", false)
		end := s.afterCloser(max(r.end, p), "</function>", hi)
		if !r.ok() {
			s.problem(r.msg, FormatLlama, j, end)
			return end
		}
		obj, _ := r.vals[0].(ojson.Object)
		it := item{name: name, args: obj, format: FormatLlama, start: j, end: end}
		if obj == nil {
			it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
		}
		s.add(it)
		return end
	}
	args := ojson.Object{}
	cut, closed, noName := false, false, false
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], "<param") {
			// <parameter=k> (Qwen3-Coder) or <param name="k"> (MiniCPM 5)
			pg, ok := s.parseTag(p, hi)
			if !ok || (pg.name != "parameter" && pg.name != "param") {
				break
			}
			pname, _ := eqName(pg.attrs)
			if pname == "" {
				noName = true
			}
			spec := valueSpec{closer: "</" + pg.name + ">", next: []string{"<param", "</function>", "<function"}, stop: "<" + pg.name, end: "</function>", weak: outer}
			if pg.name == "param" {
				spec.stop = "<param " // not <parameter
			}
			vs := pg.end
			end, next, complete := s.valueEnd(vs, hi, spec)
			if !complete {
				cut = true
			}
			val, padded := s.paddedValue(p, vs, end)
			if !padded {
				val = s.valueText(vs, end, false)
			}
			if next == end {
				val = strings.TrimRight(val, " \t\r\n") // the closer was forgotten
			}
			args = append(args, ojson.Member{Key: pname, Value: textOf(val)})
			p = next
			continue
		}
		if strings.HasPrefix(t[p:], "</function>") {
			p += len("</function>")
			closed = true
		}
		break
	}
	if outer == "" && len(args) == 0 && (!closed || s.midSentence(j, p, hi)) {
		return -1 // "<function=name>" mentioned in prose
	}
	// Neither </function> nor the wrapper's closer before the text ended:
	// endrule.go decides (cut off, or only closers missing).
	it := item{name: name, args: args, format: FormatQwenCoder, start: j, end: p, open: !closed && (outer == "" || !strings.HasPrefix(t[p:], outer))}
	switch {
	case cut:
		it.msg = msgCutOff
	case noName:
		it.msg = "A parameter of " + strconv.Quote(name) + " has no name, so the call was not run. Write each argument as <parameter=NAME>value</parameter>."
	}
	s.add(it)
	return p
}

// paddedValue reads a value laid out with blanks that are not its own:
//
//   - padded on one line, <parameter=q> small models </parameter> (a blank
//     on both sides, no line break): the blanks go, as llama.cpp's
//     Qwen3-Coder parser trims every raw value (trim_raw_argval);
//   - a block indented as a whole, the opener, every line of the value and
//     the closer standing at the same indentation: that indentation goes
//     from each line, with the line breaks after the opener and before the
//     closer.
//
// Any other value keeps its blanks (vLLM's parser drops only one line
// break on each side), so a one-line edit's own indentation survives.
func (s *scanner) paddedValue(open, vs, end int) (string, bool) {
	t := s.text
	raw := t[vs:end]
	if raw == "" || strings.IndexByte(raw, '\r') >= 0 {
		return "", false
	}
	isBlank := func(c byte) bool { return c == ' ' || c == '\t' }
	if strings.IndexByte(raw, '\n') < 0 {
		v := strings.Trim(raw, " \t")
		if v != "" && isBlank(raw[0]) && isBlank(raw[len(raw)-1]) {
			return v, true
		}
		return "", false
	}
	ls := strings.LastIndexByte(t[:open], '\n') + 1
	ind := t[ls:open]
	last := strings.LastIndexByte(raw, '\n')
	if ind == "" || strings.Trim(ind, " \t") != "" || raw[0] != '\n' || last == 0 || raw[last+1:] != ind {
		return "", false
	}
	lines := strings.Split(raw[1:last], "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, ind) {
			if strings.Trim(l, " \t") != "" {
				return "", false
			}
			l = ind
		}
		lines[i] = l[len(ind):]
	}
	return strings.Join(lines, "\n"), true
}
