package facade

import (
	"context"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/backend/tools/mcp"
)

// storedCall makes a chat with one assistant message proposing one call.
func storedCall(t *testing.T, a *App) chat.Call {
	t.Helper()
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.store.AddMessage(a.ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "asking"})
	if err != nil {
		t.Fatal(err)
	}
	calls, err := a.store.AddCalls(a.ctx, []chat.Call{{ChatID: c.ID, MessageID: m.ID, Name: "mcp__srv__ask", Arguments: []byte(`{}`), State: chat.CallRunning}})
	if err != nil {
		t.Fatal(err)
	}
	return calls[0]
}

// asked waits for the question to be open and returns it.
func asked(t *testing.T, a *App) MCPQuestion {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if qs := a.PendingMCPQuestions(); len(qs) == 1 {
			return qs[0]
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the question never opened")
	return MCPQuestion{}
}

func audited(t *testing.T, a *App, callID string) []chat.AuditEntry {
	t.Helper()
	rows, err := a.store.ListAudit(a.ctx, store.AuditQuery{CallID: callID, Decision: string(chat.AuditAnswered)})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestQuestionAnsweredAndAudited(t *testing.T) {
	a := testApp(t)
	call := storedCall(t, a)
	got := make(chan mcp.Answer, 1)
	go func() {
		ans, _ := a.elicit(context.Background(), mcp.Question{Server: "srv", CallID: call.ID, Tool: "ask", Mode: "form",
			Message: "Which colour?", Schema: []byte(`{"type":"object","properties":{"colour":{"type":"string"}}}`)})
		got <- ans
	}()
	q := asked(t, a)
	if q.ChatID != call.ChatID || q.CallID != call.ID || q.Server != "srv" {
		t.Fatalf("question = %+v", q)
	}
	if err := a.AnswerMCPQuestion(q.ID, "maybe", nil); err == nil {
		t.Error("an unknown action must be refused")
	}
	if err := a.AnswerMCPQuestion(q.ID, "accept", map[string]any{"colour": "blue"}); err != nil {
		t.Fatal(err)
	}
	if ans := <-got; ans.Action != "accept" || ans.Content["colour"] != "blue" {
		t.Fatalf("answer = %+v", ans)
	}
	if len(a.PendingMCPQuestions()) != 0 {
		t.Error("an answered question stays open")
	}
	if err := a.AnswerMCPQuestion(q.ID, "accept", nil); err == nil || !strings.Contains(err.Error(), "no longer open") {
		t.Errorf("answering again: %v", err)
	}
	rows := audited(t, a, call.ID)
	if len(rows) != 1 || rows[0].DecidedBy != chat.ByUser || !strings.Contains(rows[0].Detail, `srv asked "Which colour?": accept`) ||
		string(rows[0].Arguments) != `{"colour":"blue"}` || rows[0].ChatID != call.ChatID {
		t.Fatalf("audit = %+v", rows)
	}
}

func TestQuestionUnansweredIsCancelled(t *testing.T) {
	a := testApp(t)
	call := storedCall(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	ans, err := a.elicit(ctx, mcp.Question{Server: "srv", CallID: call.ID, Mode: "form", Message: "Anyone?"})
	if err != nil || ans.Action != "cancel" {
		t.Fatalf("unanswered: %+v, %v", ans, err)
	}
	if rows := audited(t, a, call.ID); len(rows) != 1 || rows[0].DecidedBy != chat.ByTimeout {
		t.Fatalf("audit = %+v", rows)
	}
}

func TestURLQuestionOpensOnlyWhenAccepted(t *testing.T) {
	a := testApp(t)
	call := storedCall(t, a)
	var opened []string
	old := openBrowser
	openBrowser = func(u string) error { opened = append(opened, u); return nil }
	defer func() { openBrowser = old }()

	for _, action := range []string{"decline", "accept"} {
		got := make(chan mcp.Answer, 1)
		go func() {
			ans, _ := a.elicit(context.Background(), mcp.Question{Server: "srv", CallID: call.ID, Mode: "url",
				Message: "Sign the form", URL: "https://forms.example.com/x?token=1"})
			got <- ans
		}()
		q := asked(t, a)
		if q.Domain != "forms.example.com" {
			t.Fatalf("domain = %q", q.Domain)
		}
		if len(opened) != 0 && action == "decline" {
			t.Fatal("the link opened before anyone agreed")
		}
		if err := a.AnswerMCPQuestion(q.ID, action, map[string]any{"x": 1}); err != nil {
			t.Fatal(err)
		}
		if ans := <-got; ans.Action != action || ans.Content != nil {
			t.Fatalf("%s: %+v", action, ans)
		}
	}
	if len(opened) != 1 || opened[0] != "https://forms.example.com/x?token=1" {
		t.Fatalf("opened = %v", opened)
	}
	// A link that is not http(s) is declined without asking.
	ans, _ := a.elicit(context.Background(), mcp.Question{Server: "srv", CallID: call.ID, Mode: "url", URL: "file:///etc/passwd"})
	if ans.Action != "decline" || len(opened) != 1 {
		t.Fatalf("file link: %+v, opened %v", ans, opened)
	}
}
