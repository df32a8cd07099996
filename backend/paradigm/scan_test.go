package paradigm

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"airlock/backend/tools"
)

// call is an expected call: name, arguments (JSON), format.
type call struct {
	name, args, format string
}

type scanCase struct {
	name     string
	par      string // paradigm; "" means auto
	others   bool
	in       string
	want     []call
	problems []string // substrings, one per expected problem
	reg      bool     // scan with testRegistry
}

func testRegistry(t testing.TB) *tools.Registry {
	t.Helper()
	specs, err := tools.ParseSpecs([]byte(testTools))
	if err != nil {
		t.Fatal(err)
	}
	r, err := tools.NewRegistry(specs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const testTools = `[
 {"name":"read_file","description":"Read a UTF-8 text file from the workspace.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"Path relative to the workspace root."},"limit":{"type":"integer","description":"Read at most this many lines."}},"required":["path"],"additionalProperties":false}},
 {"name":"write_file","description":"Create or overwrite a file.","parameters":{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}},
 {"name":"get_weather","description":"Current weather for a city.","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},"metric":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}}},"required":["city"]}},
 {"name":"list_dir","description":"List a directory.","parameters":{"type":"object","properties":{"path":{"type":"string","default":"."}}}}
]`

func runCases(t *testing.T, cases []scanCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Paradigm: tc.par, RecognizeOthers: tc.others}
			if tc.par == "" {
				opts.Paradigm = "auto"
			}
			if tc.reg {
				opts.Registry = testRegistry(t)
			}
			res := Scan(tc.in, opts)
			for _, p := range res.Problems {
				noteProblemText(p)
			}
			var got []call
			for _, c := range res.Calls {
				got = append(got, call{c.Name, string(c.Arguments), c.Format})
				if c.ID == "" {
					t.Errorf("call %s has no id", c.Name)
				}
				if c.Raw != tc.in[c.Start:c.End] {
					t.Errorf("call %s: Raw is not text[Start:End]", c.Name)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d calls %v, want %d %v\nproblems: %+v", len(got), got, len(tc.want), tc.want, res.Problems)
			}
			for i := range got {
				w := tc.want[i]
				if got[i].name != w.name || (w.format != "" && got[i].format != w.format) || !sameJSON(got[i].args, w.args) {
					t.Errorf("call %d: got %v, want %v", i, got[i], w)
				}
			}
			if len(res.Problems) != len(tc.problems) {
				t.Fatalf("got %d problems %+v, want %d %q", len(res.Problems), res.Problems, len(tc.problems), tc.problems)
			}
			for i, p := range tc.problems {
				if !strings.Contains(res.Problems[i].Message, p) {
					t.Errorf("problem %d: %q does not contain %q", i, res.Problems[i].Message, p)
				}
				if res.Problems[i].Raw == "" {
					t.Errorf("problem %d has no raw text", i)
				}
			}
		})
	}
}

func sameJSON(a, b string) bool {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return a == b
	}
	return reflect.DeepEqual(va, vb)
}

const cutOff = "cut off"

