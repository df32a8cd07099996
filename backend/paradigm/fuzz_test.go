package paradigm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	// The end of the message (issue 28): cut after the name, inside a
	// value, or only closers missing.
	"<tool_call>\n<function=task>\n<",
	"{\"name\": \"f\", \"arguments\": {\"cmds\": [\"ls\", \"pwd\"",
	"{\"type\": \"function\", \"function\": {\"name\": \"t\", \"parameters\": {\"location\": \"Sydney\"}}",
	"<read_file><path>src/file.ts</path>",
	"<minimax:tool_call><invoke name=\"bash\"><parameter name=\"command\">ls</parameter>",
	"<tool_call>grep<arg_key>pattern</arg_key><arg_value>needle</arg_value>\n</tool_c",
	"<|tool_call:start|>task\n<|tool_arg:start|>pa",
	"```text\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>\n```",
	"",
	"plain prose with [links](x) and `code` and {braces}",
	"<tool_call>{\"name\":\"read_file\",\"arguments\":{\"path\":\"x\"}}</tool_call>",
	"<tool_call>{\"name\":\"a\",\"arguments\":{\"q\":\"</tool_call>\"}",
	"<think>x<tool_call>{}</tool_call>",
	"x</think><tool_code>{'name':'a','arguments':{'k':True,}}</tool_code>",
	"```json\n{\"tool_calls\":[{\"id\":\"c\",\"name\":\"a\",\"arguments\":{}}]}\n```",
	"```json\n{\"tool_calls\":[{\"name\":\"a\",\"arguments\":{\"s\":\"```\n",
	"<<<[TOOL_REQUEST]>>>\ntool_name:「始」a「末」,\nk:「始」v「末」\n<<<[END_TOOL_REQUEST]>>>",
	"<tool_call>\n<function=a>\n<parameter=p>\nv\n</parameter>\n</function>\n</tool_call>",
	"[TOOL_CALLS]a[CALL_ID]x[ARGS]{\"k\":1}[TOOL_CALLS][{\"name\":\"b\"}]",
	"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>a\n```json\n{}\n```<｜tool▁call▁end｜>",
	"<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{}<|tool_call_end|>",
	"[a(x=1, y='s', z=[1, {'k': None}]), b()]",
	"<tool_call>a<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>",
	"<minimax:tool_call><invoke name=\"a\"><parameter name=\"p\">v</parameter></invoke></minimax:tool_call>",
	"<｜DSML｜function_calls><｜DSML｜invoke name=\"a\"><｜DSML｜parameter name=\"p\" string=\"false\">[1]</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>",
	"<|tool_call>call:a{k:<|\"|>v<|\"|>,n:[1,{m:2}]}<tool_call|>",
	"<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{}<|call|>",
	"<|python_tag|>{\"name\":\"a\",\"parameters\":{}}; {\"name\":\"b\",\"parameters\":{}}",
	"functools[{\"name\":\"a\",\"arguments\":{}}]",
	"<|START_ACTION|>[{\"tool_name\":\"a\",\"parameters\":{}}]<|END_ACTION|>",
	"Here's how you can do it:\n\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```",
	"so you can see:\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```",
	"<tool_call>browser_action task</arg_key><arg_value>x</arg_value></tool_call>",
	"<tool_call>grep_toolpattern</arg_key><arg_value>x</arg_value></tool_call>",
	"<execute_command>\n<command>a 2&gt;&amp;1 &#x27;&#39; &#0; &#xFFFFFFFF;</command>\n</execute_command>",
	"[TOOL_CALL]\n{tool => \"t\", args => {\n  --command \"echo\"\n  --n: 3, k => [1]\n}}\n[/TOOL_CALL]",
	"[TOOL_CALL]{tool => \"w\", args => {\"q\":\"x\"}}[/TOOL_",
	"invoke name=\"a\">\nparameter name=\"k\">vparameter>\nparameter name=\"n\">1</parameter>\ninvoke>",
	"```tool_code\n[f_a(c='D', t=['x']), g()]\n```",
	"<|tool_call>call:s(q: \"x\", n: 3, o: {a: (1)}, l: [<|\"|>)<|\"|>])<tool_call|>",
	"analysisx.assistantcommentary to=functions.f json{\"a\":1}{ to=functions.g code {",
	"{\"name\": \"d\", \"parameters\": {\"a\": f (), \"b\": g({u: \"(\"}), 'c': '(x)'}}",
	"<tool_call>\n{{\"name\": \"q\", \"arguments\": {\"i\": \"}\"}}}\n</tool_call>",
	"x<tool_call>exec tool=\"exec\" command='a\"b' n=\"\" />",
	"< | DSML | tool_calls><| DSML |invoke name=\"a\"><｜ dsml ｜parameter name=\"p\">v</ | DSML | parameter></ | DSML | invoke>",
	"<tool_call id=\"c\" name=\"a\">{\"k\":[1,{\"m\":\"}\"}]}</tool_call><tool_code name='b'>{}",
	"<tool_call>\n <function=a>\n <parameter=c>\n x\n\n  y\n </parameter>\n <parameter=q> v </parameter>\n <parameter=z> \n</function>",
	"<|channel|>commentary to=functions.Web Search code  json<|constrain|>json<|message|>{\"q\":1}<|call|>",
	"x\nread_file\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\nwrite_file<arg_key>path</arg_key><arg_value>b</arg_value><arg_key>content",
	"For example:\n<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>",
	strings.Repeat("<tool_call>{\"", 50),
	strings.Repeat("[", 300) + strings.Repeat("{", 300),
}

