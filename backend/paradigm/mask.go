package paradigm

import "strings"

// Masks: regions the parsers never see. Reasoning is masked in every
// spelling the families use, and so is code shown to the user (mask_code.go)
// and a labelled example (mask_examples.go). A call the model only
// considered must never become a card: with an always-allow rule it would
// run.
//
// Reasoning spellings:
//
//	<think>…</think>, <thinking>, <thought>, <reasoning>, <seed:think>  (tags, closed by </same>)
//	<|START_THINKING|>…<|END_THINKING|>        Command R7B / Command A
//	<|begin_of_thought|>…<|end_of_thought|>    Sky-T1, OpenThinker
//	[THINK]…[/THINK]                           Magistral
//	◁think▷…◁/think▷                           Kimi (k1.5, VL, Dev)
//	<|channel>thought…<channel|>               Gemma 4
//	<|channel|>analysis<|message|>…<|end|>     gpt-oss (harmony)
//	 to=self<|message|>…<|eom|>                Muse Glimmer
//
// A block that is never closed runs to the end of the message, or to a
// tool-call section opened with a special token (see sectionTokens). A closer
// with no opener means the chat template put the opener in the prompt, so
// everything before it was reasoning (only the first such closer counts,
// and only when no reasoning was seen before). The provider's separate
// reasoning field is never scanned at all: Scan gets only the content.

// reasoningTags are the tag names (tags.go's normalised spelling) that open
// reasoning, with how their closer is spelled.
var reasoningTags = map[string]func(g tag) string{
	"think":              tagCloser,
	"thinking":           tagCloser,
	"thought":            tagCloser,
	"reasoning":          tagCloser,
	"seed:think":         tagCloser,
	"|start_thinking|":   func(g tag) string { return swapWord(g.rawName, "start", "end") + ">" },
	"|begin_of_thought|": func(g tag) string { return swapWord(g.rawName, "begin", "end") + ">" },
}

func tagCloser(g tag) string { return g.closer() }

// reasoningClosers are the closing tags (normalised names; closing tags as
// "/name") that end reasoning.
var reasoningClosers = map[string]bool{
	"/think": true, "/thinking": true, "/thought": true, "/reasoning": true, "/seed:think": true,
	"|end_thinking|": true, "|end_of_thought|": true, "channel|": true,
}

// Reasoning spelled without angle brackets.
var reasoningLiterals = []struct{ open, close string }{
	{"[THINK]", "[/THINK]"},
	{"◁think▷", "◁/think▷"},
}

// maskAt masks the reasoning that opens (or closes) at j, returning the end
// of the masked region, or -1. g is the tag at j, when hasTag.
func (s *scanner) maskAt(j, hi int, ctx scanCtx, g tag, hasTag bool) int {
	t := s.text
	if hasTag {
		name := g.name
		if g.closing {
			name = "/" + name
		}
		alias := g.alias
		if g.closing {
			alias = "/" + alias
		}
		if closer, ok := reasoningTags[name]; ok {
			return s.reasoning(j, g.end, closer(g), hi)
		}
		if closer, ok := reasoningTags[alias]; ok && g.alias != "" {
			return s.reasoning(j, g.end, closer(g), hi) // <mm:think>
		}
		if reasoningClosers[name] || (g.alias != "" && reasoningClosers[alias]) {
			return s.orphanClose(j, g.end, ctx)
		}
		switch name {
		case "|message|":
			// Muse Glimmer's reasoning is a message to itself:
			//  to=self<|message|>…<|eom|>
			h := strings.TrimRight(t[max(0, j-32):j], " ")
			if strings.HasSuffix(h, "to=self") || strings.HasSuffix(h, "to=user") {
				// to=self is reasoning; to=user is an answer, whose call
				// markup is shown, not made.
				reason := "reasoning"
				if strings.HasSuffix(h, "to=user") {
					reason = "example"
				}
				end := hi
				for _, stop := range []string{"<|eom|>", "<|end|>", "<|eot|>", "<|start|>"} {
					if at := s.findIn(stop, g.end, hi); at >= 0 && at < end {
						end = at
					}
				}
				s.sawThink = s.sawThink || reason == "reasoning"
				s.ignore(j, end, reason)
				return end
			}
		case "|channel":
			// Gemma 4: <|channel>thought … <channel|>
			if strings.HasPrefix(t[g.end:], "thought") {
				return s.reasoning(j, g.end, "<channel|>", hi)
			}
		case "|channel|":
			return s.harmonyAnalysis(j, g.end, hi)
		}
		return -1
	}
	for _, r := range reasoningLiterals {
		if strings.HasPrefix(t[j:], r.open) {
			return s.reasoning(j, j+len(r.open), r.close, hi)
		}
		if strings.HasPrefix(t[j:], r.close) {
			return s.orphanClose(j, j+len(r.close), ctx)
		}
	}
	return -1
}

func (s *scanner) reasoning(j, from int, closer string, hi int) int {
	s.sawThink = true
	end := hi
	if c := s.findIn(closer, from, hi); c >= 0 {
		end = c + len(closer)
	} else if sec := s.sectionToken(from, hi); sec >= 0 {
		end = sec
	}
	s.ignore(j, end, "reasoning")
	return end
}

// sectionTokens open a tool-call section with a special token. Kimi K2.5
// and DeepSeek models open their call section without closing their
// reasoning first: the token ends a reasoning block that is never closed.
// A model only considering a call writes it in prose or tags, not with
// these tokens.
var sectionTokens = []string{"<|tool_calls_section_begin|>", "<｜tool▁calls▁begin｜>", "<|tool_call_begin|>", "<｜tool▁call▁begin｜>"}

func (s *scanner) sectionToken(from, hi int) int {
	at := -1
	for _, tok := range sectionTokens {
		if c := s.findIn(tok, from, hi); c >= 0 && (at < 0 || c < at) {
			at = c
		}
	}
	return at
}

// orphanClose handles a reasoning closer with no opener.
func (s *scanner) orphanClose(j, end int, ctx scanCtx) int {
	if ctx != ctxTop || s.sawThink {
		return end
	}
	s.sawThink = true
	s.items = s.items[:0]
	s.moreCalls, s.moreProblems = 0, 0
	s.ignored = s.ignored[:0]
	s.ignore(0, end, "reasoning")
	return end
}

// harmonyAnalysis masks gpt-oss's analysis channel: <|channel|>analysis,
// then <|message|> and the reasoning, up to <|end|> (or the next message).
// Other channels are left to the harmony parser.
func (s *scanner) harmonyAnalysis(j, k, hi int) int {
	t := s.text
	if !strings.HasPrefix(strings.TrimLeft(t[k:min(hi, k+16)], " "), "analysis") {
		return -1
	}
	_, recipient, msg := s.harmonyHeader(j, hi)
	if msg < 0 || recipient != "" {
		return -1 // a message with a recipient is a call, even on analysis
	}
	body := msg + len("<|message|>")
	end := hi
	for _, stop := range []string{"<|end|>", "<|start|>", "<|channel|>"} {
		if at := s.findIn(stop, body, hi); at >= 0 && at < end {
			end = at
			if stop == "<|end|>" {
				end = at + len(stop)
			}
		}
	}
	s.sawThink = true
	s.ignore(j, end, "reasoning")
	return end
}
