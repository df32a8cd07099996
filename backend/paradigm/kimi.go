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
	openers: []opener{{tag: "|tool_calls_section_begin|"}, {tag: "|tool_call_argument_begin|"}},
	read: func(s *scanner, r readAt) int {
		if r.g.name == "|tool_call_argument_begin|" {
			return s.kimiOrphan(r.j, r.g, r.hi)
		}
		return s.tokenCalls(r.j, r.g, r.hi)
	},
}

// kimiOrphan reports arguments whose call tokens are missing before them
// (name:0<|tool_call_argument_begin|>{…}<|tool_call_end|> without
// <|tool_call_begin|>): a call the model botched, not prose.
func (s *scanner) kimiOrphan(j int, g tag, hi int) int {
	start := j
	for start > 0 && j-start < 256 && s.text[start-1] != '\n' && s.text[start-1] != '>' {
		start--
	}
	end := hi
	if e := s.findIn("<|tool_call_end|>", g.end, hi); e >= 0 {
		end = e + len("<|tool_call_end|>")
	}
	if e := s.findIn("<|tool_calls_section_end|>", end, hi); e >= 0 && strings.TrimSpace(s.text[end:e]) == "" {
		end = e + len("<|tool_calls_section_end|>")
	}
	s.problem("This call has arguments but not its <|tool_call_begin|> token, so it was not run. Write the whole call section again.", FormatKimi, start, end)
	return end
}

// kimiID says a call id has Kimi's shape: functions.name:0 (or name:0).
func kimiID(head string) bool {
	c := strings.LastIndexByte(head, ':')
	if c <= 0 || c == len(head)-1 {
		return false
	}
	_, err := strconv.Atoi(head[c+1:])
	return err == nil
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
