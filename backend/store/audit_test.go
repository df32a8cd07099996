package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"airlock/backend/chat"
)

func TestAuditTrail(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c1, _ := s.CreateChat(ctx, "one")
	c2, _ := s.CreateChat(ctx, "two")
	add := func(chatID, tool string, d chat.AuditDecision, by string) chat.AuditEntry {
		t.Helper()
		e, err := s.AddAudit(ctx, chat.AuditEntry{ChatID: chatID, CallID: "k-" + tool, Tool: tool, Decision: d, DecidedBy: by,
			Arguments: json.RawMessage(`{"path": "a"}`)})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	first := add(c1.ID, "read_file", chat.AuditApproved, chat.ByUser)
	if first.ID == 0 || first.UID == "" || first.At == 0 || string(first.Arguments) != `{"path":"a"}` {
		t.Fatalf("AddAudit: %+v", first)
	}
	add(c1.ID, "read_file", chat.AuditRan, "rule:3")
	add(c1.ID, "write_file", chat.AuditDenied, chat.ByUser)
	add(c2.ID, "read_file", chat.AuditHeld, chat.ByLoopGuard)
	last := add(c2.ID, "echo", chat.AuditSuperseded, chat.ByNewMessage)

	page, err := s.ListAudit(ctx, AuditQuery{Limit: 2})
	if err != nil || len(page) != 2 || page[0].ID != last.ID || page[1].ID >= page[0].ID {
		t.Fatalf("newest first: %+v %v", page, err)
	}
	next, _ := s.ListAudit(ctx, AuditQuery{Limit: 2, Before: page[1].ID})
	if len(next) != 2 || next[0].ID >= page[1].ID {
		t.Fatalf("the next page: %+v", next)
	}
	for _, c := range []struct {
		q    AuditQuery
		want int
	}{
		{AuditQuery{ChatID: c1.ID}, 3},
		{AuditQuery{Tool: "read_file"}, 3},
		{AuditQuery{ChatID: c1.ID, Tool: "read_file"}, 2},
		{AuditQuery{Decision: "denied"}, 1},
		{AuditQuery{CallID: "k-echo"}, 1},
		{AuditQuery{ChatID: "nope"}, 0},
	} {
		if got, _ := s.ListAudit(ctx, c.q); len(got) != c.want {
			t.Errorf("%+v: %d rows, want %d", c.q, len(got), c.want)
		}
	}
	var order []int64
	_ = s.EachAudit(ctx, AuditQuery{}, func(e chat.AuditEntry) error { order = append(order, e.ID); return nil })
	if len(order) != 5 || order[0] != first.ID || order[4] != last.ID {
		t.Errorf("EachAudit: oldest first, all of it: %v", order)
	}

	for _, bad := range []chat.AuditEntry{
		{ChatID: c1.ID, Decision: "shrugged", DecidedBy: chat.ByUser},
		{ChatID: c1.ID, Decision: chat.AuditApproved, DecidedBy: "rule:x"},
		{ChatID: c1.ID, Decision: chat.AuditApproved, DecidedBy: "the model"},
		{Decision: chat.AuditApproved, DecidedBy: chat.ByUser},
		{ChatID: c1.ID, Decision: chat.AuditRan, DecidedBy: chat.ByUser, DurationMs: -1},
	} {
		if _, err := s.AddAudit(ctx, bad); !errors.Is(err, chat.ErrInvalid) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	// A huge argument is cut, and stays JSON.
	big, err := s.AddAudit(ctx, chat.AuditEntry{ChatID: c1.ID, Tool: "write_file", Decision: chat.AuditApproved, DecidedBy: chat.ByUser,
		Arguments: json.RawMessage(`{"path":"a","content":"` + strings.Repeat("x", 1<<20) + `"}`), Detail: strings.Repeat("é", 5000)})
	if err != nil {
		t.Fatal(err)
	}
	if len(big.Arguments) > chat.MaxAuditJSON || !json.Valid(big.Arguments) || !strings.Contains(string(big.Arguments), "bytes cut") {
		t.Errorf("bounded arguments: %d bytes, valid %v", len(big.Arguments), json.Valid(big.Arguments))
	}
	if len(big.Detail) > chat.MaxAuditDetail+4 {
		t.Errorf("detail: %d bytes", len(big.Detail))
	}
	// Rows go with their chat.
	_ = s.DeleteChat(ctx, c2.ID)
	if got, _ := s.ListAudit(ctx, AuditQuery{}); len(got) != 4 {
		t.Errorf("after deleting a chat: %d rows", len(got))
	}
}

func TestInterruptRunningCallsIsAudited(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "c")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "x"})
	calls, _ := s.AddCalls(ctx, []chat.Call{
		{ChatID: c.ID, MessageID: m.ID, Name: "sleep", Arguments: json.RawMessage(`{}`), Edited: json.RawMessage(`{"s":1}`), State: chat.CallRunning, StartedAt: 1},
		{ChatID: c.ID, MessageID: m.ID, Index: 1, Name: "echo", Arguments: json.RawMessage(`{}`), State: chat.CallPending},
	})
	if n, err := s.InterruptRunningCalls(ctx); n != 1 || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	rows, _ := s.ListAudit(ctx, AuditQuery{ChatID: c.ID})
	if len(rows) != 1 || rows[0].CallID != calls[0].ID || rows[0].Decision != chat.AuditInterrupted || rows[0].DecidedBy != chat.ByInterrupted ||
		string(rows[0].RunArguments) != `{"s":1}` || rows[0].DurationMs <= 0 {
		t.Fatalf("interrupted row: %+v", rows)
	}
}

