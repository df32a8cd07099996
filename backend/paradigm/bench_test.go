package paradigm

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// prose builds about n bytes of realistic assistant text without calls:
// paragraphs, Markdown links, inline code, lists and a code block.
func prose(n int) string {
	para := "Airlock keeps a model on a short leash: every tool call waits for approval. " +
		"See [the docs](https://example.com/docs) and the `read_file` tool; results come back " +
		"as a user message. Braces {like these} and a < b comparisons appear in prose too.\n\n" +
		"- first point, with *emphasis*\n- second point, with **bold** text\n\n" +
		"```go\nfunc main() { fmt.Println(\"<tool_call>\") }\n```\n\n"
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(para)
	}
	return b.String()[:n]
}

func withCalls(n, calls int) string {
	call := "\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"notes/%d.md\", \"content\": \"# Title\\n\\nSome \\\"quoted\\\" text with </tool_call> inside.\\n\"}}\n</tool_call>\n"
	chunk := n / calls
	var b strings.Builder
	for i := 0; i < calls; i++ {
		b.WriteString(prose(chunk - len(call)))
		fmt.Fprintf(&b, call, i)
	}
	return b.String()
}

func adversarial(kind string, n int) string {
	switch kind {
	case "unclosed-tool_call":
		return strings.Repeat("<tool_call>{\"", n)
	case "unclosed-json-string":
		return strings.Repeat("<tool_call>{\"name\":\"a\",\"arguments\":{\"x\":\"", n)
	case "unclosed-fence":
		return strings.Repeat("```json\n{\"tool_calls\":[\n", n)
	case "deep-nesting":
		return "<tool_call>" + strings.Repeat("[{\"a\":", n) + strings.Repeat("}]", n) + "</tool_call>"
	case "brackets":
		return strings.Repeat("[", n) + strings.Repeat("{", n)
	case "line-start-braces":
		return strings.Repeat("{\"name\": \"x\", \"arguments\": {\n", n)
	case "unclosed-think":
		return strings.Repeat("</think><think>", n)
	case "qwen-params":
		return "<function=f>" + strings.Repeat("<parameter=x>", n)
	case "vcp":
		return strings.Repeat("<<<[TOOL_REQUEST]>>>\ntool_name:「始」", n)
	case "pythonic":
		return strings.Repeat("[f(a=[f(a=", n)
	case "backticks":
		return strings.Repeat("`a ``b ", n)
	case "tokens":
		return strings.Repeat("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>", n)
	case "gemma":
		return strings.Repeat("<|tool_call>call:a{k:<|\"|>", n)
	case "invoke":
		return strings.Repeat("<invoke name=\"a\"><parameter name=\"p\">", n)
	case "distinct-keys":
		var b strings.Builder
		b.WriteString("<tool_call>{\"name\":\"a\",\"arguments\":{")
		for i := range n {
			fmt.Fprintf(&b, "\"k%d\":%d,", i, i)
		}
		b.WriteString("\"z\":0}}</tool_call>\n<function=f>\n")
		for i := range n {
			fmt.Fprintf(&b, "<parameter=p%d>v</parameter>", i)
		}
		return b.String()
	}
	panic(kind)
}

var adversarialKinds = []string{"unclosed-tool_call", "unclosed-json-string", "unclosed-fence", "deep-nesting", "brackets",
	"line-start-braces", "unclosed-think", "qwen-params", "vcp", "pythonic", "backticks", "tokens", "gemma", "invoke", "distinct-keys"}

func BenchmarkScanNoCalls1MB(b *testing.B) {
	in := prose(1 << 20)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		Scan(in, DefaultOptions())
	}
}

func BenchmarkScanPlainText1MB(b *testing.B) {
	in := strings.Repeat("The quick brown fox jumps over the lazy dog. ", (1<<20)/45+1)[:1<<20]
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Scan(in, DefaultOptions())
	}
}

func BenchmarkScan100Calls1MB(b *testing.B) {
	in := withCalls(1<<20, 100)
	if n := len(Scan(in, DefaultOptions()).Calls); n != 100 {
		b.Fatalf("found %d calls", n)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		Scan(in, DefaultOptions())
	}
}

func BenchmarkScan100CallsRegistry(b *testing.B) {
	in := withCalls(1<<20, 100)
	opts := DefaultOptions()
	opts.Registry = testRegistry(b)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Scan(in, opts)
	}
}

func BenchmarkScanAdversarial(b *testing.B) {
	for _, kind := range adversarialKinds {
		b.Run(kind, func(b *testing.B) {
			in := adversarial(kind, 100_000)
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				Scan(in, Options{Paradigm: "auto"})
			}
		})
	}
}

// TestLinearTime checks that scanning 4x more adversarial text takes
// roughly 4x longer (quadratic would be 16x).
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	measure := func(in string) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			Scan(in, Options{Paradigm: "auto"})
			best = min(best, time.Since(start))
		}
		return best
	}
	for _, kind := range adversarialKinds {
		small, large := adversarial(kind, 10_000), adversarial(kind, 40_000)
		ratio := func() float64 {
			ts, tl := measure(small), measure(large)
			if tl < 2*time.Millisecond {
				return 0 // too fast to tell
			}
			return float64(tl) / float64(ts)
		}
		// Linear is about 4; quadratic would be 16. Timing on a busy
		// machine is noisy, so only a repeated failure counts.
		if r := ratio(); r > 10 {
			if r2 := ratio(); r2 > 10 {
				t.Errorf("%s: 4x the input took %.1fx (then %.1fx) the time: not linear", kind, r, r2)
			}
		}
	}
}
