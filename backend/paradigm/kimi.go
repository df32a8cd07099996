package paradigm

import (
	"strconv"
	"strings"
)

// Kimi K2: <|tool_calls_section_begin|><|tool_call_begin|>functions.name:0
// <|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>.
// The per-call tokens are DeepSeek's (deepseek.go reads both).

const FormatKimi = "kimi"

var kimiParser = &parser{
	families: []Family{{ID: FormatKimi, Name: "Kimi", Models: "Kimi K2, K2 Thinking",
		Markers: []string{"<|tool_calls_section_begin|>", "<|tool_call_argument_begin|>"},
		Source:  "MoonshotAI/Kimi-K2 docs/tool_call_guidance.md; vLLM kimi_k2 tool parser",
		Example: "<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"notes.md\"}<|tool_call_end|><|tool_calls_section_end|>"}},
	openers: []opener{{tag: "|tool_calls_section_begin|"}},
	read: func(s *scanner, r readAt) int {
		return s.tokenCalls(r.j, r.g, r.hi)
	},
}

// kimiName reads the name out of a call id: functions.get_weather:0 →
// get_weather.
func kimiName(head string) string {
	name := head
	if c := strings.LastIndexByte(name, ':'); c > 0 {
		if _, err := strconv.Atoi(name[c+1:]); err == nil {
			name = name[:c]
		}
	}
	return strings.TrimPrefix(name, "functions.")
}
