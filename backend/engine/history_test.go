package engine

import (
	"context"
	"errors"
	"testing"

	"airlock/backend/chat"
)

func TestEditAndRegenerateKeepVersions(t *testing.T) {
	ctx := context.Background()
	l := newLoop(t, "", "json", "first answer", "answer to the edit", "regenerated answer")
	l.send("original question")
	l.waitRequests(1)
	waitEnd(t, &events{ends: l.ends})

	msgs, _ := l.st.ListMessages(ctx, l.chat.ID)
	userID := msgs[0].ID
	got, err := l.eng.EditAndResend(ctx, userID, "edited question")
	if err != nil || len(got) != 2 {
		t.Fatalf("edit: %v %+v", err, got)
	}
	reqs := l.waitRequests(2)
	if n := len(reqs[1].Messages); reqs[1].Messages[n-1].Content != "edited question" {
		t.Fatalf("the model must see the edited question only: %+v", reqs[1].Messages)
	}
	for _, m := range reqs[1].Messages {
		if m.Content == "original question" || m.Content == "first answer" {
			t.Fatalf("the old version leaked into the request: %+v", reqs[1].Messages)
		}
	}
	waitEnd(t, &events{ends: l.ends})

	path, _ := l.st.ListMessages(ctx, l.chat.ID)
	if len(path) != 2 || path[0].Content != "edited question" || path[0].Versions != 2 || path[0].Version != 2 {
		t.Fatalf("path after edit: %+v", path)
	}
	regen, err := l.eng.Regenerate(ctx, path[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	end := waitEnd(t, &events{ends: l.ends})
	if end.MessageID != regen.ID || end.Message.Content != "regenerated answer" {
		t.Fatalf("regenerate: %+v", end.Message)
	}
	reqs = l.waitRequests(3)
	if n := len(reqs[2].Messages); reqs[2].Messages[n-1].Content != "edited question" {
		t.Fatalf("regenerate must ask with the path up to the question: %+v", reqs[2].Messages)
	}
	path, _ = l.st.ListMessages(ctx, l.chat.ID)
	if path[1].Content != "regenerated answer" || path[1].Versions != 2 {
		t.Fatalf("path after regenerate: %+v", path)
	}
	// Back to the first version of the question: its own answer comes with it.
	if _, err := l.eng.SwitchVersion(ctx, userID); err != nil {
		t.Fatal(err)
	}
	path, _ = l.st.ListMessages(ctx, l.chat.ID)
	if len(path) != 2 || path[0].Content != "original question" || path[1].Content != "first answer" {
		t.Fatalf("switch back: %+v", path)
	}
	if _, err := l.eng.EditAndResend(ctx, path[1].ID, "x"); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("editing an answer: %v", err)
	}
}

func TestVersionsRefusedWhileAToolRuns(t *testing.T) {
	ctx := context.Background()
	l := newLoop(t, "", "json", written(t, "json", tc("s", "sleep", `{}`)))
	l.send("sleep please")
	c := l.waitCalls("card", count(1))[0]
	if _, err := l.eng.Approve(ctx, c.ID, nil); err != nil {
		t.Fatal(err)
	}
	l.waitCalls("running", func(cs []chat.Call) bool { return cs[0].State == chat.CallRunning })
	msgs, _ := l.st.ListMessages(ctx, l.chat.ID)
	if _, err := l.eng.SwitchVersion(ctx, msgs[0].ID); !errors.Is(err, chat.ErrBusy) {
		t.Fatalf("switch while a tool runs: %v", err)
	}
	if _, err := l.eng.Regenerate(ctx, msgs[1].ID); !errors.Is(err, chat.ErrBusy) {
		t.Fatalf("regenerate while a tool runs: %v", err)
	}
	l.eng.Cancel(c.ID)
	l.waitCalls("cancelled", func(cs []chat.Call) bool { return cs[0].Settled() })
}
