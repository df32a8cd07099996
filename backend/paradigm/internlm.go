package paradigm

// InternLM 2/2.5 and Intern-S1: <|action_start|><|plugin|>{"name": …,
// "parameters": …}<|action_end|>.

const FormatInternLM = "internlm"

var internLMParser = &parser{
	families: []Family{{ID: FormatInternLM, Name: "InternLM", Models: "InternLM 2/2.5, Intern-S1",
		Markers: []string{"<|action_start|><|plugin|>", "<|action_end|>"},
		Source:  "InternLM/InternLM chat format docs; vLLM internlm2 tool parser; lmdeploy",
		Example: "<|action_start|><|plugin|>\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"notes.md\"}}<|action_end|>"}},
	openers: []opener{{tag: "|action_start|"}},
	read: func(s *scanner, r readAt) int {
		p := s.skipSpace(r.g.end, r.hi)
		pl, ok := s.specialAt(p, r.hi)
		if !ok || pl.name != "|plugin|" {
			return -1
		}
		closer := swapWord(r.g.rawName, "start", "end") + ">"
		return s.jsonAfter(r.j, pl.end, closer, FormatInternLM, r.hi)
	},
}
