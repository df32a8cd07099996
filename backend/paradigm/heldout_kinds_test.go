package paradigm_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"airlock/backend/paradigm"
	"airlock/backend/tools"
)

// Kinds of output the issue-28 held-out sets (issues_2026*.jsonl) showed
// read wrongly, each checked in several shapes, whole and fed in two chunks
// at every split.

type kindCase struct {
	name, par, text string
	calls           []string // "name {args-json}"; args compared as JSON
	problems        int
	tools           []string // the chat's tools (any arguments); none: no registry
}

func checkKinds(t *testing.T, cases []kindCase) {
	t.Helper()
	for _, c := range cases {
		opts := paradigm.Options{Paradigm: c.par}
		if c.par == "" {
			opts.Paradigm = "auto"
		}
		if len(c.tools) > 0 {
			var specs []tools.Spec
			for _, n := range c.tools {
				specs = append(specs, tools.Spec{Name: n, Description: n})
			}
			reg, err := tools.NewRegistry(specs)
			if err != nil {
				t.Fatal(err)
			}
			opts.Registry = reg
		}
		whole := paradigm.Scan(c.text, opts)
		if len(whole.Calls) != len(c.calls) || len(whole.Problems) != c.problems {
			t.Errorf("%s: %d calls %v, %d problems %+v; want %d calls, %d problems", c.name, len(whole.Calls), names(whole), len(whole.Problems), whole.Problems, len(c.calls), c.problems)
			continue
		}
		for i, w := range c.calls {
			var name string
			var args any
			for k := 0; k < len(w); k++ {
				if w[k] == ' ' && k+1 < len(w) && w[k+1] == '{' { // names may have spaces
					name = w[:k]
					if err := json.Unmarshal([]byte(w[k+1:]), &args); err != nil {
						t.Fatalf("%s: bad want %q", c.name, w)
					}
					break
				}
			}
			var got any
			_ = json.Unmarshal(whole.Calls[i].Arguments, &got)
			if whole.Calls[i].Name != name || !reflect.DeepEqual(got, args) {
				t.Errorf("%s: call %d is %s %s, want %s", c.name, i, whole.Calls[i].Name, whole.Calls[i].Arguments, w)
			}
		}
		for k := 0; k <= len(c.text); k++ {
			st := paradigm.NewStream(opts)
			st.Write(c.text[:k])
			forming := st.Forming()
			st.Write(c.text[k:])
			got := st.Result()
			if !reflect.DeepEqual(got.Calls, whole.Calls) || !reflect.DeepEqual(got.Problems, whole.Problems) {
				t.Errorf("%s: split at %d gives another result than the whole message", c.name, k)
				break
			}
			if len(forming) > len(whole.Calls) {
				t.Errorf("%s: split at %d formed %d calls, the whole message has %d", c.name, k, len(forming), len(whole.Calls))
				break
			}
		}
	}
}

func names(r paradigm.Result) []string {
	var out []string
	for _, c := range r.Calls {
		out = append(out, c.Name)
	}
	return out
}

