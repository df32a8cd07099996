package paradigm

// Phi-4-mini: functools[{"name": …, "arguments": …}, …].

const FormatPhi4 = "phi4"

var phi4Parser = &parser{
	families: []Family{{ID: FormatPhi4, Name: "Phi-4", Models: "Phi-4-mini, Phi-4-mini-flash",
		Markers: []string{"functools["},
		Source:  "microsoft/Phi-4-mini-instruct model card; vLLM phi4mini tool parser",
		Example: `functools[{"name": "read_file", "arguments": {"path": "notes.md"}}]`}},
	openers: []opener{{prefix: "functools["}},
	read: func(s *scanner, r readAt) int {
		return s.jsonAfter(r.j, r.j+len("functools"), "", FormatPhi4, r.hi)
	},
}
