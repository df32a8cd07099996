package paradigm

import (
	"strings"

	"airlock/backend/tools/ojson"
)

// Upstage Solar Open 2: <|tool_call:start|>name, then one
// <|tool_arg:start|>key<|tool_arg:value|>value<|tool_arg:end|> per argument,
// then <|tool_call:end|>. Values are text.

const FormatSolar = "solar_open2"

var solarParser = &parser{
	families: []Family{{ID: FormatSolar, Name: "Solar Open", Models: "Upstage Solar Open 2",
		Markers: []string{"<|tool_call:start|>", "<|tool_arg:start|>", "<|tool_arg:value|>", "<|tool_call:end|>"},
		Source:  "vLLM solar_open2 tool parser",
		Example: "<|tool_call:start|>read_file\n<|tool_arg:start|>path<|tool_arg:value|>notes.md<|tool_arg:end|>\n<|tool_call:end|>"}},
	openers: []opener{{tag: "|tool_call:start|"}},
	read: func(s *scanner, r readAt) int {
		return s.solar(r.j, r.g.end, r.hi)
	},
}

func (s *scanner) solar(j, k, hi int) int {
	const argStart, argValue, argEnd, callEnd = "<|tool_arg:start|>", "<|tool_arg:value|>", "<|tool_arg:end|>", "<|tool_call:end|>"
	t := s.text
	name, p := s.ident(s.skipSpace(k, hi), hi)
	if name == "" {
		return -1
	}
	spec := valueSpec{closer: argEnd, next: []string{argStart, callEnd}, stop: argStart, weak: callEnd}
	it := item{name: name, args: ojson.Object{}, format: FormatSolar, start: j}
	closed := false
	for {
		p = s.skipSpace(p, hi)
		if strings.HasPrefix(t[p:], callEnd) {
			p += len(callEnd)
			closed = true
			break
		}
		if !strings.HasPrefix(t[p:], argStart) {
			break
		}
		ks := p + len(argStart)
		ke := s.findIn(argValue, ks, min(hi, ks+256))
		if ke < 0 {
			if hi == len(t) && hi-ks < 256 {
				s.cutValues++ // the message ended inside the argument's name
			}
			break
		}
		vs := ke + len(argValue)
		end, next, complete := s.valueEnd(vs, hi, spec)
		if !complete {
			it.msg = msgCutOff
		}
		it.args = append(it.args, ojson.Member{Key: strings.TrimSpace(t[ks:ke]), Value: textOf(t[vs:end])})
		p = next
	}
	it.end, it.open = p, !closed
	s.add(it)
	return p
}
