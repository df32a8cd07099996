package paradigm

import (
	"encoding/json"
	"strconv"
	"strings"

	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// GLM-4.5/4.6/4.7: the name, then <arg_key>k</arg_key><arg_value>v</arg_value>
// pairs, inside <tool_call> (one call per tag; 4.7 writes them without line
// breaks). Hunyuan writes the same inside <tool_calls>, with a <tool_sep>
// after the name, and its newer models add a suffix to every tag
// (<arg_key:opensource>). Values are raw text.

const FormatGLM = "glm"

var glmParser = &parser{
	families: []Family{{ID: FormatGLM, Name: "GLM", Models: "GLM-4.5, 4.6, 4.7; Hunyuan; Ling; HyperCLOVA X",
		Markers: []string{"<tool_call>name", "<arg_key>", "<arg_value>", "<tool_sep>"},
		Source:  "zai-org/GLM-4.5 chat template; vLLM glm4_moe, glm47 and hunyuan tool parsers; ollama model/parsers/glm46.go",
		Example: "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>notes.md</arg_value>\n</tool_call>"}},
	payload: func(s *scanner, w wrapper, k int) int {
		t := s.text
		hi := len(t)
		if !isIdentByte(t[k]) {
			return -1
		}
		name, p := s.ident(k, hi)
		pre, sfx := glmAffixes(w.g)
		q := s.skipTagSpace(p, hi)
		if sep := "<" + pre + "tool_sep" + sfx + ">"; strings.HasPrefix(t[q:], sep) {
			q = s.skipTagSpace(q+len(sep), hi)
		}
		if name == "" || !validName(name, false) || q >= hi {
			return -1
		}
		if strings.HasPrefix(t[q:], w.closer) && (w.g.alias != "tool_call" && !strings.HasSuffix(w.g.name, "tool_call") ||
			s.midSentence(w.j, q+len(w.closer), hi) && (s.known == nil || !s.known(name))) {
			// A bare word is a call without arguments only in GLM's own
			// <tool_call>, and not in the middle of a sentence.
			return -1
		}
		if !strings.HasPrefix(t[q:], "<"+pre+"arg_key"+sfx+">") && !strings.HasPrefix(t[q:], w.closer) {
			if name, ks := s.glmLostKeyOpener(k, name, p, q, "</"+pre+"arg_key"+sfx+">", hi); ks >= 0 {
				return s.glm(w.j, name, ks, w.closer, pre, sfx, hi)
			}
			return -1
		}
		return s.glm(w.j, name, q, w.closer, pre, sfx, hi)
	},
}

// glmLostKeyOpener reads a call whose first <arg_key> was lost (vLLM PR
// 47190: "<tool_call>browser_action task</arg_key>",
// "<tool_call>grep_toolpattern</arg_key>"): the name, then the first key
// up to its closer. When a blank parts them the split is plain; when the
// key is glued to the name, only a tool of the chat's that the word starts
// with tells them apart, the longest such. It returns the name and where
// the first key starts (just after a virtual <arg_key>), or -1.
func (s *scanner) glmLostKeyOpener(k int, name string, p, q int, keyClose string, hi int) (string, int) {
	t := s.text
	if q > p {
		key, e := s.ident(q, hi)
		if key != "" && strings.HasPrefix(t[e:], keyClose) {
			return name, q
		}
		return "", -1
	}
	if s.known == nil || !strings.HasPrefix(t[p:], keyClose) {
		return "", -1
	}
	for n := len(name) - 1; n > 0; n-- {
		if s.known(name[:n]) {
			return name[:n], k + n
		}
	}
	return "", -1
}

// glmAffixes are what the wrapper's name adds around "tool_call", and so
// around "arg_key" and "arg_value": LongCat's "longcat_" before it,
// Hunyuan's ":opensource" after it.
func glmAffixes(g tag) (prefix, suffix string) {
	if g.alias != "" && strings.HasPrefix(g.name, g.alias+":") {
		suffix = g.rawName[1+len(g.alias):]
	}
	if base, ok := strings.CutSuffix(g.name, "tool_call"); ok && !strings.Contains(base, ":") {
		prefix = base
	}
	return prefix, suffix
}

// skipTagSpace skips blanks between tags, and the two characters \n or \t
// that some servers leave in raw output.
func (s *scanner) skipTagSpace(p, hi int) int {
	t := s.text
	for p < hi {
		switch {
		case isSpace(t[p]):
			p++
		case t[p] == '\\' && p+1 < hi && (t[p+1] == 'n' || t[p+1] == 't') && p+2 < hi && (t[p+2] == '<' || t[p+2] == '\\'):
			p += 2
		default:
			return p
		}
	}
	return p
}

// unquoteAll decodes the values of a call whose every value is a JSON
// string ("Seoul"): HyperCLOVA X writes GLM's tags with JSON-encoded
// values. One quoted value among plain ones is text.
func unquoteAll(args ojson.Object) {
	for _, m := range args {
		t, ok := m.Value.(tools.Text)
		if s := strings.TrimSpace(t.S); !ok || len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' || !json.Valid([]byte(s)) {
			return
		}
	}
	for i, m := range args {
		var str string
		if json.Unmarshal([]byte(strings.TrimSpace(m.Value.(tools.Text).S)), &str) == nil {
			args[i].Value = str
		}
	}
}