// A block handed to the person to do themselves ("Here's how you can do
// it:") is shown, not made, in every family; a call the model makes so the
// person can see something is still a call.
func TestUserHandedBlockIsNoCall(t *testing.T) {
	jsonFence := "```json\n{\"name\": \"list_dir\", \"arguments\": {\"path\": \"/src\"}}\n```"
	envelope := "```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"list_dir\",\"arguments\":{\"path\":\"/src\"}}]}\n```"
	hermes := "<tool_call>\n{\"name\": \"list_dir\", \"arguments\": {\"path\": \"/src\"}}\n</tool_call>"
	qwen := "<tool_call>\n<function=list_dir>\n<parameter=path>\n/src\n</parameter>\n</function>\n</tool_call>"
	want := []string{`list_dir {"path":"/src"}`}
	checkKinds(t, []kindCase{
		{name: "json fence after here's how you can do it", text: "To list it, use the `list_dir` tool.\n\nHere's how you can do it:\n\n" + jsonFence + "\n\nThis gives a tree.", calls: nil},
		{name: "json paradigm envelope after you could run", par: "json", text: "You could run:\n" + envelope, calls: nil},
		{name: "hermes after how you'd call it", text: "This is how you’d call it:\n" + hermes, calls: nil},
		{name: "qwen3coder after you can use", text: "You can use the following:\n\n" + qwen, calls: nil},
		{name: "so you can see is the model's own call", text: "Let me list the files so you can see them:\n\n" + jsonFence, calls: want},
		{name: "json paradigm: so that you can use", par: "json", text: "I'll list it so that you can use the paths:\n" + envelope, calls: want},
		{name: "an earlier sentence does not count", text: "You can use any path. Let me list /src first:\n" + hermes, calls: want},
		{name: "you can pick is not a cue", text: "I'll list the files and you can pick one:\n" + qwen, calls: want},
	})
}

// A GLM call whose first <arg_key> was lost (vLLM PR 47190): the key
// stands after a blank, or glued to the name, where only a tool of the
// chat's tells them apart; without one it is a problem card, never a call
// under a wrong name.
func TestGLMLostKeyOpener(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "a blank parts name and key", text: "<tool_call>browser_action task</arg_key><arg_value>open it</arg_value></tool_call>",
			calls: []string{`browser_action {"task":"open it"}`}},
		{name: "a line break parts them", text: "<tool_call>read_file\npath</arg_key>\n<arg_value>a.md</arg_value>\n</tool_call>",
			calls: []string{`read_file {"path":"a.md"}`}},
		{name: "glued to a known tool", text: "<tool_call>grep_toolpattern</arg_key><arg_value>needle</arg_value><arg_key>path</arg_key><arg_value>src</arg_value></tool_call>",
			tools: []string{"grep", "grep_tool"}, calls: []string{`grep_tool {"pattern":"needle","path":"src"}`}},
		{name: "glued, the longest known tool wins", text: "<tool_call>send_command_to_shellcommand</arg_key><arg_value>echo test</arg_value></tool_call>",
			tools: []string{"send", "send_command_to_shell"}, calls: []string{`send_command_to_shell {"command":"echo test"}`}},
		{name: "glued, no registry: a problem card", text: "<tool_call>grep_toolpattern</arg_key><arg_value>needle</arg_value></tool_call>",
			problems: 1},
		{name: "glued, no known prefix: a problem card", text: "<tool_call>grep_toolpattern</arg_key><arg_value>needle</arg_value></tool_call>",
			tools: []string{"search"}, problems: 1},
		{name: "cut off after the lost key", text: "<tool_call>browser_action task</arg_key><arg_value>open", problems: 1},
	})
}

// A Cline XML value the model wrote XML-escaped throughout is decoded; a
// value with a raw '<', '>' or lone '&' keeps its entities as text, and
// other families' values are never decoded.
func TestClineXMLEscapedValue(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "a redirect", text: "<execute_command>\n  <command>cat ci.yml 2&gt;/dev/null || echo \"none\"</command>\n</execute_command>",
			calls: []string{`execute_command {"command":"cat ci.yml 2>/dev/null || echo \"none\""}`}},
		{name: "ands and a character reference", text: "<execute_command>\n<command>make &amp;&amp; echo &#39;ok&#x27; &lt; in</command>\n</execute_command>",
			calls: []string{`execute_command {"command":"make && echo 'ok' < in"}`}},
		{name: "file content escaped throughout", text: "<write_to_file>\n<path>a.go</path>\n<content>\nif a &lt; b &amp;&amp; c {\n}\n</content>\n</write_to_file>",
			calls: []string{`write_to_file {"path":"a.go","content":"if a < b && c {\n}"}`}},
		{name: "markup with an entity keeps it", text: "<write_to_file>\n<path>a.html</path>\n<content>\n<p>1 &lt; 2</p>\n</content>\n</write_to_file>",
			calls: []string{`write_to_file {"path":"a.html","content":"<p>1 &lt; 2</p>"}`}},
		{name: "a lone ampersand keeps the entities", text: "<execute_command>\n<command>echo 'R&D' &gt; x</command>\n</execute_command>",
			calls: []string{`execute_command {"command":"echo 'R&D' &gt; x"}`}},
		{name: "an unknown entity keeps them", text: "<execute_command>\n<command>echo &nbsp; &gt; x</command>\n</execute_command>",
			calls: []string{`execute_command {"command":"echo &nbsp; &gt; x"}`}},
		{name: "GLM values are raw text", text: "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls 2&gt;/dev/null</arg_value>\n</tool_call>",
			calls: []string{`bash {"command":"ls 2&gt;/dev/null"}`}},
	})
}

