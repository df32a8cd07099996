package paradigm

import (
	"strings"

	"airlock/backend/tools/ojson"
)

// GLM-4.5/4.6/4.7: the name, then <arg_key>k</arg_key><arg_value>v</arg_value>
// pairs, inside <tool_call> (one call per tag; 4.7 writes them without
// line breaks). Values are raw text.

const FormatGLM = "glm"

var glmParser = &parser{
	families: []Family{{ID: FormatGLM, Name: "GLM", Models: "GLM-4.5, 4.6, 4.7",
		Markers: []string{"<tool_call>name", "<arg_key>", "<arg_value>"},
		Source:  "zai-org/GLM-4.5 chat template; vLLM glm4_moe and glm47 tool parsers; ollama model/parsers/glm46.go",
		Example: "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>notes.md</arg_value>\n</tool_call>"}},
	payload: func(s *scanner, w wrapper, k int) int {
		t := s.text
		hi := len(t)
		if !isIdentByte(t[k]) {
			return -1
		}
		name, p := s.ident(k, hi)
		q := s.skipSpace(p, hi)
		if name == "" || !validName(name, false) || q >= hi {
			return -1
		}
		if !strings.HasPrefix(t[q:], "<arg_key>") && !strings.HasPrefix(t[q:], w.closer) {
			return -1
		}
		return s.glm(w.j, name, q, w.closer, hi)
	},
}

// glm reads the <arg_key>/<arg_value> pairs from p to closer.
func (s *scanner) glm(j int, name string, p int, closer string, hi int) int {
	t := s.text
	args := ojson.Object{}
	cut := false
	spec := valueSpec{closer: "</arg_value>", next: []string{"<arg_key>", closer}, stop: "<arg_key>", weak: closer}
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], closer) {
			p += len(closer)
			break
		}
		if !strings.HasPrefix(t[p:], "<arg_key>") {
			break
		}
		ks := p + len("<arg_key>")
		ke := s.findIn("</arg_key>", ks, hi)
		if ke < 0 || ke-ks > 256 {
			cut = ke < 0
			p = hi
			break
		}
		key := strings.TrimSpace(t[ks:ke])
		p = s.skipSpace(ke+len("</arg_key>"), hi)
		if !strings.HasPrefix(t[p:], "<arg_value>") {
			args = append(args, ojson.Member{Key: key, Value: ""})
			continue
		}
		vs := p + len("<arg_value>")
		end, next, complete := s.valueEnd(vs, hi, spec)
		if !complete {
			cut = true
		}
		args = append(args, ojson.Member{Key: key, Value: t[vs:end]})
		p = next
	}
	it := item{name: name, args: args, format: FormatGLM, start: j, end: p}
	if cut {
		it.msg = msgCutOff
	}
	s.add(it)
	return p
}