func TestJSONParadigm(t *testing.T) {
	runCases(t, []scanCase{
		{name: "fenced envelope", par: "json", in: "I'll read it.\n\n```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"read_file\",\"arguments\":{\"path\":\"notes.md\"}}]}\n```\n",
			want: []call{{"read_file", `{"path":"notes.md"}`, "json"}}},
		{name: "two calls pretty printed", par: "json", in: "```json\n{\n  \"tool_calls\": [\n    {\"id\": \"call_1\", \"name\": \"read_file\", \"arguments\": {\"path\": \"a.md\"}},\n    {\"id\": \"call_2\", \"name\": \"read_file\", \"arguments\": {\"path\": \"b.md\"}}\n  ]\n}\n```",
			want: []call{{"read_file", `{"path":"a.md"}`, "json"}, {"read_file", `{"path":"b.md"}`, "json"}}},
		{name: "unfenced envelope", par: "json", in: `{"tool_calls":[{"id":"call_1","name":"list_dir","arguments":{}}]}`,
			want: []call{{"list_dir", `{}`, "json"}}},
		{name: "fence inside string value", par: "json", in: "```json\n{\"tool_calls\":[{\"name\":\"write_file\",\"arguments\":{\"path\":\"README.md\",\"content\":\"# Demo\n```go\nfunc main() {}\n```\n\"}}]}\n```\nDone.",
			want: []call{{"write_file", "{\"path\":\"README.md\",\"content\":\"# Demo\\n```go\\nfunc main() {}\\n```\\n\"}", "json"}}},
		{name: "single call object in json fence", par: "json", in: "```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"x\"}}\n```",
			want: []call{{"read_file", `{"path":"x"}`, "json"}}},
		{name: "openai style inside envelope", par: "json", in: "```json\n{\"tool_calls\":[{\"id\":\"call_abc\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":\\\"x\\\"}\"}}]}\n```",
			want: []call{{"read_file", `{"path":"x"}`, "json"}}},
		{name: "trailing comma and comments", par: "json", in: "```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"read_file\",\"arguments\":{\"path\":\"x\",},}, // one call\n]}\n```",
			want: []call{{"read_file", `{"path":"x"}`, "json"}}},
		{name: "plain json data is not a call", par: "json", in: "Here is the config:\n```json\n{\"name\": \"demo\", \"version\": 2}\n```",
			want: nil},
		{name: "python block is inert", par: "json", in: "```python\nprint({\"tool_calls\": []})\n```", want: nil},
		{name: "labelled example fence", par: "json", in: "For example:\n```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"read_file\",\"arguments\":{\"path\":\"x\"}}]}\n```",
			want: nil},
		{name: "example said after", par: "json", in: "```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"read_file\",\"arguments\":{\"path\":\"x\"}}]}\n```\n(This is just an example; I won't run it.)",
			want: nil},
		{name: "example before, real call after", par: "json", in: "For example:\n```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"read_file\",\"arguments\":{\"path\":\"x\"}}]}\n```\nNow let me do it for real:\n```json\n{\"tool_calls\":[{\"id\":\"call_2\",\"name\":\"read_file\",\"arguments\":{\"path\":\"y\"}}]}\n```",
			want: []call{{"read_file", `{"path":"y"}`, "json"}}},
		{name: "cut off envelope, closers missing", par: "json", in: "```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"read_file\",\"arguments\":{\"path\":\"x\"}}",
			problems: []string{cutOff}},
		{name: "cut off inside a value", par: "json", in: "```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"write_file\",\"arguments\":{\"path\":\"x\",\"content\":\"hel",
			problems: []string{cutOff}},
		{name: "malformed json in call fence is a problem", par: "json", in: "```json\n{\"tool_calls\":[{\"id\":\"call_1\" \"name\":: \"read_file\" @@@ }]}\n```",
			problems: []string{"not valid JSON"}},
		{name: "hermes not read without others", par: "json", in: `<tool_call>{"name":"read_file","arguments":{"path":"x"}}</tool_call>`, want: nil},
		{name: "hermes read with others", par: "json", others: true, in: `<tool_call>{"name":"read_file","arguments":{"path":"x"}}</tool_call>`,
			want: []call{{"read_file", `{"path":"x"}`, "hermes"}}},
		{name: "tool_calls not a list", par: "json", in: "```json\n{\"tool_calls\": 5}\n```", problems: []string{"must be a list"}},
		{name: "call without a name", par: "json", in: "```json\n{\"tool_calls\":[{\"arguments\":{\"path\":\"x\"}}]}\n```", problems: []string{"no tool name"}},
		{name: "model id kept, duplicate replaced", par: "json", in: "```json\n{\"tool_calls\":[{\"id\":\"c1\",\"name\":\"a\",\"arguments\":{}},{\"id\":\"c1\",\"name\":\"b\",\"arguments\":{}}]}\n```",
			want: []call{{"a", `{}`, "json"}, {"b", `{}`, "json"}}},
	})
}