// [TOOL_CALL] blocks with Perl-style arrows (MiniMax M2.x through
// gateways; hermes-agent issues 11994 and 35935) are calls, in the argument
// spellings parsers of the format accept; a cut block never runs.
func TestArrowCall(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "flags on their own lines", text: "[TOOL_CALL]\n{tool => \"terminal\", args => {\n  --command \"echo test\"\n}}\n[/TOOL_CALL]",
			calls: []string{`terminal {"command":"echo test"}`}},
		{name: "one line, flag with a colon", text: "Searching.\n[TOOL_CALL]{tool => \"searchFiles\" args => { --pattern: \"**/*.ts\" }}[/TOOL_CALL]",
			calls: []string{`searchFiles {"pattern":"**/*.ts"}`}},
		{name: "JSON arguments", text: "[TOOL_CALL]{tool => \"web_search\", args => {\"query\":\"NET stock price\"}}[/TOOL_CALL]",
			calls: []string{`web_search {"query":"NET stock price"}`}},
		{name: "arrow pairs, a number and a bare word", text: "[TOOL_CALL]\n{tool => \"get_memory_recall\", args => {query => \"topic\", k => 3, mode => fast\n}}\n[/TOOL_CALL]",
			calls: []string{`get_memory_recall {"query":"topic","k":3,"mode":"fast"}`}},
		{name: "no arguments", text: "[TOOL_CALL]\n{tool => \"skills_list\", args => {}}\n[/TOOL_CALL]", calls: []string{`skills_list {}`}},
		{name: "two blocks", text: "[TOOL_CALL]\n{tool => \"a_b\", args => {\n  --x \"1\"\n}}\n[/TOOL_CALL]\n[TOOL_CALL]\n{tool => \"a_b\", args => {\n  --x \"2\"\n}}\n[/TOOL_CALL]",
			calls: []string{`a_b {"x":"1"}`, `a_b {"x":"2"}`}},
		{name: "the marker named in prose", text: "MiniMax wraps calls in [TOOL_CALL] markers when it prints them.", calls: nil},
		{name: "cut inside a value", text: "[TOOL_CALL]\n{tool => \"terminal\", args => {\n  --command \"rm -rf /tmp/bu", problems: 1},
		{name: "cut after the name", text: "[TOOL_CALL]\n{tool => \"terminal\"", problems: 1},
		{name: "cut before the closing marker: repaired", text: "[TOOL_CALL]\n{tool => \"terminal\", args => {\n  --command \"ls\"\n}}\n[/TOOL_", calls: []string{`terminal {"command":"ls"}`}},
		{name: "unreadable: a problem card", text: "[TOOL_CALL]\n{tool => \"terminal\", args => {\n  --command = = \"ls\"\n}}\n[/TOOL_CALL]\nDone.", problems: 1},
	})
	r := paradigm.Scan("[TOOL_CALL]\n{tool => \"terminal\", args => {\n  --command \"ls\"\n}}", paradigm.Options{Paradigm: "auto"})
	if len(r.Calls) != 1 || !r.Calls[0].Repaired {
		t.Errorf("a block the message ended before [/TOOL_CALL] should be a repaired call: %+v", r.Calls)
	}
}

