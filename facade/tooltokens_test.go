package facade

import (
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"

	"airlock/backend/engine/fit"
	"airlock/backend/paradigm"
)

// The tool checklist's costs are cl100k counts (the tokenizer the engine
// fits requests with), not a length over four: each tool's is the count of
// its name, description and parameters, and the total the count of the
// call-format instructions for the tools offered.
func TestChecklistTokensAreCl100kCounts(t *testing.T) {
	a := testApp(t)
	c, err := a.CreateChatWith("")
	if err != nil {
		t.Fatal(err)
	}
	ct, err := a.ChatTools(c.ID)
	if err != nil || len(ct.Tools) == 0 {
		t.Fatalf("checklist: %+v, %v", ct, err)
	}
	enc := codec.NewCl100kBase()
	differs := false
	for _, tl := range ct.Tools {
		text := tl.Name + "\n" + tl.Description + "\n" + string(tl.Parameters)
		if len(text) > fit.MaxExact {
			continue // counted from a sample, scaled
		}
		want, err := enc.Count(text)
		if err != nil {
			t.Fatal(err)
		}
		if tl.Tokens != want {
			t.Errorf("%s costs %d tokens in the checklist, cl100k counts %d", tl.Name, tl.Tokens, want)
		}
		if want != (len(text)+3)/4 {
			differs = true
		}
	}
	if !differs {
		t.Error("every count equals a length over four: the tokenizer is not in use")
	}
	var specsOn []string
	for _, tl := range ct.Tools {
		if tl.On {
			specsOn = append(specsOn, tl.Name)
		}
	}
	par, _ := paradigm.Get(c.Paradigm)
	box := a.tools.All().Only(specsOn)
	want, _ := enc.Count(par.Prompt(box.Specs()))
	if ct.Tokens < want*85/100 || ct.Tokens > want*115/100 {
		t.Errorf("total %d tokens, cl100k counts %d for the instructions", ct.Tokens, want)
	}
	for _, tl := range a.AgentToolList() {
		if tl.Tokens <= 0 {
			t.Errorf("agent list: %s costs %d", tl.Name, tl.Tokens)
		}
	}
}
