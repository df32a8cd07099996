package paradigm

// LM Studio's prompt-based tool use, for models without native support:
// [TOOL_REQUEST]{"name": …, "arguments": …}[END_TOOL_REQUEST].

const FormatLMStudio = "lmstudio"

var lmStudioParser = &parser{
	families: []Family{{ID: FormatLMStudio, Name: "LM Studio", Models: "any model under LM Studio's default tool prompt",
		Markers: []string{"[TOOL_REQUEST]", "[END_TOOL_REQUEST]"},
		Source:  "lmstudio.ai docs: tool use (default tool-use prompt format)",
		Example: `[TOOL_REQUEST]{"name": "read_file", "arguments": {"path": "notes.md"}}[END_TOOL_REQUEST]`}},
	openers: []opener{{prefix: "[TOOL_REQUEST]"}},
	read: func(s *scanner, r readAt) int {
		return s.jsonAfter(r.j, r.j+len("[TOOL_REQUEST]"), "[END_TOOL_REQUEST]", FormatLMStudio, r.hi)
	},
}