// An invoke whose tags lost their '<' and '</' (MiniMax M2.x quants, exo
// issue 1882) is read at the start of a line; cut inside a value it is a
// problem card, and in prose it is nothing.
func TestInvokeWithoutBrackets(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "every bracket lost", text: "invoke name=\"get_weather\">\nparameter name=\"location\">Parisparameter>\ninvoke>",
			calls: []string{`get_weather {"location":"Paris"}`}},
		{name: "two parameters after prose, slashes kept", text: "Let me look.\ninvoke name=\"bash\">\nparameter name=\"command\">ls -la</parameter>\nparameter name=\"timeout\">30parameter>\n</invoke>\nDone.",
			calls: []string{`bash {"command":"ls -la","timeout":"30"}`}},
		{name: "one line", text: "invoke name=\"read_file\">parameter name=\"path\">a.mdparameter>invoke>",
			calls: []string{`read_file {"path":"a.md"}`}},
		{name: "cut inside a value", text: "invoke name=\"bash\">\nparameter name=\"command\">rm -rf /tmp/bu", problems: 1},
		{name: "cut after the name", text: "invoke name=\"bash\">\n", problems: 1},
		{name: "only the invoke closer missing: repaired", text: "invoke name=\"bash\">\nparameter name=\"command\">lsparameter>\n", calls: []string{`bash {"command":"ls"}`}},
		{name: "in prose, not at a line start", text: "MiniMax writes invoke name=\"x\"> without brackets; parameter name=\"k\">vparameter> invoke>", calls: nil},
	})
	r := paradigm.Scan("invoke name=\"bash\">\nparameter name=\"command\">lsparameter>\n", paradigm.Options{Paradigm: "auto"})
	if len(r.Calls) != 1 || !r.Calls[0].Repaired {
		t.Errorf("an invoke the message ended before its closer should be a repaired call: %+v", r.Calls)
	}
}

// A list of pythonic calls in a fence (Gemma 3's ```tool_code) is read as
// calls, not handed to the JSON reader that repairs it into a list of
// strings; JSON lists in fences are read as before.
func TestPythonicListInFence(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "gemma 3 tool_code after prose", text: "The search term is \"tech experts\".\n```tool_code\n[filter_df(column_name='Division', search_terms=['tech experts'])]\n```",
			calls: []string{`filter_df {"column_name":"Division","search_terms":["tech experts"]}`}},
		{name: "double quotes, two calls", text: "```tool_code\n[a_b(x=\"1\"), a_b(x=\"2\")]\n```",
			calls: []string{`a_b {"x":"1"}`, `a_b {"x":"2"}`}},
		{name: "a bare fence", text: "```\n[get_weather(city=\"Paris\")]\n```", calls: []string{`get_weather {"city":"Paris"}`}},
		{name: "a JSON list of calls still", text: "```json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]\n```", calls: []string{`get_weather {"city":"Paris"}`}},
		{name: "a list of strings is no call", text: "```\n[\"a\", \"b\"]\n```", calls: nil},
	})
}

// Gemma 4's call:name(key: "value"), parentheses where its template has
// braces (hermes-agent issue 7457), is read like call:name{…}.
func TestGemma4Parentheses(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "quoted value", text: "<|tool_call>call:search(query: \"blockchain news\")<tool_call|>", calls: []string{`search {"query":"blockchain news"}`}},
		{name: "delimited value, a number, a list", text: "<|tool_call>call:search(query:<|\"|>a, b<|\"|>, n: 3, tags: [<|\"|>x<|\"|>, <|\"|>y)<|\"|>])<tool_call|>",
			calls: []string{`search {"query":"a, b","n":3,"tags":["x","y)"]}`}},
		{name: "no arguments", text: "<|tool_call>call:list_files()<tool_call|>", calls: []string{`list_files {}`}},
		{name: "nested braces inside parentheses", text: "<|tool_call>call:f(opts: {a: 1})<tool_call|>", calls: []string{`f {"opts":{"a":1}}`}},
		{name: "cut inside the value", text: "<|tool_call>call:search(query: \"blockch", problems: 1},
		{name: "braces as before", text: "<|tool_call>call:search{query:<|\"|>x<|\"|>}<tool_call|>", calls: []string{`search {"query":"x"}`}},
	})
}

