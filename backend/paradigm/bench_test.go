package paradigm

import (
	"fmt"
	"strings"
	"testing"
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
	case "qwen-value-pairs":
		// A value full of sibling openers and closers: the pairing walk.
		return "<tool_call>\n<function=f>\n<parameter=a>\n" + strings.Repeat("<parameter=x>y</parameter> ", n)
	case "cline-unclosed":
		return strings.Repeat("<write_to_file>\n<path>a</path>\n<content>\nx</content> ", n)
	case "vcp-escape":
		return strings.Repeat("<<<[TOOL_REQUEST]>>>\ntool_name:「始」a「末」,\nk:「始ESCAPE」", n)
	case "minimax-m3":
		return strings.Repeat("]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"a\">]<]minimax[>[<k>", n)
	case "kimi-k3":
		return strings.Repeat("<|open|>tools<|sep|><|open|>call tool=\"a\"<|sep|><|open|>argument key=\"k\"<|sep|>", n)
	case "solar":
		return strings.Repeat("<|tool_call:start|>a\n<|tool_arg:start|>k<|tool_arg:value|>v", n)
	case "glm-suffix":
		return strings.Repeat("<tool_calls:x><tool_call:x>a<arg_key:x>k</arg_key:x><arg_value:x>", n)
	case "mistral-args":
		return strings.Repeat("name[ARGS]{\"a\": ", n)
	case "pythonic-lines":
		return strings.Repeat("f(a=1, b='x\n", n)
	case "broken-lists":
		return strings.Repeat("[f(a='x 'y'), ", n)
	case "harmony-headers":
		return strings.Repeat(" to=functions.f<|channel|>commentary json<|message|>{\"a\":", n)
	case "code-strings":
		return strings.Repeat("x = '[TOOL_CALLS]a[ARGS]{} ", n)
	case "blockquotes":
		return strings.Repeat("> <tool_call>{\"name\": \"a\"", n)
	case "kimi-orphans":
		return strings.Repeat("a:0<|tool_call_argument_begin|>{", n)
	case "harmony-stripped":
		return strings.Repeat("commentary to=functions.f json{{{{{{{{", n)
	case "arrow-blocks":
		return strings.Repeat("[TOOL_CALL]{tool => \"a\", args => {--k \"", n)
	case "invoke-bracketless":
		return strings.Repeat("invoke name=\"a\">\nparameter name=\"k\">", n)
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
	"line-start-braces", "unclosed-think", "qwen-params", "vcp", "pythonic", "backticks", "tokens", "gemma", "invoke", "distinct-keys",
	"qwen-value-pairs", "cline-unclosed", "vcp-escape", "minimax-m3", "kimi-k3", "solar", "glm-suffix", "mistral-args",
	"pythonic-lines", "broken-lists", "harmony-headers", "code-strings", "blockquotes", "kimi-orphans",
	"harmony-stripped", "arrow-blocks", "invoke-bracketless"}

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

// 100 calls in 1 MB: 64 become cards, one problem card counts the rest.
func BenchmarkScan100Calls1MB(b *testing.B) {
	in := withCalls(1<<20, 100)
	if res := Scan(in, DefaultOptions()); len(res.Calls) != maxCalls || len(res.Problems) != 1 {
		b.Fatalf("found %d calls, %d problems", len(res.Calls), len(res.Problems))
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

// BenchmarkScanAdversarial scans each hostile input at two sizes, 1 MB and
// 4 MB: linear time shows as the same MB/s at both.
func BenchmarkScanAdversarial(b *testing.B) {
	for _, kind := range adversarialKinds {
		for _, size := range []int{1 << 20, 4 << 20} {
			b.Run(fmt.Sprintf("%s/%dMB", kind, size>>20), func(b *testing.B) {
				in := adversarial(kind, 1)
				in = strings.Repeat(in, size/len(in)+1)[:size]
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					Scan(in, Options{Paradigm: "auto"})
				}
			})
		}
	}
}
