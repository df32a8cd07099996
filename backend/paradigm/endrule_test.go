package paradigm_test

import (
	"strings"
	"testing"

	"airlock/backend/paradigm"
)

// outerPending: families whose call can still stand, unmarked, when the
// message ends after the call's own closer but before its wrapper's (the
// JSON paradigm's closing fence, PLaMo's end token: a known gap, issue 28),
// or whose closer is a stop token servers strip (Harmony's <|call|>).
var outerPending = map[string]bool{
	paradigm.FormatHarmony: true,
}

// Every family's example, cut at every byte: a cut-off call never becomes
// a runnable card. No prefix yields a call whose arguments differ from the
// whole call's (a value cut in the middle, or the call cut right after its
// name, is a problem card or nothing), and a call found in a prefix is
// marked repaired (only its closers were missing). Each family but a few
// also has prefixes that are repaired calls: the closers were added.
func TestCutOffNeverRunnable(t *testing.T) {
	opts := paradigm.Options{Paradigm: "auto"}
	for _, f := range paradigm.Formats() {
		ex := strings.TrimSpace(f.Example)
		whole := paradigm.Scan(ex, opts)
		if len(whole.Calls) != 1 || whole.Calls[0].Repaired {
			t.Errorf("%s: the whole example gives %d calls (repaired %v), want one complete call", f.ID, len(whole.Calls), len(whole.Calls) == 1 && whole.Calls[0].Repaired)
			continue
		}
		want := string(whole.Calls[0].Arguments)
		repaired := 0
		for k := 1; k < len(ex); k++ {
			r := paradigm.Scan(ex[:k], opts)
			for _, c := range r.Calls {
				switch {
				case string(c.Arguments) != want:
					t.Errorf("%s: cut at %d (%q) gives the runnable call %s%s", f.ID, k, tail(ex[:k]), c.Name, c.Arguments)
				case !c.Repaired && !outerPending[f.ID]:
					t.Errorf("%s: cut at %d (%q) gives a call not marked repaired", f.ID, k, tail(ex[:k]))
				case c.Repaired:
					repaired++
				}
			}
		}
		if repaired == 0 && f.ID != paradigm.FormatPythonic && f.ID != paradigm.FormatCWM && f.ID != paradigm.FormatJSON {
			t.Errorf("%s: no cut of the example is a repaired call", f.ID)
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-30):] }

