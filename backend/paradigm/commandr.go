package paradigm

// Cohere Command R7B and Command A: <|START_ACTION|>[{"tool_call_id": "0",
// "tool_name": …, "parameters": …}]<|END_ACTION|>. Their reasoning,
// <|START_THINKING|>…<|END_THINKING|>, is masked (mask.go).

const FormatCommandR = "commandr"

var commandRParser = &parser{
	families: []Family{{ID: FormatCommandR, Name: "Command R", Models: "Cohere Command R7B, Command A",
		Markers: []string{"<|START_ACTION|>", "<|END_ACTION|>"},
		Source:  "CohereForAI/c4ai-command-r7b chat template; llama.cpp chat tests; vLLM cohere_command tool parser",
		Example: `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "read_file", "parameters": {"path": "notes.md"}}]<|END_ACTION|>`}},
	openers: []opener{{tag: "|start_action|"}},
	read: func(s *scanner, r readAt) int {
		return s.jsonAfter(r.j, r.g.end, swapWord(r.g.rawName, "start", "end")+">", FormatCommandR, r.hi)
	},
}
