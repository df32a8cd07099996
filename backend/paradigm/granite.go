package paradigm

// IBM Granite 3.x: <|tool_call|>[{"name": …, "arguments": …}] (Granite 4
// writes Hermes' <tool_call>, read in hermes.go).

const FormatGranite = "granite"

var graniteParser = &parser{
	families: []Family{{ID: FormatGranite, Name: "Granite", Models: "IBM Granite 3.x",
		Markers: []string{"<|tool_call|>"},
		Source:  "ibm-granite chat templates; vLLM granite tool parser",
		Example: `<|tool_call|>[{"name": "read_file", "arguments": {"path": "notes.md"}}]`}},
	openers: []opener{{tag: "|tool_call|"}},
	read: func(s *scanner, r readAt) int {
		return s.jsonAfter(r.j, r.g.end, "", FormatGranite, r.hi)
	},
}