// gpt-oss calls whose special tokens a server stripped (Rapid-MLX issue
// 480) are read from what is left: the channel, to=functions.NAME, json,
// the arguments. The same words in prose are not a call.
func TestHarmonyTokensStripped(t *testing.T) {
	w := []string{`get_weather {"city":"Paris"}`}
	checkKinds(t, []kindCase{
		{name: "all tokens stripped", text: "commentary to=functions.get_weather json{\"city\":\"Paris\"}", calls: w},
		{name: "after stripped reasoning", text: "analysisNeed the weather.assistantcommentary to=functions.get_weather json{\"city\":\"Paris\"}", calls: w},
		{name: "recipient in the header", text: "assistant to=functions.get_weather commentary json{\"city\":\"Paris\"}", calls: w},
		{name: "only <|channel|> stripped", text: "commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Paris\"}", calls: w},
		{name: "tokens kept", text: "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Paris\"}<|call|>", calls: w},
		{name: "no channel named: prose", text: "Point the route to=functions.get_weather then send {\"city\":\"Paris\"}", calls: nil},
		{name: "other words between: prose", text: "commentary to=functions.get_weather takes {\"city\":\"Paris\"}", calls: nil},
		{name: "cut inside a value", text: "commentary to=functions.get_weather json{\"city\":\"Par", problems: 1},
	})
	r := paradigm.Scan("commentary to=functions.get_weather json{\"city\":\"Paris\"", paradigm.Options{Paradigm: "auto"})
	if len(r.Calls) != 1 || !r.Calls[0].Repaired {
		t.Errorf("arguments the message ended before their brace should be a repaired call: %+v", r.Calls)
	}
}

// A call whose argument values are written as function calls
// (get_current_date ()) has no JSON reading: a problem card, never a call
// whose values a repair mangled into ")" (ollama issue 8517).
func TestValueWrittenAsCall(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "bare object after reasoning", text: "</think>\n\n{\n \"name\": \"date_difference\",\n \"parameters\": {\n  \"first\": get_current_date (),\n  \"last\": birthdate ({user: \"Oliver\"})\n }\n}", problems: 1},
		{name: "a name with a space too", text: "{\"name\": \"date_ difference\", \"parameters\": {\"first\": get_current_date ()}}", problems: 1},
		{name: "in a hermes tag", text: "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"when\": datetime.now()}}\n</tool_call>", problems: 1},
		{name: "in the json paradigm's fence", par: "json", text: "```json\n{\"tool_calls\":[{\"name\":\"f\",\"arguments\":{\"n\": len(items)}}]}\n```", problems: 1},
		{name: "parentheses inside strings are text", text: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"echo $(date) (now)\"}}\n</tool_call>", calls: []string{`bash {"command":"echo $(date) (now)"}`}},
		{name: "python literals are still repaired", text: "<tool_call>\n{'name': 'f', 'arguments': {'a': True, 'b': 'x(y)'}}\n</tool_call>", calls: []string{`f {"a":true,"b":"x(y)"}`}},
	})
}

