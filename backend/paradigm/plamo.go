package paradigm

import (
	"strings"

	"airlock/backend/tools/ojson"
)

// PLaMo 3: every marker is a special token, <|plamo:begin_tool_requests:plamo|>
// around <|plamo:begin_tool_request:plamo|> elements holding the name
// (<|plamo:begin_tool_name:plamo|>…) and the JSON arguments
// (<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{…}).

const FormatPlamo = "plamo3"

var plamoParser = &parser{
	families: []Family{{ID: FormatPlamo, Name: "PLaMo 3", Models: "PFN PLaMo 3",
		Markers: []string{"<|plamo:begin_tool_requests:plamo|>", "<|plamo:begin_tool_name:plamo|>", "<|plamo:msg|>"},
		Source:  "vLLM plamo3 tool parser",
		Example: "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>read_file<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{\"path\": \"notes.md\"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>"}},
	openers: []opener{{tag: "|plamo:begin_tool_requests:plamo|"}},
	read: func(s *scanner, r readAt) int {
		return s.plamo(r.j, r.g.end, r.hi)
	},
}

func (s *scanner) plamo(j, p, hi int) int {
	const (
		req, reqEnd = "<|plamo:begin_tool_request:plamo|>", "<|plamo:end_tool_request:plamo|>"
		nameOpen    = "<|plamo:begin_tool_name:plamo|>"
		nameEnd     = "<|plamo:end_tool_name:plamo|>"
		argsOpen    = "<|plamo:begin_tool_arguments:plamo|>"
		argsEnd     = "<|plamo:end_tool_arguments:plamo|>"
		msg, allEnd = "<|plamo:msg|>", "<|plamo:end_tool_requests:plamo|>"
	)
	t := s.text
	read := 0
	for {
		p = s.skipSpace(p, hi)
		if strings.HasPrefix(t[p:], allEnd) {
			return p + len(allEnd)
		}
		if !strings.HasPrefix(t[p:], req) {
			break
		}
		start := p
		if read == 0 {
			start = j
		}
		q := s.skipSpace(p+len(req), hi)
		ne := s.findIn(nameEnd, q, min(hi, q+512))
		if !strings.HasPrefix(t[q:], nameOpen) || ne < 0 {
			s.problem(msgCutOff, FormatPlamo, start, hi)
			return hi
		}
		name := strings.TrimSpace(t[q+len(nameOpen) : ne])
		q = s.skipSpace(ne+len(nameEnd), hi)
		var args ojson.Object
		if strings.HasPrefix(t[q:], argsOpen) {
			a := s.findIn(msg, q, min(hi, q+256))
			if a < 0 {
				s.problem(msgCutOff, FormatPlamo, start, hi)
				return hi
			}
			r := s.readJSON(s.skipSpace(a+len(msg), hi), hi, argsEnd, false)
			// The text may end before the arguments' end tag: afterCloser
			// notes it, and endrule.go decides.
			end := s.afterCloser(max(r.end, a), argsEnd, hi)
			if !r.ok() {
				s.problem(r.msg, FormatPlamo, start, end)
				q = end
			} else {
				args, _ = r.vals[0].(ojson.Object)
				q = end
			}
			if args == nil && r.ok() {
				s.problem("The arguments of \""+name+"\" must be a JSON object, so the call was not run.", FormatPlamo, start, q)
			}
		}
		q = s.skipSpace(q, hi)
		if strings.HasPrefix(t[q:], reqEnd) {
			q += len(reqEnd)
		} else {
			s.closerAtEnd(q, reqEnd, hi)
		}
		if args != nil {
			s.add(item{name: name, args: args, format: FormatPlamo, start: start, end: q})
		}
		read++
		p = q
	}
	if read == 0 {
		return -1
	}
	s.closerAtEnd(p, allEnd, hi)
	return p
}
