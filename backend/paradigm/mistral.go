package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// Mistral: [TOOL_CALLS][{"name": …, "arguments": …}] (tokenizer before v11)
// and [TOOL_CALLS]name[CALL_ID]id[ARGS]{…} (v11 and later: Nemo, Small 3.x,
// Devstral, Magistral; [ARGS] is sometimes left out), one [TOOL_CALLS] per
// call. Magistral's reasoning, [THINK]…[/THINK], is masked (mask.go).

const FormatMistral = "mistral"

var mistralParser = &parser{
	families: []Family{{ID: FormatMistral, Name: "Mistral", Models: "Mistral 7B v0.3, Nemo, Small 3.x, Devstral, Magistral, Ministral",
		Markers: []string{"[TOOL_CALLS]", "[ARGS]", "[CALL_ID]"},
		Source:  "mistralai/mistral-common tokenizer docs; vLLM mistral tool parser; ollama model/parsers/ministral.go",
		Example: `[TOOL_CALLS]read_file[ARGS]{"path": "notes.md"}`}},
	openers: []opener{{prefix: "[TOOL_CALLS]"}, {prefix: "[ARGS]"}},
	read: func(s *scanner, r readAt) int {
		if r.opener.prefix == "[ARGS]" {
			if r.ctx != ctxTop {
				return -1
			}
			return s.mistralBare(r.j, r.lo, r.hi)
		}
		return s.mistral(r.j, r.hi)
	},
}

// mistralBare reads name[ARGS]{…} written without [TOOL_CALLS] (a server
// that dropped the special token, a template that put it in the prompt):
// the name runs back from [ARGS] to the start of the walk's region.
func (s *scanner) mistralBare(j, lo, hi int) int {
	t := s.text
	k := j
	for k > lo && j-k < 128 && (isIdentByte(t[k-1]) || t[k-1] == '-' || t[k-1] == '.') && t[k-1] < 0x80 {
		k--
	}
	if k == j || (k > 0 && !isSpace(t[k-1]) && t[k-1] != '>' && t[k-1] != ']' && t[k-1] != '}') || strings.HasSuffix(t[:k], "[TOOL_CALLS]") {
		return -1 // after [TOOL_CALLS], which declined it (quoted, say)
	}
	if a := s.skipSpace(j+len("[ARGS]"), hi); a >= hi || t[a] != '{' {
		return -1 // "use render_html[ARGS] to render"
	}
	return s.guard(k, ctxTop, func() int { return s.mistralCalls(k, k, hi) })
}

func (s *scanner) mistral(j, hi int) int {
	t := s.text
	p := s.skipSpace(j+len("[TOOL_CALLS]"), hi)
	if p >= hi {
		s.problem(msgCutOff, FormatMistral, j, hi)
		return hi
	}
	if !(t[p] == '[' || t[p] == '{') && !s.mistralNext(p, hi) {
		// Not name[ARGS]{…} nor name{…}: junk before a JSON list, or the
		// token named in prose.
		q := p
		for q < hi && q-p < 64 && t[q] != '[' && t[q] != '{' && t[q] != '\n' {
			q++
		}
		if q < hi && t[q] == '[' && s.jsonListAt(q, hi) {
			p = q
		} else if q >= hi || t[q] != '{' {
			if s.atLineStart(j, 0) {
				// At the start of a line the token means a call: an
				// unreadable one.
				e := s.findIn("\n", p, hi)
				if e < 0 {
					e = hi
				}
				s.problem("The text after [TOOL_CALLS] is not a tool call Airlock can read, so nothing was run. Write name[ARGS]{…} or a JSON list of calls.", FormatMistral, j, e)
				return e
			}
			return -1
		}
	}
	if t[p] == '[' || t[p] == '{' {
		r := s.readJSON(p, hi, "", true)
		if !r.ok() {
			s.problem(r.msg, FormatMistral, j, max(r.end, p+1))
			return max(r.end, p+1)
		}
		end := r.end
		if q := s.skipSpace(end, hi); strings.HasPrefix(t[q:], "[/TOOL_CALLS]") {
			end = q + len("[/TOOL_CALLS]")
		}
		s.jsonCalls(r, FormatMistral, j, end, true, false)
		if q := s.skipSpace(end, hi); strings.HasPrefix(t[q:], "[TOOL_CALLS]") {
			return s.mistral(q, hi) // the next call of the same message
		}
		return end
	}
	return s.mistralCalls(j, p, hi)
}

// mistralCalls reads name[CALL_ID]id[ARGS]{…} calls from p, the first
// starting at j.
func (s *scanner) mistralCalls(j, p, hi int) int {
	t := s.text
	start := j
	for {
		name, q := s.ident(p, hi)
		if name == "" {
			s.problem("The tool call after [TOOL_CALLS] has no tool name, so it was not run.", FormatMistral, start, max(q, p+1))
			return max(q, p+1)
		}
		id := ""
		if strings.HasPrefix(t[q:], "[CALL_ID]") {
			id, q = s.ident(q+len("[CALL_ID]"), hi)
		}
		if strings.HasPrefix(t[q:], "[ARGS]") {
			q += len("[ARGS]")
		}
		q = s.skipSpace(q, hi)
		if q >= hi || t[q] != '{' {
			msg := "The call of " + strconv.Quote(name) + " has no arguments object, so it was not run."
			if q >= hi {
				msg = msgCutOff
			}
			s.problem(msg, FormatMistral, start, q)
			return q
		}
		r := s.readJSON(q, hi, "", false)
		end := max(r.end, q+1)
		if !r.ok() {
			s.problem(r.msg, FormatMistral, start, end)
		} else {
			obj, _ := r.vals[0].(ojson.Object)
			it := item{id: id, name: name, args: obj, format: FormatMistral, start: start, end: end}
			if obj == nil {
				it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
			}
			s.add(it)
		}
		p = s.skipSpace(end, hi)
		switch {
		case strings.HasPrefix(t[p:], "[TOOL_CALLS]"):
			start = p
			p = s.skipSpace(p+len("[TOOL_CALLS]"), hi)
			if p < hi && (t[p] == '[' || t[p] == '{') {
				return s.mistral(start, hi)
			}
		case p < hi && isIdentByte(t[p]) && s.mistralNext(p, hi):
			// name[ARGS]{…} again without a second [TOOL_CALLS]
			start = p
		default:
			return end
		}
	}
}

// mistralNext says a name followed by [ARGS] or [CALL_ID] starts at p.
func (s *scanner) mistralNext(p, hi int) bool {
	name, q := s.ident(p, hi)
	if name == "" {
		return false
	}
	return strings.HasPrefix(s.text[q:], "[ARGS]") || strings.HasPrefix(s.text[q:], "[CALL_ID]") || q < hi && s.text[q] == '{'
}
