package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"airlock/backend/chat"
	"airlock/backend/tools/mcp"
)

// Events of MCP servers' questions (elicitation) and progress.
const (
	EventMCPQuestion      = "mcp:question"       // an MCPQuestion to show on its call's card
	EventMCPQuestionEnded = "mcp:question-ended" // {id, action}: answered, withdrawn or timed out
	EventMCPProgress      = "mcp:progress"       // an MCPProgress for a running card
)

// maxOpenQuestions caps the questions waiting at once; a server asking
// more is answered "cancel" without a form.
const maxOpenQuestions = 32

// MCPQuestion is a question a server asks while one of its tools runs.
// Domain is the link's host (URL mode), shown before it is opened.
type MCPQuestion struct {
	ID     string `json:"id"`
	ChatID string `json:"chatId"`
	mcp.Question
	Domain string `json:"domain,omitempty"`
}

// MCPProgress is a progress notification for a running call.
type MCPProgress struct {
	ChatID string `json:"chatId"`
	mcp.Progress
}

type openQuestion struct {
	q      MCPQuestion
	answer chan mcp.Answer
}

// questions holds the open questions.
type questions struct {
	mu   sync.Mutex
	open []*openQuestion
}

// elicit is the Manager's Options.Elicit: the question goes to the UI, on
// the card of the call that asked, and waits for the person's answer, or
// for the call to end (its timeout, Stop): then it is "cancel".
func (a *App) elicit(ctx context.Context, q mcp.Question) (mcp.Answer, error) {
	mq := MCPQuestion{ID: chat.NewID(), Question: q}
	if q.CallID != "" {
		if c, err := a.store.GetCall(ctx, q.CallID); err == nil {
			mq.ChatID = c.ChatID
		}
	}
	if q.Mode == "url" {
		u, err := url.Parse(q.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			a.auditAnswer(mq, mcp.Answer{Action: "decline"}, chat.ByUser, "the link is not an http or https address")
			return mcp.Answer{Action: "decline"}, nil
		}
		mq.Domain = u.Hostname()
	}
	oq := &openQuestion{q: mq, answer: make(chan mcp.Answer, 1)}
	a.qs.mu.Lock()
	if len(a.qs.open) >= maxOpenQuestions {
		a.qs.mu.Unlock()
		return mcp.Answer{Action: "cancel"}, nil
	}
	a.qs.open = append(a.qs.open, oq)
	a.qs.mu.Unlock()
	a.emit(EventMCPQuestion, mq)

	var ans mcp.Answer
	by, note := chat.ByUser, ""
	select {
	case ans = <-oq.answer:
	case <-ctx.Done():
		ans, by, note = mcp.Answer{Action: "cancel"}, chat.ByTimeout, "no answer before the call ended"
	}
	a.qs.mu.Lock()
	a.qs.open = slices.DeleteFunc(a.qs.open, func(o *openQuestion) bool { return o == oq })
	a.qs.mu.Unlock()
	a.emit(EventMCPQuestionEnded, map[string]string{"id": mq.ID, "action": ans.Action})
	a.auditAnswer(mq, ans, by, note)
	return ans, nil
}

// auditAnswer adds the question and its answer to the audit trail of the
// call that asked (a run by hand in the Tool lab has none).
func (a *App) auditAnswer(q MCPQuestion, ans mcp.Answer, by, note string) {
	if q.ChatID == "" || q.CallID == "" {
		return
	}
	c, err := a.store.GetCall(context.Background(), q.CallID)
	if err != nil {
		return
	}
	detail := fmt.Sprintf("%s asked %q: %s", q.Server, q.Message, ans.Action)
	if q.Mode == "url" {
		detail = fmt.Sprintf("%s asked to open %s (%q): %s", q.Server, q.Domain, q.Message, ans.Action)
	}
	if note != "" {
		detail += " (" + note + ")"
	}
	var content json.RawMessage
	if ans.Action == "accept" && len(ans.Content) > 0 {
		content, _ = json.Marshal(ans.Content)
	}
	_, _ = a.store.AddAudit(context.Background(), chat.AuditEntry{ChatID: c.ChatID, CallID: c.ID, MessageID: c.MessageID,
		Tool: c.Name, Decision: chat.AuditAnswered, DecidedBy: by, Detail: detail, Arguments: content})
}

// PendingMCPQuestions lists the questions waiting for an answer (a page
// that reloads shows them again).
func (a *App) PendingMCPQuestions() []MCPQuestion {
	a.qs.mu.Lock()
	defer a.qs.mu.Unlock()
	out := make([]MCPQuestion, len(a.qs.open))
	for i, o := range a.qs.open {
		out[i] = o.q
	}
	return out
}

// AnswerMCPQuestion answers a question: action accept (content: the
// form's values), decline or cancel. Accepting a URL question opens its
// link in the system browser first: only then, never before the person
// agreed.
func (a *App) AnswerMCPQuestion(id, action string, content map[string]any) error {
	switch action {
	case "accept", "decline", "cancel":
	default:
		return toAPI(refuse("bad_answer", chat.ErrInvalid, txtBadAnswer))
	}
	a.qs.mu.Lock()
	var oq *openQuestion
	for _, o := range a.qs.open {
		if o.q.ID == id {
			oq = o
		}
	}
	a.qs.mu.Unlock()
	if oq == nil {
		return toAPI(refuse("question_gone", chat.ErrNotFound, txtQuestionGone))
	}
	if action != "accept" || oq.q.Mode == "url" {
		content = nil // only a form's accept carries values
	}
	if action == "accept" && oq.q.Mode == "url" {
		if err := a.OpenURL(oq.q.URL); err != nil {
			return err
		}
	}
	if len(content) > 0 {
		raw, _ := json.Marshal(content)
		if len(raw) > mcp.MaxQuestionBytes {
			return toAPI(refuse("bad_answer", chat.ErrInvalid, txtAnswerTooLarge, "kb", mcp.MaxQuestionBytes>>10))
		}
	}
	select {
	case oq.answer <- mcp.Answer{Action: action, Content: content}:
	default: // answered twice: the first answer stands
	}
	return nil
}

// progress is the Manager's Options.OnProgress: the card of a running call
// shows it. At most one event per call every 100 ms reaches the UI.
func (a *App) progress(p mcp.Progress) {
	a.progressMu.Lock()
	if a.progressAt == nil {
		a.progressAt = map[string]time.Time{}
	}
	now := time.Now()
	last := a.progressAt[p.CallID]
	done := p.Total > 0 && p.Progress >= p.Total
	if !done && now.Sub(last) < 100*time.Millisecond {
		a.progressMu.Unlock()
		return
	}
	a.progressAt[p.CallID] = now
	if len(a.progressAt) > 1024 {
		clear(a.progressAt)
	}
	a.progressMu.Unlock()
	chatID := ""
	if c, err := a.store.GetCall(context.Background(), p.CallID); err == nil {
		chatID = c.ChatID
	}
	p.Message = strings.TrimSpace(p.Message)
	a.emit(EventMCPProgress, MCPProgress{ChatID: chatID, Progress: p})
}
