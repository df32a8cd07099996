package paradigm

import (
	"strings"

	"airlock/backend/tools/ojson"
)

// Meta CWM: <tool: function>, then the tool's name and its one argument on
// the rest of the body, then </tool>:
//
//	<tool: function>
//	terminal ls -la
//	</tool>

const FormatCWM = "cwm"

var cwmParser = &parser{
	families: []Family{{ID: FormatCWM, Name: "CWM", Models: "Meta Code World Model",
		Markers: []string{"<tool: function>", "</tool>"},
		Source:  "vLLM cwm tool parser",
		Example: "<tool: function>\nread_file notes.md\n</tool>"}},
	openers: []opener{{tag: "tool:"}},
	read: func(s *scanner, r readAt) int {
		t := s.text
		if strings.TrimSpace(r.g.attrs) != "function" {
			return -1
		}
		c := s.findIn("</tool>", r.g.end, r.hi)
		if c < 0 {
			s.problem(msgCutOff, FormatCWM, r.j, r.hi)
			return r.hi
		}
		body := strings.TrimSpace(t[r.g.end:c])
		name, rest, _ := strings.Cut(body, " ")
		if nl := strings.IndexByte(name, '\n'); nl >= 0 {
			name, rest = name[:nl], name[nl+1:]+" "+rest
		}
		end := c + len("</tool>")
		if !validName(name, true) {
			s.problem("This tool block names no tool Airlock can read, so nothing was run.", FormatCWM, r.j, end)
			return end
		}
		s.add(item{name: name, args: ojson.Object{{Key: "command", Value: strings.TrimSpace(rest)}}, format: FormatCWM, start: r.j, end: end})
		return end
	},
}
