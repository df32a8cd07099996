package engine

import (
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/tools"
)

// A native call's problem card carries its sentence coded for the UI's
// language (issue 30 item 7); Problem stays the English the model reads.
func TestNativeProblemCardsAreCoded(t *testing.T) {
	box, err := tools.NewToolbox(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	calls := fromNative([]llm.ToolCall{
		{ID: "a", Name: "calculator", Arguments: `{"expression":"1+`, Incomplete: true},
		{ID: "b", Name: "calculator", Arguments: `{"expression":`},
		{ID: "c", Name: "", Arguments: `{}`},
		{ID: "d", Name: "no_such_tool", Arguments: `{}`},
		{ID: "e", Name: "calculate", Arguments: `{}`},
	}, box, true)
	want := []string{"problem_native_cut_off", "problem_native_bad_json", "problem_no_tool_name", "unknown_tool", "argument_error", "problem_native_dropped"}
	if len(calls) != len(want) {
		t.Fatalf("%d cards", len(calls))
	}
	for i, c := range calls {
		if c.State != chat.CallProblem || c.ProblemText == nil || c.ProblemText.English != c.Problem {
			t.Fatalf("card %d: %+v", i, c)
		}
		if got := c.ProblemText.Code; got != want[i] && !(want[i] == "unknown_tool" && got == "unknown_tool_suggest") &&
			!(want[i] == "argument_error" && got == "argument_error_hint") {
			t.Errorf("card %d: code %s, want %s (%s)", i, got, want[i], c.Problem)
		}
	}
	many := make([]chat.Call, MaxCallsPerAnswer+2)
	capped := capCalls(many)
	if last := capped[len(capped)-1]; last.ProblemText == nil || last.ProblemText.Code != "problem_too_many_calls" || last.ProblemText.English != last.Problem {
		t.Fatalf("cap card: %+v", last)
	}
}
