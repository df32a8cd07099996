package llm

import "strings"

const (
	openTag  = "<think>"
	closeTag = "</think>"
)

// Splitter states.
const (
	stStart  = iota // only whitespace so far: a <think> here opens reasoning
	stText          // prose with no tag yet: a </think> here means the prose was reasoning
	stThink         // inside <think>…
	stAnswer        // past </think> (or past a literal tag): plain text from now on
)

// thinkSplitter moves inline <think>…</think> reasoning (Qwen, DeepSeek-R1 on
// Ollama/LM Studio/llama.cpp) out of the content channel, one streamed piece
// at a time. It holds back only what might be the start of a tag, so feeding
// a text whole or in any split gives the same result.
type thinkSplitter struct {
	state   int
	pending string // held back: leading whitespace or a possible partial tag
	skipWS  bool   // drop whitespace right after a tag
	prev    byte   // last byte emitted in stText, to spot `</think>` quoted in prose
	// literal disables "prose before </think> was reasoning": set once the
	// provider reports reasoning in its own field, so tags in content are prose.
	literal bool
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

func trimLeftSpace(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// partialSuffix is the length of the longest suffix of s that is a proper
// prefix of tag (a tag cut by the chunk boundary).
func partialSuffix(s, tag string) int {
	k := min(len(tag)-1, len(s))
	if strings.IndexByte(s[len(s)-k:], '<') < 0 {
		return 0 // fast path: no '<' near the end
	}
	for ; k > 0; k-- {
		if strings.HasSuffix(s, tag[:k]) {
			return k
		}
	}
	return 0
}

// feed takes the next piece of content. When the result has both fields,
// its Reasoning comes before its Text.
func (p *thinkSplitter) feed(in string) Delta {
	var d Delta
	if p.state == stAnswer && !p.skipWS {
		d.Text = in // the common case once tags are settled
		return d
	}
	s := in
	if p.pending != "" {
		s = p.pending + in
		p.pending = ""
	}
	for s != "" {
		if p.skipWS {
			if s = trimLeftSpace(s); s == "" {
				return d
			}
			p.skipWS = false
		}
		switch p.state {
		case stStart:
			rest := trimLeftSpace(s)
			switch {
			case rest == "":
				p.pending = s
				return d
			case strings.HasPrefix(rest, openTag):
				p.state, p.skipWS, s = stThink, true, rest[len(openTag):]
			case strings.HasPrefix(rest, closeTag) && !p.literal:
				// A closer with nothing before it: the template opened the
				// block in the prompt and the reasoning was empty.
				p.state, p.skipWS, s = stAnswer, true, rest[len(closeTag):]
			case strings.HasPrefix(openTag, rest) || strings.HasPrefix(closeTag, rest):
				p.pending = s // maybe a tag cut in two: wait for more
				return d
			default:
				p.state = stText
			}
		case stText:
			if p.literal {
				p.state = stAnswer
				continue
			}
			i := strings.Index(s, closeTag)
			if j := strings.Index(s, openTag); j >= 0 && (i < 0 || j < i) {
				// <think> after real text is prose, not reasoning.
				d.Text += s
				p.state = stAnswer
				return d
			}
			if i >= 0 {
				before := p.prev
				if i > 0 {
					before = s[i-1]
				}
				if before == '`' {
					// The model is writing about the tag, not using it.
					d.Text += s
					p.state = stAnswer
					return d
				}
				// Some templates put <think> in the prompt, so the model starts
				// straight with reasoning: everything so far was reasoning.
				d.TextWasReasoning = true
				d.Reasoning += s[:i]
				p.state, p.skipWS, s = stAnswer, true, s[i+len(closeTag):]
				continue
			}
			k := max(partialSuffix(s, closeTag), partialSuffix(s, openTag))
			if out := s[:len(s)-k]; out != "" {
				d.Text += out
				p.prev = out[len(out)-1]
			}
			p.pending = s[len(s)-k:]
			return d
		case stThink:
			if i := strings.Index(s, closeTag); i >= 0 {
				d.Reasoning += s[:i]
				p.state, p.skipWS, s = stAnswer, true, s[i+len(closeTag):]
				continue
			}
			k := partialSuffix(s, closeTag)
			d.Reasoning += s[:len(s)-k]
			p.pending = s[len(s)-k:]
			return d
		case stAnswer:
			d.Text += s
			return d
		}
	}
	return d
}

// flush releases what was held back once the stream has ended: an unclosed
// <think> stays reasoning, anything else is text.
func (p *thinkSplitter) flush() Delta {
	var d Delta
	s := p.pending
	p.pending = ""
	if p.state == stThink {
		d.Reasoning = s
	} else {
		d.Text = s
	}
	return d
}