// A call object wrapped in a second pair of braces, as models copy it
// from prompts written with format strings (Qwen issue 924), is read when
// the inner object is a call and the extra brace stands before the closer.
func TestDoubledBraces(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "qwen tool_call", text: "<tool_call>\n{{\"name\": \"ip_query\", \"arguments\": {\"input\": \"1.2.3.4\"}}}\n</tool_call>", calls: []string{`ip_query {"input":"1.2.3.4"}`}},
		{name: "xml paradigm tag", par: "xml", text: "<tool_code>{{\"name\":\"read_file\",\"arguments\":{\"path\":\"a\"}}}</tool_code>", calls: []string{`read_file {"path":"a"}`}},
		{name: "inner object not a call: a problem", text: "<tool_call>\n{{\"city\": \"Paris\"}}\n</tool_call>", problems: 1},
		{name: "more after the extra brace: a problem", text: "<tool_call>\n{{\"name\": \"f\", \"arguments\": {}}, \"x\": 1}\n</tool_call>", problems: 1},
		{name: "cut inside: a problem", text: "<tool_call>\n{{\"name\": \"f\", \"arguments\": {\"a\": \"x", problems: 1},
	})
}

// A call whose arguments are attributes after its name, inside a wrapper
// tag (<tool_call>exec command="ls" />, OpenClaw issue 33258), is read; a
// tool= attribute repeating the name is not an argument, and "/>" closes
// the call.
func TestAttributeArguments(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "self-closing after prose", text: "好的，我来排查。<tool_call>exec tool=\"exec\" command=\"ls -la /root/\" />", calls: []string{`exec {"command":"ls -la /root/"}`}},
		{name: "with the closer, single quotes", text: "<tool_call>read_file path='a b.md' limit=\"5\"</tool_call>", calls: []string{`read_file {"path":"a b.md","limit":"5"}`}},
		{name: "cut inside a value", text: "<tool_call>exec command=\"rm -rf /tmp/bu", problems: 1},
		{name: "words, not attributes", text: "<tool_call>exec now please</tool_call>", problems: 1},
	})
	opts := paradigm.Options{Paradigm: "auto"}
	if r := paradigm.Scan("<tool_call>exec command=\"ls\" />", opts); len(r.Calls) != 1 || r.Calls[0].Repaired {
		t.Errorf("a self-closed call is complete: %+v", r.Calls)
	}
	if r := paradigm.Scan("<tool_call>exec command=\"ls\"", opts); len(r.Calls) != 1 || !r.Calls[0].Repaired {
		t.Errorf("a call the message ended before its closer is repaired: %+v", r.Calls)
	}
}

// DSML written with ASCII pipes and spaces around them (< | DSML | invoke
// …>, Cherry Studio issue 14714) is the same tag; other namespaces so
// spelled stay text.
func TestDSMLSpacedPipes(t *testing.T) {
	v4 := "< | DSML | tool_calls>\n< | DSML | invoke name=\"web_search\">\n< | DSML | parameter name=\"q\" string=\"true\">DeepSeek V4</ | DSML | parameter>\n</ | DSML | invoke>\n</ | DSML | tool_calls>"
	checkKinds(t, []kindCase{
		{name: "v4 wrapper", text: "Searching.\n" + v4, calls: []string{`web_search {"q":"DeepSeek V4"}`}},
		{name: "bare invoke, JSON value, full-width pipes", text: "<｜ DSML ｜invoke name=\"f\">\n<｜ DSML ｜parameter name=\"n\" string=\"false\">3</｜ DSML ｜parameter>\n</｜ DSML ｜invoke>", calls: []string{`f {"n":3}`}},
		{name: "two calls in function_calls", text: "<| DSML |function_calls><| DSML |invoke name=\"a\"><| DSML |parameter name=\"k\" string=\"true\">1</| DSML |parameter></| DSML |invoke><| DSML |invoke name=\"b\"></| DSML |invoke></| DSML |function_calls>",
			calls: []string{`a {"k":"1"}`, `b {}`}},
		{name: "cut inside a value", text: "< | DSML | tool_calls>\n< | DSML | invoke name=\"web_search\">\n< | DSML | parameter name=\"q\" string=\"true\">Deep", problems: 1},
		{name: "another namespace stays text", text: "< | GCML | invoke name=\"f\">\n< | GCML | parameter name=\"k\" string=\"true\">v</ | GCML | parameter>\n</ | GCML | invoke>"},
		{name: "prose about the markers", text: "The model wrote < | DSML | markers in its answer."},
	})
}

