package paradigm

import (
	"encoding/json"
	"strings"
	"testing"

	"airlock/backend/chat"
)

var roundTripCalls = []chat.ToolCall{
	{ID: "call_1", Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)},
	{ID: "call_2", Name: "write_file", Arguments: json.RawMessage(`{"path":"a \"quoted\" <b>.html","content":"line 1\nline 2 </tool_code> ` + "```" + `\n<<<[END_TOOL_REQUEST]>>>?"}`)},
	{ID: "call_3", Name: "list_dir", Arguments: json.RawMessage(`{}`)},
	{ID: "call_4", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Zürich 苏黎世","days":3,"metric":true,"tags":["a","b"]}`)},
}

// A call written the way the prompt teaches parses back to the same call.
func TestRoundTrip(t *testing.T) {
	reg := testRegistry(t)
	for _, p := range All() {
		text := "Sure, let me do that.\n\n" + p.FormatCalls(roundTripCalls) + "\n"
		for _, withReg := range []bool{false, true} {
			opts := Options{Paradigm: p.ID()}
			if withReg {
				opts.Registry = reg
			}
			res := Scan(text, opts)
			if len(res.Problems) != 0 || len(res.Calls) != len(roundTripCalls) {
				t.Fatalf("%s (registry %v): %d calls, problems %+v\n%s", p.ID(), withReg, len(res.Calls), res.Problems, text)
			}
			for i, c := range res.Calls {
				w := roundTripCalls[i]
				if c.Name != w.Name {
					t.Errorf("%s: name %q, want %q", p.ID(), c.Name, w.Name)
				}
				if p.ID() == "vcp" && !withReg {
					// VCP values are text until a registry coerces them.
					continue
				}
				if !sameJSON(string(c.Arguments), string(w.Arguments)) {
					t.Errorf("%s (registry %v): args %s, want %s", p.ID(), withReg, c.Arguments, w.Arguments)
				}
				if p.ID() != "vcp" && c.ID != w.ID {
					t.Errorf("%s: id %q, want %q", p.ID(), c.ID, w.ID)
				}
			}
		}
	}
}

// The example in each prompt is itself a call that parses.
func TestPromptExampleParses(t *testing.T) {
	specs := testSpecs(t)
	for _, p := range All() {
		prompt := p.Prompt(specs)
		k := strings.Index(prompt, "## Example\n\n")
		if k < 0 {
			t.Fatalf("%s: no example", p.ID())
		}
		res := Scan(prompt[k+len("## Example\n\n"):], Options{Paradigm: p.ID(), Registry: testRegistry(t)})
		if len(res.Calls) != 1 || res.Calls[0].Name != "read_file" || len(res.Problems) != 0 {
			t.Errorf("%s: example scanned to %+v %+v", p.ID(), res.Calls, res.Problems)
		}
	}
}

// Results never read as calls (a model echoing them must not re-run
// anything), and the prompt's own syntax lines are placeholders, not calls.
func TestResultsAreNotCalls(t *testing.T) {
	for _, p := range All() {
		res := Scan(p.FormatResults(testResults), Options{Paradigm: "auto"})
		if len(res.Calls) != 0 {
			t.Errorf("%s: results scanned as calls: %+v", p.ID(), res.Calls)
		}
	}
}

func TestProblemResult(t *testing.T) {
	res := Scan(`<tool_call>{"name": "nope", "arguments": {}}</tool_call>`, Options{Paradigm: "auto", Registry: testRegistry(t)})
	if len(res.Problems) != 1 {
		t.Fatal(res)
	}
	r := res.Problems[0].Result()
	if r.Status != chat.ToolError || r.CallID == "" || r.Name != "nope" || !strings.Contains(r.Content, "no tool named") {
		t.Errorf("%+v", r)
	}
}
