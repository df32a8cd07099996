package store

import (
	"context"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/uitext"
)

var tplTestProblem = uitext.Define("test_store_problem", "There is no tool named {{name}}.")

// A problem card's coded sentence survives a reload (kept in result_text,
// no column of its own); once told to the model, the result is the problem
// and both read back coded. A card that ran after a fix keeps its result's.
func TestProblemCardKeepsItsCodedSentence(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "t")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "calls"})
	tx := tplTestProblem.With("name", `"x"`)
	added, err := s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: m.ID, Name: "x", State: chat.CallProblem,
		Problem: tx.English, ProblemText: tx.Ptr()}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.GetCall(ctx, added[0].ID)
	if err != nil || got.ProblemText == nil || got.ProblemText.Code != "test_store_problem" || got.ProblemText.Params["name"] != `"x"` || got.ResultText != nil {
		t.Fatalf("unsettled: %+v / %+v (%v)", got.ProblemText, got.ResultText, err)
	}
	got.Result, got.ResultText, got.ResultState = got.Problem, got.ProblemText, chat.ToolError
	if err := s.UpdateCall(ctx, got); err != nil {
		t.Fatal(err)
	}
	told, _ := s.GetCall(ctx, got.ID)
	if told.ProblemText == nil || told.ResultText == nil || told.ResultText.Code != "test_store_problem" {
		t.Fatalf("told: %+v / %+v", told.ProblemText, told.ResultText)
	}
	ran := told
	ran.State, ran.ResultText = chat.CallError, nil
	if err := s.UpdateCall(ctx, ran); err != nil {
		t.Fatal(err)
	}
	if after, _ := s.GetCall(ctx, got.ID); after.ResultText != nil || after.ProblemText != nil {
		t.Fatalf("a card that is no longer a problem: %+v / %+v", after.ResultText, after.ProblemText)
	}
}
