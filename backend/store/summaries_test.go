package store

import (
	"context"
	"errors"
	"testing"

	"airlock/backend/chat"
)

func TestSummariesVersionsUndoAndCompaction(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	c, _ := s.CreateChat(ctx, "t")
	m1, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "hello"})
	m2, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "hi"})
	if _, err := s.AddSummary(ctx, chat.Summary{ChatID: c.ID, ThroughID: "nope", Covered: 1, Content: "x"}); !errors.Is(err, chat.ErrNotFound) {
		t.Fatalf("a summary through an unknown message: %v", err)
	}
	a, err := s.AddSummary(ctx, chat.Summary{ChatID: c.ID, ThroughID: m1.ID, Covered: 1, Content: "the user said hello"})
	if err != nil || a.Version != 1 || a.State != chat.SummaryActive {
		t.Fatalf("%+v %v", a, err)
	}
	b, err := s.AddSummary(ctx, chat.Summary{ChatID: c.ID, ThroughID: m2.ID, Covered: 2, Content: "greetings"})
	if err != nil || b.Version != 2 {
		t.Fatalf("%+v %v", b, err)
	}
	all, _ := s.ListSummaries(ctx, c.ID)
	if len(all) != 2 || all[0].State != chat.SummaryReplaced || all[1].State != chat.SummaryActive || all[1].Content != "greetings" {
		t.Fatalf("%+v", all)
	}
	if u, err := s.UndoSummary(ctx, b.ID); err != nil || u.State != chat.SummaryUndone {
		t.Fatalf("%+v %v", u, err)
	}
	// The messages are untouched.
	msgs, _ := s.ListMessages(ctx, c.ID)
	if len(msgs) != 2 || msgs[0].Content != "hello" {
		t.Fatalf("%+v", msgs)
	}
	if m, _ := s.GetCompaction(ctx, c.ID); m != chat.CompactAuto {
		t.Fatalf("default %q", m)
	}
	if err := s.SetCompaction(ctx, c.ID, chat.CompactAsk); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCompaction(ctx, c.ID, "sometimes"); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("a bad mode: %v", err)
	}
	if m, _ := s.GetCompaction(ctx, c.ID); m != chat.CompactAsk {
		t.Fatalf("stored %q", m)
	}
	if err := s.DeleteChat(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if all, _ := s.ListSummaries(ctx, c.ID); len(all) != 0 {
		t.Fatal("a deleted chat's summaries stayed")
	}
}