func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.CreateChat(ctx, "c")
	_, _ = s.AddAudit(ctx, chat.AuditEntry{ChatID: c.ID, Decision: chat.AuditApproved, DecidedBy: chat.ByUser})
	s.Close()

	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if rows, err := ro.ListAudit(ctx, AuditQuery{}); err != nil || len(rows) != 1 {
		t.Fatalf("read: %+v %v", rows, err)
	}
	if _, err := ro.AddAudit(ctx, chat.AuditEntry{ChatID: c.ID, Decision: chat.AuditApproved, DecidedBy: chat.ByUser}); err == nil {
		t.Fatal("a read-only store wrote")
	}
	if _, err := OpenReadOnly(t.TempDir()); err == nil {
		t.Fatal("an empty directory has no database to read")
	}
}

// An imported chat's rows are inserted after others that happened later:
// the trail is read in time order, and pages go on in that order (issue
// 30, item 4). Before, rows came in insertion (id) order.
func TestAuditIsInTimeOrder(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "here")
	imported, _ := s.CreateChat(ctx, "imported")
	add := func(chatID string, at int64) int64 {
		t.Helper()
		e, err := s.AddAudit(ctx, chat.AuditEntry{ChatID: chatID, Tool: "read_file", Decision: chat.AuditApproved, DecidedBy: chat.ByUser, At: at})
		if err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	a := add(c.ID, 1000)
	b := add(c.ID, 3000)
	old1 := add(imported.ID, 500) // imported later, happened earlier
	old2 := add(imported.ID, 2000)
	var got []int64
	for before := int64(0); ; {
		page, err := s.ListAudit(ctx, AuditQuery{Limit: 1, Before: before})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		got = append(got, page[0].ID)
		before = page[0].ID
	}
	if want := []int64{b, old2, a, old1}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("newest first by time, paged: %v, want %v", got, want)
	}
	var all []int64
	_ = s.EachAudit(ctx, AuditQuery{}, func(e chat.AuditEntry) error { all = append(all, e.ID); return nil })
	if want := []int64{old1, a, old2, b}; fmt.Sprint(all) != fmt.Sprint(want) {
		t.Fatalf("EachAudit oldest first by time: %v, want %v", all, want)
	}
}
