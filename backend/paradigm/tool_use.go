package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// Cherry Studio's prompt-mode tool use: <tool_use><name>f</name>
// <arguments>{…}</arguments></tool_use>, results back in <tool_use_result>.

const FormatToolUse = "tool_use"

var toolUseParser = &parser{
	families: []Family{{ID: FormatToolUse, Name: "Tool use XML", Models: "any model under Cherry Studio's prompt tool mode",
		Markers: []string{"<tool_use>", "<name>", "<arguments>"},
		Source:  "CherryHQ/cherry-studio prompt tool use (parseToolUse)",
		Example: "<tool_use>\n  <name>read_file</name>\n  <arguments>{\"path\": \"notes.md\"}</arguments>\n</tool_use>"}},
	payload: func(s *scanner, w wrapper, k int) int {
		if !strings.HasPrefix(s.text[k:], "<name>") {
			return -1
		}
		return s.toolUse(w, k, len(s.text))
	},
}

func (s *scanner) toolUse(w wrapper, k, hi int) int {
	t := s.text
	ns := k + len("<name>")
	ne := s.findIn("</name>", ns, hi)
	if ne < 0 || ne-ns > 256 {
		return -1
	}
	name := strings.TrimSpace(t[ns:ne])
	p := s.skipSpace(ne+len("</name>"), hi)
	label := w.label
	if label == FormatHermes {
		label = FormatToolUse
	}
	it := item{name: name, args: ojson.Object{}, format: label, start: w.j}
	if strings.HasPrefix(t[p:], "<arguments>") {
		vs := p + len("<arguments>")
		end, next, complete := s.valueEnd(vs, hi, valueSpec{closer: "</arguments>", next: []string{w.closer}, weak: w.closer})
		p = next
		raw := strings.TrimSpace(t[vs:end])
		switch {
		case !complete:
			it.msg = msgCutOff
		case raw == "":
		default:
			v, err := decodeLenient(raw)
			obj, isObj := v.(ojson.Object)
			if err != nil || !isObj {
				it.msg = "The arguments of " + strconv.Quote(name) + " are not a JSON object, so the call was not run."
			} else {
				it.args = obj
			}
		}
	}
	it.end = s.afterCloser(p, w.closer, hi)
	s.add(it)
	return it.end
}
