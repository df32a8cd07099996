package paradigm

import (
	"airlock/backend/chat"
	"errors"
	"fmt"
	"os"
	"testing"
)

// Problem cards are coded for the UI's language (issue 30 item 7): the
// parser's English stays what the model reads, the card renders the code.
func TestProblemTextsCodeTheParsersSentences(t *testing.T) {
	reg := testRegistry(t)
	cases := []struct{ in, code string }{
		{"```json\n{\"name\": \"read_fil\", \"arguments\": {\"path\": \"a\"}}\n```", "unknown_tool_suggest"},
		{"```json\n{\"name\": \"read_file\", \"arguments\": {\"limit\": 3}}\n```", "argument_error_hint"},
		{"```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\", \"mode\": 1}}\n```", "argument_error_hint"},
		{"<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a", "problem_cut_off"},
		{"<tool_call>\n{\"name\": \"\", \"arguments\": {\"path\": \"a\"}}\n</tool_call>", "problem_no_tool_name"},
		{"```json\n{\"name\": \"read_file\", \"arguments\": \"oops\"}\n```", "problem_args_string_not_object"},
		{"<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\",}}}\n</tool_call>", ""},
	}
	for _, c := range cases {
		res := Scan(c.in, Options{Paradigm: "auto", RecognizeOthers: true, Registry: reg})
		if len(res.Problems) == 0 {
			if c.code != "" {
				t.Errorf("%q: no problem", c.in)
			}
			continue
		}
		p := res.Problems[0]
		if p.Text == nil {
			t.Errorf("%q: problem %q has no code", c.in, p.Message)
			continue
		}
		if c.code != "" && p.Text.Code != c.code {
			t.Errorf("%q: code %q, want %q (%s)", c.in, p.Text.Code, c.code, p.Message)
		}
		if p.Text.English != p.Message {
			t.Errorf("the model's English changed: %q vs %q", p.Text.English, p.Message)
		}
	}
}

// The templates are the parsers' sentences word for word: each sentence a
// parser builds from its parts is matched back to its code.
func TestProblemTemplatesMatchTheBuiltSentences(t *testing.T) {
	for msg, code := range map[string]string{
		msgCutOff:                                          "problem_cut_off",
		cutOffMsg("read_file", "inside a value"):           "problem_cut_off_in_value",
		cutOffMsg("read_file", "inside its arguments"):     "problem_cut_off_in_arguments",
		cutOffMsg("f", "right after the name of the tool"): "problem_cut_off_after_name",
		badJSON(errors.New("json: unexpected end")):        "problem_bad_json",
	} {
		tx := problemText(msg, nil)
		if tx == nil || tx.Code != code || tx.English != msg {
			t.Errorf("%q → %+v, want %s", msg, tx, code)
		}
	}
	if tx := problemText("Something no template says.", nil); tx != nil {
		t.Fatalf("coded an unknown sentence: %+v", tx)
	}
}

// problemsSeen counts, over the scan tests, the problems written and the
// ones coded (TestMain checks them after the run).
var problemsSeen struct {
	all, coded int
	uncoded    map[string]bool
}

func noteProblemText(p chat.Problem) {
	problemsSeen.all++
	if p.Text != nil && p.Text.Code != "" && p.Text.English == p.Message {
		problemsSeen.coded++
		return
	}
	if problemsSeen.uncoded == nil {
		problemsSeen.uncoded = map[string]bool{}
	}
	problemsSeen.uncoded[p.Message] = true
}

func TestMain(m *testing.M) {
	code := m.Run()
	if problemsSeen.all > 0 {
		fmt.Printf("problem cards coded: %d of %d\n", problemsSeen.coded, problemsSeen.all)
		for msg := range problemsSeen.uncoded { // a new sentence: add its template to problemTemplates (texts.go)
			fmt.Println("FAIL: a problem card's sentence has no code (add it to problemTemplates in texts.go):", msg)
			if code == 0 {
				code = 1
			}
		}
	}
	os.Exit(code)
}
