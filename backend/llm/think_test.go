package llm

import (
	"strings"
	"testing"
)

// apply accumulates deltas the way a caller must.
func apply(text, reasoning *string, d Delta) {
	if d.TextWasReasoning {
		*reasoning += *text
		*text = ""
	}
	*reasoning += d.Reasoning
	*text += d.Text
}

func runSplitter(pieces []string) (text, reasoning string) {
	var p thinkSplitter
	for _, s := range pieces {
		apply(&text, &reasoning, p.feed(s))
	}
	apply(&text, &reasoning, p.flush())
	return text, reasoning
}

func TestThinkSplitter(t *testing.T) {
	cases := []struct{ in, text, reasoning string }{
		{"Hello world", "Hello world", ""},
		{"", "", ""},
		{"\n\n  ", "\n\n  ", ""},
		{"<think>I ponder.</think>\n\nAnswer.", "Answer.", "I ponder."},
		{"  \n<think>\nplan\n</think>\nok", "ok", "plan\n"},
		{"<think></think>Answer", "Answer", ""},
		{"<think>unclosed reasoning", "", "unclosed reasoning"},
		{"<think>reasoning</thi", "", "reasoning</thi"},
		{"reasoning first\n</think>\n\nThe answer", "The answer", "reasoning first\n"},
		{"  lead</think>x", "x", "  lead"},
		{"</think>Answer", "Answer", ""},
		{"<think>a</think>b</think>c<think>d", "b</think>c<think>d", "a"},
		{"Text then <think>not reasoning</think> more", "Text then <think>not reasoning</think> more", ""},
		{"Use `</think>` to close a block.", "Use `</think>` to close a block.", ""},
		{"`</think>` alone", "`</think>` alone", ""},
		{"a < b and c <= d </ e", "a < b and c <= d </ e", ""},
		{"<thinking>not ours</thinking>", "<thinking>not ours</thinking>", ""},
		{"<b>bold</b>", "<b>bold</b>", ""},
		{"<thi", "<thi", ""},
		{"x</think", "x</think", ""},
		{"<think>思考 😀</think>答案 ✓", "答案 ✓", "思考 😀"},
		{"<think>a < b </ c </think>d", "d", "a < b </ c "},
	}
	for _, c := range cases {
		text, reasoning := runSplitter([]string{c.in})
		if text != c.text || reasoning != c.reasoning {
			t.Errorf("%q whole: got text %q reasoning %q, want %q %q", c.in, text, reasoning, c.text, c.reasoning)
			continue
		}
		for i := 0; i <= len(c.in); i++ {
			gt, gr := runSplitter([]string{c.in[:i], c.in[i:]})
			if gt != text || gr != reasoning {
				t.Errorf("%q split at %d: got %q %q, want %q %q", c.in, i, gt, gr, text, reasoning)
			}
		}
		bytes := make([]string, len(c.in))
		for i := 0; i < len(c.in); i++ {
			bytes[i] = c.in[i : i+1]
		}
		if gt, gr := runSplitter(bytes); gt != text || gr != reasoning {
			t.Errorf("%q 1-byte chunks: got %q %q, want %q %q", c.in, gt, gr, text, reasoning)
		}
	}
}

// Text is released as soon as it cannot be part of a tag: streaming must not
// stall behind the splitter.
func TestThinkSplitterDoesNotHoldText(t *testing.T) {
	var p thinkSplitter
	if d := p.feed("Hello"); d.Text != "Hello" {
		t.Fatalf("plain text held back: %+v", d)
	}
	if d := p.feed(" a <"); d.Text != " a " {
		t.Fatalf("want only the '<' held back, got %+v", d)
	}
	if d := p.feed("b"); d.Text != "<b" {
		t.Fatalf("got %+v", d)
	}
	var q thinkSplitter
	if d := q.feed("<think>step one"); d.Reasoning != "step one" || d.Text != "" {
		t.Fatalf("reasoning held back: %+v", d)
	}
	if d := q.feed(strings.Repeat("x", 3) + "</think>\n"); d.Reasoning != "xxx" || d.Text != "" {
		t.Fatalf("got %+v", d)
	}
	if d := q.feed("Answer"); d.Text != "Answer" {
		t.Fatalf("got %+v", d)
	}
}

// Random soups of tag fragments: any split must give what the whole gives.
func TestThinkSplitterRandomSplits(t *testing.T) {
	parts := []string{"<think>", "</think>", "<", "</", "<th", "ink>", "/", "a", "b ", " ", "\n", "`", "think>", "é"}
	rng := uint32(1)
	next := func(n int) int {
		rng = rng*1664525 + 1013904223
		return int(rng>>8) % n
	}
	for range 3000 {
		var sb strings.Builder
		for range 1 + next(10) {
			sb.WriteString(parts[next(len(parts))])
		}
		in := sb.String()
		text, reasoning := runSplitter([]string{in})
		var pieces []string
		for rest := in; rest != ""; {
			n := 1 + next(len(rest))
			pieces = append(pieces, rest[:n])
			rest = rest[n:]
		}
		if gt, gr := runSplitter(pieces); gt != text || gr != reasoning {
			t.Fatalf("%q split as %q: got %q %q, whole gives %q %q", in, pieces, gt, gr, text, reasoning)
		}
	}
}
