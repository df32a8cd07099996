package paradigm

// LM Studio's prompt-based tool use, for models without native support:
// [TOOL_REQUEST]{"name": …, "arguments": …}[END_TOOL_REQUEST]; Gemma under
// LM Studio writes the name before its arguments and closes with
// [TOOL_REQUEST_END].

const FormatLMStudio = "lmstudio"

var lmStudioParser = &parser{
	families: []Family{{ID: FormatLMStudio, Name: "LM Studio", Models: "any model under LM Studio's default tool prompt",
		Markers: []string{"[TOOL_REQUEST]", "[END_TOOL_REQUEST]"},
		Source:  "lmstudio.ai docs: tool use (default tool-use prompt format)",
		Example: `[TOOL_REQUEST]{"name": "read_file", "arguments": {"path": "notes.md"}}[END_TOOL_REQUEST]`}},
	openers: []opener{{prefix: "[TOOL_REQUEST]"}},
	read: func(s *scanner, r readAt) int {
		t := s.text
		if r.j > 0 && t[r.j-1] == '<' {
			return -1 // VCP's <<<[TOOL_REQUEST]>>>
		}
		k := s.skipSpace(r.j+len("[TOOL_REQUEST]"), r.hi)
		closer := "[END_TOOL_REQUEST]"
		if c := s.findIn("[TOOL_REQUEST_END]", k, r.hi); c >= 0 && (s.findIn(closer, k, r.hi) < 0 || c < s.findIn(closer, k, r.hi)) {
			closer = "[TOOL_REQUEST_END]"
		}
		if k < r.hi && isIdentByte(t[k]) {
			name, p := s.ident(k, r.hi)
			if end := s.jsonArgs(r.j, name, p, closer, FormatLMStudio, r.hi); end > 0 {
				return s.afterCloser(end, closer, r.hi)
			}
			return -1
		}
		return s.jsonAfter(r.j, k, closer, FormatLMStudio, r.hi)
	},
}
