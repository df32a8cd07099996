package paradigm

import "strings"

// Qwen-Agent's function-calling template (Qwen 2 and 2.5 without native
// tools): ✿FUNCTION✿: name, then ✿ARGS✿: {…} on the next line; the result
// comes back after ✿RESULT✿.

const FormatQwenAgent = "qwen_fncall"

var qwenAgentParser = &parser{
	families: []Family{{ID: FormatQwenAgent, Name: "Qwen-Agent", Models: "Qwen 2/2.5 under Qwen-Agent's function prompt",
		Markers: []string{"✿FUNCTION✿:", "✿ARGS✿:", "✿RESULT✿"},
		Source:  "QwenLM/Qwen-Agent fncall prompt; Qwen function-calling docs",
		Example: "✿FUNCTION✿: read_file\n✿ARGS✿: {\"path\": \"notes.md\"}"}},
	openers: []opener{{prefix: "✿FUNCTION✿"}},
	read: func(s *scanner, r readAt) int {
		t := s.text
		p := r.j + len("✿FUNCTION✿")
		if p < r.hi && (t[p] == ':' || strings.HasPrefix(t[p:], "：")) {
			p = strings.IndexAny(t[p:], " \t\n") + p
		}
		name, q := s.ident(s.skipSpace(p, r.hi), r.hi)
		a := s.skipSpace(q, r.hi)
		if name == "" || !strings.HasPrefix(t[a:], "✿ARGS✿") {
			return -1
		}
		a += len("✿ARGS✿")
		for a < r.hi && (t[a] == ':' || t[a] == ' ') {
			a++
		}
		return s.jsonArgs(r.j, name, a, "", FormatQwenAgent, r.hi)
	},
}