// A wrapper tag that names the tool in an attribute and holds only the
// arguments (<tool_call id="c1" name="f">{…}</tool_call>, Memoh issue 435)
// is a call to that tool; a payload that is a call object keeps its own
// name.
func TestWrapperNameAttribute(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "id and name", text: "<tool_call id=\"call_00_a\" name=\"chat_history\">\n{\"chat_name\":\"Aide & GPT\",\"limit\":80}\n</tool_call>",
			calls: []string{`chat_history {"chat_name":"Aide & GPT","limit":80}`}},
		{name: "two calls with the same id", text: "<tool_call id=\"x\" name=\"a\">{\"k\":1}</tool_call>\n<tool_call id=\"x\" name=\"b\">{}</tool_call>",
			calls: []string{`a {"k":1}`, `b {}`}},
		{name: "xml paradigm tag", par: "xml", text: "<tool_code name=\"read_file\">{\"path\":\"a.md\"}</tool_code>", calls: []string{`read_file {"path":"a.md"}`}},
		{name: "payload is a call object", text: "<tool_call name=\"a\">{\"name\":\"b\",\"arguments\":{\"k\":1}}</tool_call>", calls: []string{`b {"k":1}`}},
		{name: "payload names a tool: its own name", text: "<tool_call name=\"a\">{\"name\":\"b\"}</tool_call>", calls: []string{`b {}`}},
		{name: "no name attribute: as before", text: "<tool_call id=\"c\">{\"k\":1}</tool_call>", problems: 1},
		{name: "cut inside the arguments", text: "<tool_call name=\"a\">{\"path\":\"sr", problems: 1},
	})
	opts := paradigm.Options{Paradigm: "auto"}
	if r := paradigm.Scan("<tool_call name=\"a\">{\"k\":1}", opts); len(r.Calls) != 1 || !r.Calls[0].Repaired {
		t.Errorf("a call the message ended before its closer is repaired: %+v", r.Calls)
	}
	if r := paradigm.Scan("<tool_call name=\"a\">{\"k\":1}</tool_call>", opts); len(r.Calls) != 1 || r.Calls[0].Repaired {
		t.Errorf("a closed call is complete: %+v", r.Calls)
	}
}

// A Qwen3-Coder value padded on its line (<parameter=q> v </parameter>)
// or laid out in a block indented as a whole loses that layout; a value's
// own indentation stays (Docker Model Runner issue 2263, spark-vllm-docker
// issue 196).
func TestQwen3CoderPaddedValues(t *testing.T) {
	checkKinds(t, []kindCase{
		{name: "padded on one line", text: "<function=news>\n<parameter=query> small local models </parameter>\n</function> </tool_call>", calls: []string{`news {"query":"small local models"}`}},
		{name: "a block indented as a whole", text: "<tool_call>\n <function=bash>\n <parameter=command>\n cd build && ls -la\n </parameter>\n </function>\n </tool_call>", calls: []string{`bash {"command":"cd build && ls -la"}`}},
		{name: "an indented block keeps relative indentation", text: "<tool_call>\n  <function=write>\n  <parameter=content>\n  def f():\n      return 1\n\n  x = f()\n  </parameter>\n  </function>\n</tool_call>",
			calls: []string{`write {"content":"def f():\n    return 1\n\nx = f()"}`}},
		{name: "a one-line edit keeps its indentation", text: "<tool_call>\n<function=edit>\n<parameter=new_string>    return x</parameter>\n<parameter=old_string>\n    return y\n</parameter>\n</function>\n</tool_call>",
			calls: []string{`edit {"new_string":"    return x","old_string":"    return y"}`}},
		{name: "an indented closer alone is not a block", text: "<tool_call>\n<function=edit>\n<parameter=new_string>\n    return x\n    </parameter>\n</function>\n</tool_call>",
			calls: []string{`edit {"new_string":"    return x\n    "}`}},
		{name: "a line less indented than the block keeps all", text: "<tool_call>\n  <function=w>\n  <parameter=c>\n  a\nb\n  </parameter>\n  </function>\n</tool_call>",
			calls: []string{`w {"c":"  a\nb\n  "}`}},
		{name: "blanks only", text: "<tool_call>\n<function=w>\n<parameter=c>   </parameter>\n</function>\n</tool_call>", calls: []string{`w {"c":"   "}`}},
		{name: "cut inside a padded value", text: "<tool_call>\n<function=w>\n<parameter=c> abc", problems: 1},
	})
}