func TestXMLParadigm(t *testing.T) {
	runCases(t, []scanCase{
		{name: "tool_code", par: "xml", in: `<tool_code>{"name":"read_file","arguments":{"path":"notes.md"}}</tool_code>`,
			want: []call{{"read_file", `{"path":"notes.md"}`, "xml"}}},
		{name: "hermes spelling accepted", par: "xml", in: "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.md\"}}\n</tool_call>",
			want: []call{{"read_file", `{"path":"notes.md"}`, "hermes"}}},
		{name: "angle brackets and quotes survive", par: "xml", in: `<tool_code>{"name":"write_file","arguments":{"path":"a.html","content":"<p class=\"x\">a</tool_code> & b</p>"}}</tool_code>`,
			want: []call{{"write_file", `{"path":"a.html","content":"<p class=\"x\">a</tool_code> & b</p>"}`, "xml"}}},
		{name: "several tags", par: "xml", in: "<tool_code>{\"name\":\"a\",\"arguments\":{}}</tool_code>\n<tool_code>{\"id\":\"x9\",\"name\":\"b\",\"arguments\":{\"k\":1}}</tool_code>",
			want: []call{{"a", `{}`, "xml"}, {"b", `{"k":1}`, "xml"}}},
		{name: "missing closing tag at end", par: "xml", in: `<tool_code>{"name":"read_file","arguments":{"path":"x"}}`,
			want: []call{{"read_file", `{"path":"x"}`, "xml"}}},
		{name: "missing brace before closer", par: "xml", in: `<tool_code>{"name":"read_file","arguments":{"path":"x"}</tool_code>`,
			problems: []string{"not complete before"}},
		{name: "extra brace before closer", par: "xml", in: `<tool_code>{"name":"read_file","arguments":{"path":"x"}}}</tool_code> done`,
			want: []call{{"read_file", `{"path":"x"}`, "xml"}}},
		{name: "json fence inside the tag", par: "xml", in: "<tool_code>\n```json\n{\"name\":\"read_file\",\"arguments\":{\"path\":\"x\"}}\n```\n</tool_code>",
			want: []call{{"read_file", `{"path":"x"}`, "xml"}}},
		{name: "quoted tag in prose", par: "xml", in: "Use the `<tool_code>` tag to call tools.", want: nil},
		{name: "tag mentioned in prose", par: "xml", in: "I will write a <tool_code> tag next time.", want: nil},
		{name: "empty tag is a problem", par: "xml", in: "<tool_code>\n</tool_code>", problems: []string{"holds no tool call"}},
		{name: "junk in tag is a problem", par: "xml", in: "<tool_code>read the file please</tool_code>", problems: []string{"holds no tool call"}},
		{name: "unclosed string before closer", par: "xml", in: `<tool_code>{"name":"read_file","arguments":{"path":"notes.md}}</tool_code>`,
			problems: []string{"string is not closed"}},
		{name: "json paradigm not read in xml chat", par: "xml", in: "```json\n{\"tool_calls\":[{\"name\":\"a\",\"arguments\":{}}]}\n```", want: nil},
	})
}

