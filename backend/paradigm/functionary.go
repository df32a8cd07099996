package paradigm

import (
	"strings"

	"airlock/backend/tools/ojson"
)

// MeetKai Functionary: every part of the answer is addressed to a
// recipient; "all" is the user, any other is a function.
//
//	v3 (llama3):  >>>all\nSome text>>>get_weather\n{"city": "Paris"}
//	v2:           <|from|>assistant\n<|recipient|>get_weather\n<|content|>{"city": "Paris"}
//
// (v3.1 writes Llama 3.1's <function=name>{…}</function>, read in
// qwen3coder.go.)

const FormatFunctionary = "functionary"

var functionaryParser = &parser{
	families: []Family{{ID: FormatFunctionary, Name: "Functionary", Models: "MeetKai Functionary v2, v3",
		Markers: []string{">>>name\\n", "<|recipient|>", "<|content|>"},
		Source:  "MeetKai/functionary prompt templates and tests; llama.cpp chat tests",
		Example: ">>>read_file\n{\"path\": \"notes.md\"}"}},
	openers: []opener{{prefix: ">>>"}, {tag: "|recipient|"}, {tag: "|reserved_special_token_249|"}},
	read: func(s *scanner, r readAt) int {
		switch r.g.name {
		case "|recipient|":
			return s.functionaryV2(r.j, r.g.end, r.hi)
		case "|reserved_special_token_249|":
			// v2 on Llama 3: the token, the name, a line break, the JSON.
			name, q := s.ident(s.skipSpace(r.g.end, r.hi), r.hi)
			if name == "" {
				return -1
			}
			return s.jsonArgs(r.j, name, q, "", FormatFunctionary, r.hi)
		}
		return s.functionaryV3(r.j, r.hi)
	},
}

// functionaryV3 reads >>>recipient\ncontent parts from j on.
func (s *scanner) functionaryV3(j, hi int) int {
	t := s.text
	if p := s.prevSig(j, 0); p != 0 && p != '}' && p != '>' && !isIdentByte(p) {
		return -1
	}
	end := -1
	for p := j; p < hi && strings.HasPrefix(t[p:], ">>>"); {
		name, q := s.ident(p+3, hi)
		if name == "" || q >= hi || t[q] != '\n' {
			break
		}
		body := q + 1
		if name == "all" {
			// Text for the user, up to the next part.
			next := s.findIn(">>>", body, hi)
			if next < 0 {
				return hi
			}
			p, end = next, next
			continue
		}
		e := s.jsonArgs(p, name, body, "", FormatFunctionary, hi)
		if e < 0 {
			break
		}
		p, end = s.skipSpace(e, hi), e
	}
	return end
}

// functionaryV2 reads <|recipient|>name\n<|content|>{…} (k is after the
// recipient token).
func (s *scanner) functionaryV2(j, k, hi int) int {
	name, q := s.ident(s.skipSpace(k, hi), hi)
	q = s.skipSpace(q, hi)
	c, ok := s.specialAt(q, hi)
	if name == "" || !ok || c.name != "|content|" {
		return -1
	}
	if name == "all" {
		return c.end
	}
	return s.jsonArgs(j, name, c.end, "", FormatFunctionary, hi)
}

// jsonArgs reads the JSON arguments object of a call whose name is already
// known, at k, up to an optional closer, and adds the call.
func (s *scanner) jsonArgs(j int, name string, k int, closer, format string, hi int) int {
	t := s.text
	p := s.skipSpace(k, hi)
	if p >= hi {
		s.problem(msgCutOff, format, j, hi)
		return hi
	}
	if t[p] != '{' {
		return -1
	}
	r := s.readJSON(p, hi, closer, false)
	end := s.afterCloser(max(r.end, p), closer, hi)
	if !r.ok() {
		s.problem(r.msg, format, j, end)
		return end
	}
	obj, _ := r.vals[0].(ojson.Object)
	it := item{name: name, args: obj, format: format, start: j, end: end}
	if obj == nil {
		it.msg = "The arguments of \"" + name + "\" must be a JSON object, so the call was not run."
	}
	s.add(it)
	return end
}

// functionaryStart reads a call at the start of the message written
// without its ">>>" (Functionary v3.2's template puts it in the prompt):
// name, a line break, the JSON arguments. The name must look like a tool's.
func (s *scanner) functionaryStart(k, hi int) int {
	t := s.text
	name, q := s.ident(k, hi)
	if name == "" || q >= hi || t[q] != '\n' || !(isSnakeName(name) || s.known != nil && s.known(name)) {
		return -1
	}
	a := s.skipSpace(q, hi)
	if c, ok := s.specialAt(a, hi); ok && c.name == "|content|" {
		a = s.skipSpace(c.end, hi) // v2: <|content|> before the JSON
	}
	if a >= hi || t[a] != '{' {
		return -1
	}
	return s.jsonArgs(k, name, a, "", FormatFunctionary, hi)
}