// Kind by kind, in several families: what the end of the message makes of
// a call, whole and fed in two chunks at every split.
func TestEndOfMessage(t *testing.T) {
	type want struct {
		calls    int
		repaired bool
		problems int
	}
	cases := []struct {
		name, text string
		want
	}{
		// a: cut right after the opener and the name
		{"qwen3coder after the name", "<tool_call>\n<function=task>\n<", want{0, false, 1}},
		{"hermes after the name", `<tool_call>{"name": "task"`, want{0, false, 1}},
		{"invoke after the name", `<minimax:tool_call><invoke name="task">`, want{0, false, 1}},
		{"glm after the name", "<tool_call>task", want{0, false, 1}},
		{"solar after the name", "<|tool_call:start|>task\n<|tool_arg:start|>", want{0, false, 1}},
		// a: cut inside a value
		{"json string cut", `{"name": "write", "arguments": {"path": "a.txt", "content": "hel`, want{0, false, 1}},
		{"json number cut", `{"name": "f", "arguments": {"n": 12`, want{0, false, 1}},
		{"json list cut", `{"name": "f", "arguments": {"cmds": ["ls", "pwd"`, want{0, false, 1}},
		{"json key without value", `{"name": "f", "arguments": {"a": "x", "b"`, want{0, false, 1}},
		{"qwen3coder value cut", "<tool_call>\n<function=bash>\n<parameter=command>\nls -l", want{0, false, 1}},
		{"cline value cut", "<write_to_file>\n<path>a.txt</path>\n<content>hello wor", want{0, false, 1}},
		{"invoke value cut", `<invoke name="bash"><parameter name="command">ls -`, want{0, false, 1}},
		// c: only closers missing
		{"json object closer", `{"name": "get_current_traffic", "parameters": {"location": "Sydney"}`, want{1, true, 0}},
		{"hermes tag closer", "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}", want{1, true, 0}},
		{"hermes half a closer", "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}\n</tool_c", want{1, true, 0}},
		{"qwen3coder function closer", "<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n", want{1, true, 0}},
		{"cline tool closer", "<read_file><path>src/file.ts</path>", want{1, true, 0}},
		{"invoke closers", `<minimax:tool_call><invoke name="bash"><parameter name="command">ls</parameter>`, want{1, true, 0}},
		{"glm closer", "<tool_call>grep<arg_key>pattern</arg_key><arg_value>needle</arg_value>", want{1, true, 0}},
		{"mistral json closer", `[TOOL_CALLS]bash[ARGS]{"command": "ls"`, want{1, true, 0}},
		{"llama list closer", `[{"name": "f", "arguments": {"a": true}}`, want{1, true, 0}},
		{"fence closer", "```json\n{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}\n``", want{1, true, 0}},
		{"fence never closed", "```json\n{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}\n", want{1, true, 0}},
		{"fence complete", "```json\n{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}\n```", want{1, false, 0}},
		// complete: not marked
		{"hermes complete", "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}\n</tool_call>", want{1, false, 0}},
		{"closer forgotten mid-message", "<tool_call>{\"name\": \"f\", \"arguments\": {}}\nDone, now I wait.", want{1, false, 0}},
		{"harmony without its stop token", `<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": "x"}`, want{1, false, 0}},
	}
	opts := paradigm.Options{Paradigm: "auto"}
	for _, c := range cases {
		check := func(how string, r paradigm.Result) {
			rep := false
			for _, x := range r.Calls {
				rep = rep || x.Repaired
			}
			if len(r.Calls) != c.calls || rep != c.repaired || len(r.Problems) != c.problems {
				t.Errorf("%s (%s): %d calls (repaired %v), %d problems %v; want %+v", c.name, how, len(r.Calls), rep, len(r.Problems), r.Problems, c.want)
			}
		}
		check("whole", paradigm.Scan(c.text, opts))
		for k := 1; k < len(c.text); k++ {
			st := paradigm.NewStream(opts)
			st.Write(c.text[:k])
			for _, f := range st.Forming() {
				if f.Repaired {
					t.Errorf("%s: a repaired call formed before the message ended (split %d)", c.name, k)
				}
			}
			st.Write(c.text[k:])
			check("in two chunks", st.Result())
		}
	}
}

// A cut-off problem card says so, and names the tool when it is known.
func TestCutOffMessage(t *testing.T) {
	r := paradigm.Scan("<tool_call>\n<function=task>\n", paradigm.Options{Paradigm: "auto"})
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, `"task"`) || !strings.Contains(r.Problems[0].Message, "cut off") {
		t.Fatalf("problems %+v", r.Problems)
	}
	if !strings.Contains(r.Problems[0].Raw, "<function=task>") {
		t.Errorf("the card should show what arrived: %q", r.Problems[0].Raw)
	}
}

// A format the answer quotes never becomes a call: inside a fence marked as
// plain text or another language, or under prose presenting it as an
// illustration; in every family's syntax, whole and in two chunks.
func TestQuotedFormatNeverACall(t *testing.T) {
	opts := paradigm.Options{Paradigm: "auto"}
	wraps := []struct{ name, before, after string }{
		{"text fence", "```text\n", "\n```"},
		{"plaintext fence", "```plaintext\n", "\n```"},
		{"txt fence", "```txt\n", "\n```"},
		{"markdown fence", "```markdown\n", "\n```"},
		{"python fence", "```python\n", "\n```"},
		{"illustration", "Here is an example of the format (an illustration, not a call):\n\n", "\n\nThat is how a call looks."},
	}
	for _, f := range paradigm.Formats() {
		ex := strings.TrimSpace(f.Example)
		for _, w := range wraps {
			in := w.before + ex + w.after
			if r := paradigm.Scan(in, opts); len(r.Calls) > 0 {
				t.Errorf("%s in a %s: %d calls", f.ID, w.name, len(r.Calls))
			}
			for k := 1; k < len(in); k += 7 {
				st := paradigm.NewStream(opts)
				st.Write(in[:k])
				st.Forming()
				st.Write(in[k:])
				if len(st.Forming()) > 0 || len(st.Result().Calls) > 0 {
					t.Errorf("%s in a %s, fed in two chunks at %d: a call", f.ID, w.name, k)
					break
				}
			}
		}
	}
}
