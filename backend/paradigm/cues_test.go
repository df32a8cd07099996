package paradigm

import (
	"strings"
	"testing"
)

const hermesCall = `<tool_call>{"name":"read_file","arguments":{"path":"x"}}</tool_call>`

// What the prose around a call says about it.
func TestCues(t *testing.T) {
	x := []call{{"read_file", `{"path":"x"}`, "hermes"}}
	runCases(t, []scanCase{
		{name: "a URL with example.com is not a cue", in: "See https://example.com/docs:\n" + hermesCall, want: x},
		{name: "counterexample is not a cue", in: "A counterexample shows it fails. Let me check:\n" + hermesCall, want: x},
		{name: "a format description", in: "In this format a call looks like:\n" + hermesCall, want: nil},
		{name: "a heading two lines up", in: "## Call syntax\n\nThe model writes:\n\n" + hermesCall, want: nil},
		{name: "a refusal on the line", in: "I won't run " + hermesCall + " because it deletes files.", want: nil},
		{name: "a refusal with a curly apostrophe", in: "I can’t call " + hermesCall + " for you.", want: nil},
		{name: "a refusal earlier is not a cue", in: "I can't do that. But this I can:\n" + hermesCall, want: x},
		{name: "a quoted result", in: "The API returned:\n" + hermesCall, want: nil},
		{name: "a blockquote", in: "You wrote:\n\n> " + hermesCall + "\n\nShould I run it?", want: nil},
		{name: "inside a string literal of code", in: "text = '" + hermesCall + "'", want: nil},
		{name: "an apostrophe in prose is not a string", in: "I'll read it: " + hermesCall, want: x},
		{name: "a fence in a blockquote", in: "> ```\n> " + hermesCall + "\n> ```", want: nil},
	})
}

// Reasoning in the spellings added with the parser registry.
func TestMoreReasoningSpellings(t *testing.T) {
	runCases(t, []scanCase{
		{name: "thought", in: "<thought>" + hermesCall + "</thought>", want: nil},
		{name: "kimi", in: "◁think▷" + hermesCall + "◁/think▷Done.", want: nil},
		{name: "kimi orphan closer", in: hermesCall + "◁/think▷Done.", want: nil},
		{name: "gemma 4 thought channel", in: "<|channel>thought\n" + hermesCall + "<channel|>Done.", want: nil},
		{name: "namespaced think", in: "<mm:think>" + hermesCall + "</mm:think>", want: nil},
		{name: "begin_of_thought", in: "<|begin_of_thought|>" + hermesCall + "<|end_of_thought|>", want: nil},
		{name: "a section token ends unclosed reasoning",
			in:   "<think>Let me read it.<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"x\"}<|tool_call_end|><|tool_calls_section_end|>",
			want: []call{{"read_file", `{"path":"x"}`, "kimi"}}},
		{name: "a tag does not end unclosed reasoning", in: "<think>Let me read it." + hermesCall, want: nil},
	})
}

// Problem cards keep the arguments they could read, and say what is wrong.
func TestProblemKinds(t *testing.T) {
	reg := testRegistry(t)
	res := Scan(`<tool_call>{"name":"nope","arguments":{"k":1}}</tool_call>`+"\n"+
		`<tool_call>{"name":"read_file","arguments":{"limit":"5"}}</tool_call>`+"\n"+
		`<tool_call>{"name":"read_file","arguments":{"path":</tool_call>`, Options{Paradigm: "auto", Registry: reg})
	if len(res.Problems) != 3 {
		t.Fatalf("problems: %+v", res.Problems)
	}
	for i, want := range []struct{ kind, args string }{{"unknown_tool", `{"k":1}`}, {"arguments", `{"limit":5}`}, {"syntax", ``}} {
		p := res.Problems[i]
		if p.Kind != want.kind || string(p.Arguments) != want.args {
			t.Errorf("problem %d: kind %q arguments %s, want %q %s", i, p.Kind, p.Arguments, want.kind, want.args)
		}
	}
}

// A call forms while the message streams once it has settled, and is the
// call of the whole message.
func TestStreamForms(t *testing.T) {
	text := "First:\n" + hermesCall + "\nThen:\n" + strings.Replace(hermesCall, `"x"`, `"y"`, 1) + "\nDone.\n"
	st := NewStream(Options{Paradigm: "auto"})
	var formed []int
	for i := 0; i < len(text); i += 7 {
		st.Write(text[i:min(i+7, len(text))])
		formed = append(formed, len(st.Forming()))
	}
	if formed[0] != 0 || formed[len(formed)-1] != 2 {
		t.Errorf("forming counts %v", formed)
	}
	for i := 1; i < len(formed); i++ {
		if formed[i] < formed[i-1] {
			t.Errorf("a formed call went away: %v", formed)
		}
	}
	res := st.Result()
	if whole := Scan(text, Options{Paradigm: "auto"}); len(res.Calls) != 2 || string(res.Calls[1].Arguments) != string(whole.Calls[1].Arguments) {
		t.Errorf("result %+v", res.Calls)
	}
	// An unclosed value may still grow: it never forms, it is being written.
	st = NewStream(Options{Paradigm: "auto"})
	st.Write("<tool_call>\n<function=write_file>\n<parameter=content>\nhello\n\n\n")
	if n := len(st.Forming()); n != 0 {
		t.Errorf("an unclosed call formed")
	}
	if w, ok := st.Writing(); !ok || w.Name != "write_file" || w.Format == "" {
		t.Errorf("the call being written: %+v %v", w, ok)
	}
}

// The call being written is known from its opener on, with its name once it
// can be read, in every paradigm; a finished one is no longer "being written".
func TestStreamWriting(t *testing.T) {
	for _, tc := range []struct{ paradigm, text, name string }{
		{"json", "Sure.\n```json\n{\"tool_calls\":[{\"name\":\"calculate\",\"arguments\":{\"expression\":\"1+", "calculate"},
		{"auto", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par", "get_weather"},
		{"vcp", "<<<[TOOL_REQUEST]>>>\ntool_name:「始」calculate「末」,\nexpression:「始」1+", "calculate"},
		{"auto", "<tool_call>\n{\"na", ""},
	} {
		st := NewStream(Options{Paradigm: tc.paradigm, RecognizeOthers: true})
		st.Write(tc.text)
		st.Forming()
		w, ok := st.Writing()
		if !ok || w.Name != tc.name || !strings.HasSuffix(tc.text, w.Raw) {
			t.Errorf("%s %q: %+v %v", tc.paradigm, tc.text, w, ok)
		}
	}
	st := NewStream(Options{Paradigm: "auto"})
	st.Write("Hello, no call here.\n")
	st.Forming()
	if w, ok := st.Writing(); ok {
		t.Errorf("plain text is not a call being written: %+v", w)
	}
}