// checkResult asserts what must hold for any input.
func checkResult(t *testing.T, in string, res Result) {
	t.Helper()
	if res.Calls == nil || res.Problems == nil {
		t.Fatalf("nil slices")
	}
	ids := map[string]bool{}
	for _, c := range res.Calls {
		if c.ID == "" || ids[c.ID] {
			t.Fatalf("empty or duplicate id %q", c.ID)
		}
		ids[c.ID] = true
		var obj map[string]any
		if err := json.Unmarshal(c.Arguments, &obj); err != nil || obj == nil {
			t.Fatalf("arguments are not a JSON object: %s (%v)", c.Arguments, err)
		}
		if c.Start < 0 || c.End > len(in) || c.Start > c.End || in[c.Start:c.End] != c.Raw {
			t.Fatalf("bad span %d:%d", c.Start, c.End)
		}
		if c.Name == "" {
			t.Fatalf("call without a name")
		}
	}
	for _, p := range res.Problems {
		if p.Message == "" {
			t.Fatalf("problem without a message")
		}
		if p.Start < 0 || p.End > len(in) || p.Start > p.End {
			t.Fatalf("bad problem span %d:%d", p.Start, p.End)
		}
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("result does not marshal: %v", err)
	}
}

// corpusSeeds are the texts of the corpus of real outputs: every family's
// syntax, for the fuzzer to mutate.
func corpusSeeds(f *testing.F) []string {
	files, _ := filepath.Glob("testdata/corpus/*.jsonl")
	var out []string
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			var c struct{ Text string }
			if json.Unmarshal([]byte(line), &c) == nil && c.Text != "" {
				out = append(out, c.Text)
			}
		}
	}
	return out
}

func FuzzScan(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, s := range corpusSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		res := Scan(in, Options{Paradigm: "auto"})
		checkResult(t, in, res)
		for _, c := range res.Calls {
			// Only a call the message ended in is repaired.
			if c.Repaired && len(strings.TrimSpace(in[min(c.End, len(in)):])) > 64 {
				t.Fatalf("repaired call %s not at the end of the message", c.Name)
			}
		}
		// Deterministic: same input, same result.
		again := Scan(in, Options{Paradigm: "auto"})
		if len(again.Calls) != len(res.Calls) || len(again.Problems) != len(res.Problems) {
			t.Fatalf("not deterministic")
		}
		for i := range res.Calls {
			if res.Calls[i].ID != again.Calls[i].ID {
				t.Fatalf("ids not stable")
			}
		}
		if utf8.ValidString(in) {
			for _, p := range All() {
				checkResult(t, in, p.Parse(in))
			}
		}
	})
}

func FuzzScanRegistry(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("<tool_call>{\"name\":\"Read-File\",\"arguments\":{\"path\":1,\"limit\":\"7\"}}</tool_call>")
	f.Add("<<<[TOOL_REQUEST]>>>\ntool_name:「始」get_weather「末」,\ndays:「始」x「末」,\ntags:「始」[1,「末」\n<<<[END_TOOL_REQUEST]>>>")
	f.Add("<tool_call>read_filepath</arg_key><arg_value>a.md</arg_value></tool_call>")
	reg := testRegistry(f)
	f.Fuzz(func(t *testing.T, in string) {
		for _, par := range []string{"json", "xml", "vcp"} {
			res := Scan(in, Options{Paradigm: par, RecognizeOthers: true, Registry: reg})
			checkResult(t, in, res)
			for _, c := range res.Calls {
				if _, ok := reg.Lookup(c.Name); !ok {
					t.Fatalf("call to unknown tool %q passed the registry", c.Name)
				}
			}
		}
	})
}

// A message fed in two pieces gives the result of the whole, and the calls
// that formed on the way are calls of the whole.
func FuzzStream(f *testing.F) {
	for i, s := range corpusSeeds(f) {
		if i%4 == 0 {
			f.Add(s, uint16(len(s)/2))
		}
	}
	f.Fuzz(func(t *testing.T, in string, at uint16) {
		split := int(at) % (len(in) + 1)
		opts := Options{Paradigm: "auto"}
		whole := Scan(in, opts)
		st := NewStream(opts)
		st.Write(in[:split])
		forming := st.Forming()
		st.Write(in[split:])
		got := st.Result()
		if len(got.Calls) != len(whole.Calls) || len(got.Problems) != len(whole.Problems) {
			t.Fatalf("the streamed result differs from the whole")
		}
		if late := in[max(0, split-16):]; strings.Contains(late, "</") || strings.Contains(late, "/THINK]") || strings.Contains(late, "◁/") ||
			strings.Contains(late, "|end_") || strings.Contains(late, "channel|>") {
			return // a reasoning closer arriving later may unmake what formed
		}
		for i, c := range forming {
			if i >= len(whole.Calls) || c.Name != whole.Calls[i].Name || string(c.Arguments) != string(whole.Calls[i].Arguments) {
				t.Fatalf("call %d formed as %s %s; the whole message has %+v", i, c.Name, c.Arguments, whole.Calls)
			}
		}
	})
}
