package fit

import (
	"encoding/json"
	"fmt"
	"strings"

	"airlock/backend/llm"
)

// stubPrefix starts every stub, so the gauge can count stubs as results.
const stubPrefix = "[Result of "

// Stub is what replaces tool results that were left out of the request:
// which tool, how large, and that the model may call it again.
func Stub(rs []Result) string {
	lines := make([]string, len(rs))
	for i, r := range rs {
		lines[i] = fmt.Sprintf("%s%s elided to fit the context window: %s characters. Call the tool again if you need it.]",
			stubPrefix, r.Tool, Thousands(r.Chars))
	}
	return strings.Join(lines, "\n")
}

// stubArguments stands for a native call's long arguments: still a JSON
// object, as servers require of earlier calls.
func stubArguments(tc llm.ToolCall) string {
	b, _ := json.Marshal(map[string]string{"elided": fmt.Sprintf("The arguments of this %s call (%s characters) were elided to fit the context window.",
		tc.Name, Thousands(len(tc.Arguments)))})
	return string(b)
}

// Omitted is the note that stands where earlier messages were left out.
func Omitted(n int) string {
	return fmt.Sprintf("[%s earlier messages of this conversation are not shown, to fit the context window.]", Thousands(n))
}

// cutMark stands where the middle of a text was cut out.
func cutMark(chars int) string {
	return fmt.Sprintf("\n[… %s characters cut here to fit the context window …]\n", Thousands(chars))
}

// Cut shortens text to about want tokens by cutting out its middle (the
// start says what it is, the end how it ended), saying so where it cut.
// It returns text unchanged when it already fits.
func Cut(text string, want int, c Counter) string {
	have := c.Count(text)
	if have <= want {
		return text
	}
	runes := []rune(text)
	keep := len(runes)
	for try := 0; try < 4; try++ {
		// Scale by the text's own density, and aim a little low.
		keep = int(float64(keep) * float64(want) / float64(max(have, 1)) * 0.95)
		if keep <= 0 {
			return strings.TrimSpace(cutMark(len(runes)))
		}
		head := keep * 2 / 3
		out := string(runes[:head]) + cutMark(len(runes)-keep) + string(runes[len(runes)-(keep-head):])
		if have = c.Count(out); have <= want {
			return out
		}
	}
	return strings.TrimSpace(cutMark(len(runes)))
}

// Thousands writes n with thousands separators (23,104).
func Thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