func TestVCPParadigm(t *testing.T) {
	runCases(t, []scanCase{
		{name: "request block", par: "vcp", in: "Let me read it.\n<<<[TOOL_REQUEST]>>>\ntool_name:「始」read_file「末」,\npath:「始」notes.md「末」\n<<<[END_TOOL_REQUEST]>>>",
			want: []call{{"read_file", `{"path":"notes.md"}`, "vcp"}}},
		{name: "values stay strings without registry", par: "vcp", in: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」get_weather「末」,\ncity:「始」Paris「末」,\ndays:「始」3「末」\n<<<[END_TOOL_REQUEST]>>>",
			want: []call{{"get_weather", `{"city":"Paris","days":"3"}`, "vcp"}}},
		{name: "coerced with registry", par: "vcp", reg: true, in: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」get_weather「末」,\ncity:「始」Paris「末」,\ndays:「始」3「末」,\nmetric:「始」false「末」,\ntags:「始」[\"a\", \"b\"]「末」\n<<<[END_TOOL_REQUEST]>>>",
			want: []call{{"get_weather", `{"city":"Paris","days":3,"metric":false,"tags":["a","b"]}`, "vcp"}}},
		{name: "multi-line value with end marker inside", par: "vcp", in: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」write_file「末」,\npath:「始」vcp.md「末」,\ncontent:「始」\nA block ends with <<<[END_TOOL_REQUEST]>>>\n\"quotes\" and <tags>\n「末」\n<<<[END_TOOL_REQUEST]>>>",
			want: []call{{"write_file", `{"path":"vcp.md","content":"A block ends with <<<[END_TOOL_REQUEST]>>>\n\"quotes\" and <tags>"}`, "vcp"}}},
		{name: "two blocks", par: "vcp", in: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」a「末」\n<<<[END_TOOL_REQUEST]>>>\n<<<[TOOL_REQUEST]>>>\ntool_name:「始」b「末」\n<<<[END_TOOL_REQUEST]>>>",
			want: []call{{"a", `{}`, "vcp"}, {"b", `{}`, "vcp"}}},
		{name: "end marker missing at end of message", par: "vcp", in: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」read_file「末」,\npath:「始」x「末」",
			want: []call{{"read_file", `{"path":"x"}`, "vcp"}}},
		{name: "cut inside a value", par: "vcp", in: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」write_file「末」,\ncontent:「始」half a fi", problems: []string{cutOff}},
		{name: "no tool name", par: "vcp", in: "<<<[TOOL_REQUEST]>>>\npath:「始」x「末」\n<<<[END_TOOL_REQUEST]>>>", problems: []string{"no tool_name"}},
		{name: "values without markers", par: "vcp", in: "<<<[TOOL_REQUEST]>>>\ntool_name: read_file,\npath: notes.md\n<<<[END_TOOL_REQUEST]>>>",
			want: []call{{"read_file", `{"path":"notes.md"}`, "vcp"}}},
		{name: "fullwidth colon", par: "vcp", in: "<<<[TOOL_REQUEST]>>>\ntool_name：「始」read_file「末」\npath：「始」x「末」\n<<<[END_TOOL_REQUEST]>>>",
			want: []call{{"read_file", `{"path":"x"}`, "vcp"}}},
		{name: "not read in json chat without others", par: "json", in: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」a「末」\n<<<[END_TOOL_REQUEST]>>>", want: nil},
	})
}

func TestReasoningIsMasked(t *testing.T) {
	hermes := `<tool_call>{"name":"read_file","arguments":{"path":"x"}}</tool_call>`
	runCases(t, []scanCase{
		{name: "think block", in: "<think>\nMaybe " + hermes + "\n</think>\n\n" + hermes, want: []call{{"read_file", `{"path":"x"}`, "hermes"}}},
		{name: "thinking block", in: "<thinking>" + hermes + "</thinking>Nothing to do.", want: nil},
		{name: "opening tag missing", in: "The user wants x. I'll draft " + hermes + " then check.\n</think>\n\n" + hermes,
			want: []call{{"read_file", `{"path":"x"}`, "hermes"}}},
		{name: "never closed", in: "<think>\nI will call " + hermes + " now", want: nil},
		{name: "never closed after prose", in: "Sure.\n<think>let me " + hermes, want: nil},
		{name: "seed think", in: "<seed:think>" + hermes + "</seed:think>", want: nil},
		{name: "magistral THINK", in: "[THINK]" + hermes + "[/THINK]" + hermes, want: []call{{"read_file", `{"path":"x"}`, "hermes"}}},
		{name: "command r thinking", in: "<|START_THINKING|>" + hermes + "<|END_THINKING|>", want: nil},
		{name: "harmony analysis channel", in: "<|channel|>analysis<|message|>" + hermes + "<|end|>", want: nil},
		{name: "quoted closer is prose", in: "Models write `</think>` at the end.\n" + hermes, want: []call{{"read_file", `{"path":"x"}`, "hermes"}}},
		{name: "closer in a call's string does not mask", in: `<tool_call>{"name":"write_file","arguments":{"path":"t.md","content":"</think>"}}</tool_call>`,
			want: []call{{"write_file", `{"path":"t.md","content":"</think>"}`, "hermes"}}},
	})
}

func TestOtherFormats(t *testing.T) {
	w := `{"city":"Paris"}`
	runCases(t, []scanCase{
		// Hermes / Qwen 2.5 / Qwen 3
		{name: "qwen2.5 hermes", in: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", want: []call{{"get_weather", w, "hermes"}}},
		{name: "qwen3 think then calls", in: "<think>\nThe user asks for Paris and Rome.\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n</tool_call>",
			want: []call{{"get_weather", w, "hermes"}, {"get_weather", `{"city":"Rome"}`, "hermes"}}},
		{name: "hermes array payload", in: "<tool_call>[{\"name\":\"a\",\"arguments\":{}},{\"name\":\"b\",\"arguments\":{}}]</tool_call>", want: []call{{"a", "{}", "hermes"}, {"b", "{}", "hermes"}}},
		{name: "hermes ndjson payload", in: "<tool_call>\n{\"name\":\"a\",\"arguments\":{}}\n{\"name\":\"b\",\"arguments\":{}}\n</tool_call>", want: []call{{"a", "{}", "hermes"}, {"b", "{}", "hermes"}}},
		{name: "hermes closer inside string", in: `<tool_call>{"name":"write_file","arguments":{"path":"a.md","content":"Use </tool_call> to end"}}</tool_call>`,
			want: []call{{"write_file", `{"path":"a.md","content":"Use </tool_call> to end"}`, "hermes"}}},
		{name: "hermes python literals", in: `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "metric": True, "days": None}}</tool_call>`,
			want: []call{{"get_weather", `{"city":"Paris","metric":true,"days":null}`, "hermes"}}},
		{name: "hermes single quotes unquoted keys", in: `<tool_call>{name: 'get_weather', arguments: {city: 'Paris'}}</tool_call>`, want: []call{{"get_weather", w, "hermes"}}},
		{name: "hermes arguments as string", in: `<tool_call>{"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}</tool_call>`, want: []call{{"get_weather", w, "hermes"}}},
		{name: "hermes parameters key", in: `<tool_call>{"name": "get_weather", "parameters": {"city": "Paris"}}</tool_call>`, want: []call{{"get_weather", w, "hermes"}}},
		{name: "hermes no closer, message ends", in: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", want: []call{{"get_weather", w, "hermes"}}},
		{name: "hermes cut, only closers missing (a repaired call)", in: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"", want: []call{{"get_weather", w, "hermes"}}},
		{name: "hermes name cut", in: "<tool_call>\n{\"name\": \"get_wea", problems: []string{cutOff}},
		{name: "hermes cut before arguments", in: "<tool_call>\n{\"name\": \"get_weather\"", problems: []string{cutOff}},
		{name: "hermes opener alone at end", in: "Let me check.\n<tool_call>\n", problems: []string{cutOff}},
		{name: "function_call tag", in: `<function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</function_call>`, want: []call{{"get_weather", w, "hermes"}}},
		{name: "tool_calls tag with array (hunyuan, jamba)", in: `<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>`, want: []call{{"get_weather", w, "hermes"}}},
		{name: "name then json inside tag", in: `<tool_call>get_weather{"city": "Paris"}</tool_call>`, want: []call{{"get_weather", w, "hermes"}}},
		{name: "openai style object in hermes tag", in: `<tool_call>{"type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}</tool_call>`, want: []call{{"get_weather", w, "hermes"}}},

		// Qwen3-Coder / Seed-OSS
		{name: "qwen3 coder", in: "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
			want: []call{{"get_weather", `{"city":"Paris","days":"3"}`, "qwen3coder"}}},
		{name: "qwen3 coder coerced", reg: true, in: "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=tags>\n[\"x\"]\n</parameter>\n</function>\n</tool_call>",
			want: []call{{"get_weather", `{"city":"Paris","days":3,"tags":["x"]}`, "qwen3coder"}}},
		{name: "qwen3 coder code value", in: "<tool_call>\n<function=write_file>\n<parameter=path>\nmain.go\n</parameter>\n<parameter=content>\nif a < b && c > d {\n\tfmt.Println(\"</tool_call>\")\n}\n</parameter>\n</function>\n</tool_call>",
			want: []call{{"write_file", `{"path":"main.go","content":"if a < b && c > d {\n\tfmt.Println(\"</tool_call>\")\n}"}`, "qwen3coder"}}},
		{name: "qwen3 coder bare function", in: "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>", want: []call{{"get_weather", w, "qwen3coder"}}},
		{name: "qwen3 coder forgot parameter closer", in: "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n<parameter=content>\nhi\n</parameter>\n</function>\n</tool_call>",
			want: []call{{"write_file", `{"path":"a.txt","content":"hi"}`, "qwen3coder"}}},
		{name: "qwen3 coder forgot function closer", in: "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</tool_call>", want: []call{{"get_weather", w, "qwen3coder"}}},
		{name: "qwen3 coder cut in value", in: "<tool_call>\n<function=write_file>\n<parameter=content>\nhalf of it", problems: []string{cutOff}},
		{name: "seed-oss", in: "<seed:think>hmm</seed:think><seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</seed:tool_call>", want: []call{{"get_weather", w, "qwen3coder"}}},

		// Llama 3.x
		{name: "llama python_tag", in: `<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>`, want: []call{{"get_weather", w, "llama_json"}}},
		{name: "llama bare json", in: `{"name": "get_weather", "parameters": {"city": "Paris"}}`, want: []call{{"get_weather", w, "llama_json"}}},
		{name: "llama 3.2 type function", in: `{"type": "function", "name": "get_weather", "parameters": {"city": "Paris"}}`, want: []call{{"get_weather", w, "llama_json"}}},
		{name: "llama semicolons", in: `{"name": "a", "parameters": {}}; {"name": "b", "parameters": {"x": 1}}`, want: []call{{"a", "{}", "llama_json"}, {"b", `{"x":1}`, "llama_json"}}},
		{name: "llama function tag", in: `<function=get_weather>{"city": "Paris"}</function>`, want: []call{{"get_weather", w, "llama_json"}}},
		{name: "llama builtin", in: `<|python_tag|>brave_search.call(query="weather in Paris")`, want: []call{{"brave_search", `{"query":"weather in Paris"}`, "pythonic"}}},
		{name: "json in prose is not a call", in: "The API returns {\"name\": \"Paris\", \"population\": 2100000} for a city.", want: nil},
		{name: "definition echo is not a call", in: `{"name": "get_weather", "description": "Weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}`, want: nil},
		{name: "placeholder format echo is not a call", in: `{"name": <function-name>, "arguments": <args-json-object>}`, want: nil},
		{name: "bare openai object", in: `{"type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}`, want: []call{{"get_weather", w, "openai_json"}}},
		{name: "xlam bare array", in: "[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]", want: []call{{"get_weather", w, "llama_json"}}},

		// Mistral
		{name: "mistral v3", in: `[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1b2c3d4e"}]`, want: []call{{"get_weather", w, "mistral"}}},
		{name: "mistral v11", in: `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}`, want: []call{{"get_weather", w, "mistral"}}},
		{name: "mistral v11 no ARGS token", in: `[TOOL_CALLS]get_weather{"city": "Paris"}`, want: []call{{"get_weather", w, "mistral"}}},
		{name: "mistral v11 two calls and call id", in: `[TOOL_CALLS]get_weather[CALL_ID]abc123def[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}`,
			want: []call{{"get_weather", w, "mistral"}, {"get_time", "{}", "mistral"}}},
		{name: "mistral cut args", in: `[TOOL_CALLS]write_file[ARGS]{"path": "a", "content": "x`, problems: []string{cutOff}},

		// DeepSeek
		{name: "deepseek v3", in: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", want: []call{{"get_weather", w, "deepseek"}}},
		{name: "deepseek r1 two calls", in: "<think>need both</think>\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Rome\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
			want: []call{{"get_weather", w, "deepseek"}, {"get_weather", `{"city":"Rome"}`, "deepseek"}}},
		{name: "deepseek v3.1", in: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", want: []call{{"get_weather", w, "deepseek"}}},
		{name: "deepseek ascii tokens", in: "<|tool_calls_begin|><|tool_call_begin|>get_weather<|tool_sep|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_end|>", want: []call{{"get_weather", w, "deepseek"}}},
		{name: "deepseek dsml", in: "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Paris</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
			want: []call{{"get_weather", `{"city":"Paris","days":3}`, "deepseek_dsml"}}},
		{name: "deepseek v4 dsml", in: "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>", want: []call{{"get_weather", w, "deepseek_dsml"}}},

		// Pythonic
		{name: "pythonic list", in: `[get_weather(city="Paris", days=3, metric=True), get_time(tz='UTC')]`,
			want: []call{{"get_weather", `{"city":"Paris","days":3,"metric":true}`, "pythonic"}, {"get_time", `{"tz":"UTC"}`, "pythonic"}}},
		{name: "llama4 python_start", in: `<|python_start|>[get_weather(city="Paris")]<|python_end|>`, want: []call{{"get_weather", w, "pythonic"}}},
		{name: "gemma3 tool_code fence", in: "```tool_code\nprint(get_weather(city=\"Paris\"))\n```", want: []call{{"get_weather", w, "pythonic"}}},
		{name: "pythonic in python fence is inert", in: "```python\n[get_weather(city=\"Paris\")]\n```", want: nil},
		{name: "markdown link is not pythonic", in: "[read the docs](https://example.com)\n[see(this)]", want: nil},
		{name: "pythonic nested literals", in: `[search(q="a, b", opts={"k": [1, 2.5, None]}, flag=False)]`, want: []call{{"search", `{"q":"a, b","opts":{"k":[1,2.5,null]},"flag":false}`, "pythonic"}}},
		{name: "pythonic positional in explicit context", in: `<|python_start|>[get_weather("Paris")]<|python_end|>`, problems: []string{"by position"}},

		// GLM, Kimi, invoke, Gemma, harmony
		{name: "glm 4.5", in: "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>", want: []call{{"get_weather", w, "glm"}}},
		{name: "glm 4.7 compact", in: "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call>", want: []call{{"get_weather", `{"city":"Paris","days":"3"}`, "glm"}}},
		{name: "glm no arguments", in: "<tool_call>list_dir</tool_call>", want: []call{{"list_dir", "{}", "glm"}}},
		{name: "kimi k2", in: "<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|>\n<|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>{\"city\": \"Rome\"}<|tool_call_end|>\n<|tool_calls_section_end|>",
			want: []call{{"get_weather", w, "kimi"}, {"get_weather", `{"city":"Rome"}`, "kimi"}}},
		{name: "minimax m2", in: "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n</invoke>\n</minimax:tool_call>", want: []call{{"get_weather", w, "minimax"}}},
		{name: "claude style function_calls", in: "<function_calls>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n</invoke>\n</function_calls>", want: []call{{"get_weather", w, "minimax"}}},
		{name: "gemma 4", in: `<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3,tags:[<|"|>a<|"|>]}<tool_call|>`, want: []call{{"get_weather", `{"city":"Paris","days":3,"tags":["a"]}`, "gemma4"}}},
		{name: "functiongemma", in: `<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>`, want: []call{{"get_weather", w, "functiongemma"}}},
		{name: "gpt-oss harmony", in: `<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>`, want: []call{{"get_weather", w, "harmony"}}},

		// Misc families
		{name: "granite", in: `<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]`, want: []call{{"get_weather", w, "granite"}}},
		{name: "phi4 functools", in: `functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]`, want: []call{{"get_weather", w, "phi4"}}},
		{name: "internlm", in: "<|action_start|><|plugin|>\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}<|action_end|>", want: []call{{"get_weather", w, "internlm"}}},
		{name: "command r7b", in: `<|START_THINKING|>I should look it up.<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}]<|END_ACTION|>`, want: []call{{"get_weather", w, "commandr"}}},

		// Tags mentioned in prose are not calls.
		{name: "invoke mentioned in prose", in: `Claude-style models write <invoke name="get_weather"> and then parameters.`, want: nil},
		{name: "function tag mentioned in prose", in: "Qwen3-Coder writes <function=name> followed by parameters.", want: nil},
		{name: "tool_call tag mentioned at end", in: "I will use <tool_call> tags", want: nil},
		{name: "task list is not pythonic", in: "[x] done\n[ ] todo(later)", want: nil},

		// Order and dedup across formats
		{name: "order of appearance across formats", in: "<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>\n[TOOL_CALLS]b[ARGS]{}\n```json\n{\"tool_calls\":[{\"name\":\"c\",\"arguments\":{}}]}\n```",
			want: []call{{"a", "{}", "hermes"}, {"b", "{}", "mistral"}, {"c", "{}", "json"}}},
		{name: "hermes inside xml fence counted once", in: "```xml\n<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>\n```", want: []call{{"a", "{}", "hermes"}}},
		{name: "hermes inside bash fence is inert", in: "```bash\necho '<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>'\n```", want: nil},
	})
}

func TestRegistry(t *testing.T) {
	runCases(t, []scanCase{
		{name: "name repaired", reg: true, in: `<tool_call>{"name": "functions.Read-File", "arguments": {"path": "a"}}</tool_call>`, want: []call{{"read_file", `{"path":"a"}`, "hermes"}}},
		{name: "camel case repaired", reg: true, in: `<tool_call>{"name": "getWeather", "arguments": {"city": "Paris"}}</tool_call>`, want: []call{{"get_weather", `{"city":"Paris"}`, "hermes"}}},
		{name: "unknown tool", reg: true, in: `<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>`, problems: []string{`no tool named "delete_everything"`}},
		{name: "typo suggestion", reg: true, in: `<tool_call>{"name": "reed_file", "arguments": {"path": "a"}}</tool_call>`, problems: []string{`Did you mean "read_file"`}},
		{name: "missing argument", reg: true, in: `<tool_call>{"name": "read_file", "arguments": {}}</tool_call>`, problems: []string{`missing required argument "path"`}},
		{name: "bad type", reg: true, in: `<tool_call>{"name": "read_file", "arguments": {"path": "a", "limit": "ten"}}</tool_call>`, problems: []string{`"limit" must be integer`}},
		{name: "unknown argument", reg: true, in: `<tool_call>{"name": "read_file", "arguments": {"path": "a", "mode": "x"}}</tool_call>`, problems: []string{`unknown argument "mode"`}},
		{name: "string number coerced", reg: true, in: `<tool_call>{"name": "read_file", "arguments": {"path": "a", "limit": "20"}}</tool_call>`, want: []call{{"read_file", `{"path":"a","limit":20}`, "hermes"}}},
		{name: "good and bad in one message", reg: true, in: "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}</tool_call>\n<tool_call>{\"name\": \"nope\", \"arguments\": {}}</tool_call>",
			want: []call{{"read_file", `{"path":"a"}`, "hermes"}}, problems: []string{"no tool named"}},
		{name: "pythonic with registry", reg: true, in: `[get_weather(city="Paris", days="2")]`, want: []call{{"get_weather", `{"city":"Paris","days":2}`, "pythonic"}}},
	})
}

func TestIDsAreStable(t *testing.T) {
	in := "<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call><tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>"
	a := Scan(in, DefaultOptions())
	b := Scan(in, DefaultOptions())
	if len(a.Calls) != 2 || a.Calls[0].ID == a.Calls[1].ID {
		t.Fatalf("want two calls with distinct ids, got %+v", a.Calls)
	}
	for i := range a.Calls {
		if a.Calls[i].ID != b.Calls[i].ID {
			t.Errorf("id %d changed between scans: %s vs %s", i, a.Calls[i].ID, b.Calls[i].ID)
		}
	}
	o := DefaultOptions()
	o.IDSeed = "message-2"
	c := Scan(in, o)
	if c.Calls[0].ID == a.Calls[0].ID {
		t.Errorf("the seed should change generated ids")
	}
	if !strings.HasPrefix(a.Calls[0].ID, "call_") {
		t.Errorf("generated id %q", a.Calls[0].ID)
	}
}

func TestEmptyResultHasNonNilSlices(t *testing.T) {
	res := Scan("Just prose, no calls.", DefaultOptions())
	data, _ := json.Marshal(res)
	if string(data) != `{"calls":[],"problems":[]}` {
		t.Errorf("got %s", data)
	}
}

func TestIgnoredRegions(t *testing.T) {
	in := "<think>x</think>\n```go\nfunc main() {}\n```\nFor example:\n<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>"
	res := Scan(in, DefaultOptions())
	var reasons []string
	for _, ig := range res.Ignored {
		reasons = append(reasons, ig.Reason)
	}
	if strings.Join(reasons, ",") != "reasoning,code,example" {
		t.Errorf("ignored: %+v", res.Ignored)
	}
}

func TestProblemsAreCapped(t *testing.T) {
	in := strings.Repeat("<tool_call>{\"arguments\":{}}</tool_call>\n", 150)
	res := Scan(in, DefaultOptions())
	if len(res.Problems) != maxProblems+1 {
		t.Fatalf("got %d problems", len(res.Problems))
	}
	if !strings.Contains(res.Problems[maxProblems].Message, "86 more") {
		t.Errorf("last problem: %q", res.Problems[maxProblems].Message)
	}
}

// At most 64 calls of a message become cards; one problem card says how
// many more there were, and tells the model.
func TestCallsAreCapped(t *testing.T) {
	in := strings.Repeat("<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>\n", 200)
	res := Scan(in, DefaultOptions())
	if len(res.Calls) != maxCalls || len(res.Problems) != 1 {
		t.Fatalf("got %d calls and %d problems", len(res.Calls), len(res.Problems))
	}
	p := res.Problems[0]
	if !strings.Contains(p.Message, "136 more tool calls") || p.Kind != "limit" || p.ID == "" {
		t.Errorf("the limit card: %+v", p)
	}
	// Far past the cap the scanner only counts: still exact.
	res = Scan(strings.Repeat("<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>\n", 5000), DefaultOptions())
	if len(res.Calls) != maxCalls || !strings.Contains(res.Problems[0].Message, "4936 more") {
		t.Errorf("5000 calls: %d cards, %q", len(res.Calls), res.Problems[0].Message)
	}
}

// No hostile input makes more than 64 cards and 66 problem cards.
func TestHostileInputsAreBounded(t *testing.T) {
	for _, kind := range adversarialKinds {
		in := adversarial(kind, 1)
		in = strings.Repeat(in, (256<<10)/len(in)+1)
		res := Scan(in, Options{Paradigm: "auto"})
		if len(res.Calls) > maxCalls || len(res.Problems) > maxProblems+2 {
			t.Errorf("%s: %d calls, %d problems", kind, len(res.Calls), len(res.Problems))
		}
	}
}

func TestParadigmParseIsOwnFormatOnly(t *testing.T) {
	j, _ := Get("json")
	if n := len(j.Parse(`<tool_call>{"name":"a","arguments":{}}</tool_call>`).Calls); n != 0 {
		t.Errorf("json Parse read a hermes call")
	}
	x, _ := Get("xml")
	if n := len(x.Parse(`<tool_call>{"name":"a","arguments":{}}</tool_call>`).Calls); n != 1 {
		t.Errorf("xml Parse should read the hermes spelling")
	}
	if len(All()) != 3 || All()[0].ID() != "json" || All()[1].ID() != "xml" || All()[2].ID() != "vcp" {
		t.Errorf("All() order")
	}
	if _, ok := Get("nope"); ok {
		t.Errorf("Get(nope)")
	}
}

// Every documented format example must scan to exactly one call of its
// own family. (CWM's calls take one argument, always named "command".)
func TestFormatExamples(t *testing.T) {
	for _, f := range Formats() {
		res := Scan(f.Example, Options{Paradigm: "auto"})
		want := `{"path":"notes.md"}`
		if f.ID == FormatCWM {
			want = `{"command":"notes.md"}`
		}
		if len(res.Calls) != 1 || res.Calls[0].Name != "read_file" || !sameJSON(string(res.Calls[0].Arguments), want) {
			t.Errorf("%s: %+v %+v", f.ID, res.Calls, res.Problems)
			continue
		}
		if res.Calls[0].Format != f.ID {
			t.Errorf("%s: format %q", f.ID, res.Calls[0].Format)
		}
	}
}
