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
	openers: []opener{{prefix: "[TOOL_CALLS]"}},
	read: func(s *scanner, r readAt) int {
		return s.mistral(r.j, r.hi)
	},
}

func (s *scanner) mistral(j, hi int) int {
	t := s.text
	p := s.skipSpace(j+len("[TOOL_CALLS]"), hi)
	if p >= hi {
		s.problem(msgCutOff, FormatMistral, j, hi)
		return hi
	}
	if t[p] == '[' || t[p] == '{' {
		r := s.readJSON(p, hi, "", true)
		if !r.ok() {
			s.problem(r.msg, FormatMistral, j, max(r.end, p+1))
			return max(r.end, p+1)
		}
		s.jsonCalls(r, FormatMistral, j, r.end, true, false)
		end := r.end
		if q := s.skipSpace(end, hi); strings.HasPrefix(t[q:], "[TOOL_CALLS]") {
			return s.mistral(q, hi) // the next call of the same message
		}
		return end
	}
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
	_, q := s.ident(p, hi)
	return strings.HasPrefix(s.text[q:], "[ARGS]") || strings.HasPrefix(s.text[q:], "[CALL_ID]")
}
