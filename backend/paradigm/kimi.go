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

// kimiOrphan reads arguments whose call tokens are missing before them
// (name:0<|tool_call_argument_begin|>{…}<|tool_call_end|> without
// <|tool_call_begin|>, or without the whole section opener, as Kimi K2 on
// some servers writes them): when a call id stands right before the token,
// the call is read as if its begin token were there; otherwise it is a call
// the model botched, not prose, and becomes a problem card.
func (s *scanner) kimiOrphan(j int, g tag, hi int) int {
	start := j
	for start > 0 && j-start < 256 && s.text[start-1] != '\n' && s.text[start-1] != '>' {
		start--
	}
	if id := orphanID(s.text, start, j); id >= 0 {
		begin := tag{name: "|tool_call_begin|", rawName: "<|tool_call_begin|", start: id, end: id}
		if end := s.tokenCall(begin, hi); end > j {
			return end
		}
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

// orphanID finds the call id written last before j on its line (the word
// after the last blank): where it starts, or -1 when the word is not a
// call id (functions.name:0 or name:0, a name of letters, digits, _ . -).
func orphanID(t string, start, j int) int {
	k := j
	for k > start && t[k-1] != ' ' && t[k-1] != '\t' {
		k--
	}
	head := t[k:j]
	if !kimiID(head) {
		return -1
	}
	name := kimiName(head)
	if name == "" {
		return -1
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isIdentByte(c) && c != '.' && c != '-' {
			return -1
		}
	}
	return k
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