// A harmony recipient whose name has a space ("Web Search", an LM Studio
// plugin's, LM Studio issue 876) is read whole when it is a tool of the
// chat's; otherwise the first word stays the name, as before.
func TestHarmonySpacedRecipient(t *testing.T) {
	args := "<|message|>{\"query\": \"x\"}<|call|>"
	checkKinds(t, []kindCase{
		{name: "before <|constrain|>", text: "<|start|>assistant<|channel|>commentary to=functions.Web Search <|constrain|>json" + args,
			tools: []string{"Web Search"}, calls: []string{`Web Search {"query":"x"}`}},
		{name: "before json, no constrain", text: "<|channel|>commentary to=functions.Web Search json" + args,
			tools: []string{"Web Search", "Web"}, calls: []string{`Web Search {"query":"x"}`}},
		{name: "recipient before the channel", text: "<|start|>assistant to=functions.Deep Web Search<|channel|>commentary json" + args,
			tools: []string{"Deep Web Search"}, calls: []string{`Deep Web Search {"query":"x"}`}},
		{name: "not a tool of the chat's: the first word", text: "<|channel|>commentary to=functions.Web Search <|constrain|>json" + args,
			tools: []string{"Web"}, calls: []string{`Web {"query":"x"}`}},
		{name: "no registry: the first word", text: "<|channel|>commentary to=functions.Web Search <|constrain|>json" + args,
			calls: []string{`Web {"query":"x"}`}},
		{name: "a one-word name is unchanged", text: "<|channel|>commentary to=functions.search json" + args,
			tools: []string{"search", "search json"}, calls: []string{`search {"query":"x"}`}},
	})
}

// A GLM call whose <tool_call> and </tool_call> a server stripped (mlx-lm
// issue 607) is read when its first line is only the name of a tool of the
// chat's, followed by <arg_key>/<arg_value> pairs.
func TestGLMStrippedWrapper(t *testing.T) {
	glob := "glob\n<arg_key>pattern</arg_key>\n<arg_value>**/audit.md</arg_value>"
	bash := "bash\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>"
	offered := []string{"glob", "bash"}
	checkKinds(t, []kindCase{
		{name: "the whole message", text: glob, tools: offered, calls: []string{`glob {"pattern":"**/audit.md"}`}},
		{name: "after prose, glued key", text: "Let me look.\nglob<arg_key>pattern</arg_key><arg_value>*.go</arg_value>", tools: offered, calls: []string{`glob {"pattern":"*.go"}`}},
		{name: "two calls", text: glob + "\n" + bash, tools: offered, calls: []string{`glob {"pattern":"**/audit.md"}`, `bash {"command":"ls"}`}},
		{name: "not a tool of the chat's", text: glob, tools: []string{"bash"}},
		{name: "no registry", text: glob},
		{name: "the name mid-sentence", text: "Run glob <arg_key>pattern</arg_key><arg_value>x</arg_value>", tools: offered},
		{name: "cut inside a value", text: "glob\n<arg_key>pattern</arg_key>\n<arg_value>**/aud", tools: offered, problems: 1},
	})
}