// glm reads the <arg_key>/<arg_value> pairs from p to closer.
func (s *scanner) glm(j int, name string, p int, closer, pre, sfx string, hi int) int {
	t := s.text
	keyOpen, keyClose := "<"+pre+"arg_key"+sfx+">", "</"+pre+"arg_key"+sfx+">"
	valOpen := "<" + pre + "arg_value" + sfx + ">"
	spec := valueSpec{closer: "</" + pre + "arg_value" + sfx + ">", next: []string{keyOpen, closer}, stop: keyOpen, weak: closer}
	bare := closer == "" // the wrapper stripped by the server (glmBare)
	if bare {
		spec.next = spec.next[:1]
	}
	args := ojson.Object{}
	cut, closed, noValue, first, last := false, false, "", true, 0
	for {
		p = s.skipTagSpace(p, hi)
		if p >= hi {
			break
		}
		if !bare && strings.HasPrefix(t[p:], closer) {
			p += len(closer)
			closed = true
			break
		}
		ks := p + len(keyOpen)
		if first && !strings.HasPrefix(t[p:], keyOpen) {
			ks = p // the first <arg_key> was lost (glmLostKeyOpener)
		} else if !strings.HasPrefix(t[p:], keyOpen) {
			break
		}
		first = false
		ke := s.findIn(keyClose, ks, hi)
		if ke < 0 || ke-ks > 256 {
			cut = ke < 0
			p = hi
			break
		}
		key := strings.TrimSpace(t[ks:ke])
		p = s.skipTagSpace(ke+len(keyClose), hi)
		vs := p + len(valOpen)
		if !strings.HasPrefix(t[p:], valOpen) {
			// The opener was forgotten (New York</arg_value>), or the value.
			ve := s.findIn(spec.closer, p, hi)
			if nk := s.findIn(keyOpen, p, hi); ve < 0 || nk >= 0 && nk < ve || !bare && strings.HasPrefix(t[p:], closer) {
				noValue = key
				continue
			}
			vs = p
		}
		end, next, complete := s.valueEnd(vs, hi, spec)
		if !complete {
			cut = true
		}
		args = append(args, ojson.Member{Key: key, Value: textOf(s.valueText(vs, end, false))})
		p, last = next, next
	}
	unquoteAll(args)
	if bare {
		// Nothing closes it: it ends after its last value, where the walk
		// goes on (the next line may hold the next call).
		closed = true
		if !cut && last > 0 {
			p = last
		}
	}
	// Not closed when the message ended: endrule.go decides.
	it := item{name: name, args: args, format: FormatGLM, start: j, end: p, open: !closed && p >= hi}
	switch {
	case cut:
		it.msg = msgCutOff
	case !closed && p < hi:
		it.msg = "The call of " + strconv.Quote(name) + " is not closed with " + closer + ", so it was not run. Write the whole call again."
	case noValue != "":
		it.msg = "The argument " + strconv.Quote(noValue) + " of " + strconv.Quote(name) + " has no value, so the call was not run."
	}
	s.add(it)
	return p
}

// glmBare reads a GLM call whose <tool_call> and </tool_call> a server
// stripped before handing the text on (mlx-lm issue 607): a line holding
// only the name of a tool of the chat's, then <arg_key>/<arg_value> pairs.
// Without the chat's tools, or under any other name, it is text.
func (s *scanner) glmBare(k, hi int) int {
	t := s.text
	if s.known == nil {
		return -1
	}
	name, p := s.ident(k, hi)
	if name == "" || !s.known(name) {
		return -1
	}
	for p < hi && (t[p] == ' ' || t[p] == '\t' || t[p] == '\r') {
		p++
	}
	if p < hi && t[p] == '\n' {
		p++
	}
	if !strings.HasPrefix(t[p:hi], "<arg_key>") {
		return -1
	}
	return s.glm(k, name, p, "", "", "", hi)
}
