package engine

import (
	"context"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// cutModel answers with text the token budget cut off.
type cutModel struct{}

func (cutModel) Stream(ctx context.Context, req llm.Request, on func(llm.Delta)) (llm.Result, error) {
	on(llm.Delta{Text: "The first half of a long ans"})
	return llm.Result{FinishReason: llm.FinishLength}, nil
}

// TestCutOffAnswer: an answer stopped by its budget is complete, kept, and
// says it was cut (the UI offers Continue); a finished one says nothing.
func TestCutOffAnswer(t *testing.T) {
	eng, st, ev, c := setup(t, cutModel{}, nil)
	msgs, err := eng.Send(context.Background(), c.ID, "Write a long essay")
	if err != nil {
		t.Fatal(err)
	}
	end := waitEnd(t, ev)
	if end.Message.Status != chat.StatusComplete || end.Message.ErrorCode != chat.CodeCutOff || end.Message.ErrorMessage == "" {
		t.Fatalf("end: %+v", end.Message)
	}
	if stored, _ := st.GetMessage(context.Background(), msgs[1].ID); stored.ErrorCode != chat.CodeCutOff {
		t.Fatalf("stored: %+v", stored)
	}

	eng2, _, ev2, c2 := setup(t, &fakeModel{deltas: []llm.Delta{{Text: "Done."}}}, nil)
	if _, err := eng2.Send(context.Background(), c2.ID, "hi"); err != nil {
		t.Fatal(err)
	}
	if end := waitEnd(t, ev2); end.Message.ErrorCode != "" {
		t.Fatalf("a finished answer marked: %+v", end.Message)
	}
}
