package engine

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"airlock/backend/chat"
	"airlock/backend/engine/fit"
	"airlock/backend/llm"
)

// Compaction: when shortening old tool results is not enough and older
// messages would be left out of the request, the model is asked (in a
// separate request without tools) to summarise the older part. The summary
// is stored and shown in the chat; it stands for the messages it covers in
// every later request. The messages stay as they were: shown, searchable,
// exported. The user can undo a summary (requests go back to leaving old
// messages out) and run it again.

// EventSummary tells the UI a chat's summaries changed (payload: the chat ID).
const EventSummary = "context:summary"

// summaryView is the active summary of a chat that stands for the start of
// the conversation: its record, and how many messages of the active path
// it covers.
type summaryView struct {
	summary chat.Summary
	covered int
}

// summaryText is how a summary is sent to the model.
func summaryText(m chat.Summary) string {
	return "[Summary of the earlier part of this conversation (" + fit.Thousands(m.Covered) +
		" messages), written to fit the context window. The full messages are kept; ask the user if you need one verbatim.]\n\n" + m.Content
}

// activeSummary is the chat's active summary, when the message it runs
// through is on the active path (a summary of another version of the
// conversation does not apply).
func activeSummary(ctx context.Context, st Store, chatID string, history []chat.Message) *summaryView {
	all, err := st.ListSummaries(ctx, chatID)
	if err != nil {
		return nil
	}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].State != chat.SummaryActive {
			continue
		}
		for k, m := range history {
			if m.ID == all[i].ThroughID {
				return &summaryView{summary: all[i], covered: k + 1}
			}
		}
		return nil
	}
	return nil
}

// compactIfNeeded writes a summary before the request when the chat asks
// for it (automatic compaction) and the request would otherwise leave
// older messages out. It returns the plan with the summary in place; on
// failure, the plan as it was (older messages are left out instead) and a
// notice says why.
func (e *Engine) compactIfNeeded(ctx context.Context, plan turnPlan, model Model) turnPlan {
	if plan.window.counter == nil {
		return plan
	}
	_, rep, _ := plan.request()
	if rep.Dropped == 0 || rep.DroppedThrough == "" {
		return plan
	}
	mode, err := e.store.GetCompaction(ctx, plan.chat.ID)
	if err != nil || mode == chat.CompactOff {
		return plan
	}
	if mode == chat.CompactAsk {
		e.notice(plan.chat.ID, "context_compact_ask", txtCompactAsk.With("n", fit.Thousands(rep.Dropped)))
		return plan
	}
	through := rep.DroppedThrough
	if k := lastBeforeExchange(plan.history); k >= 0 && indexOf(plan.history, through) < k {
		through = plan.history[k].ID // fold all but the last exchange: room for many turns
	}
	next, err := e.compact(ctx, plan, model, through)
	if err != nil {
		if ctx.Err() == nil {
			e.notice(plan.chat.ID, "context_compact_failed", txtCompactFailed.With("reason", strings.TrimSuffix(err.Error(), ".")))
		}
		return plan
	}
	return next
}

// compact asks the model for a summary of the conversation through the
// message throughID (and of the summary before it, if any), stores it and
// returns the plan with it in place.
func (e *Engine) compact(ctx context.Context, plan turnPlan, model Model, throughID string) (turnPlan, error) {
	through := -1
	for i, m := range plan.history {
		if m.ID == throughID {
			through = i
		}
	}
	if through < 0 {
		return plan, fmt.Errorf("the message to summarise through is not in the conversation")
	}
	// A message of tool results belongs with the answer that made the calls.
	for through+1 < len(plan.history) && plan.history[through+1].Kind == chat.KindToolResults {
		through++
	}
	from := 0
	var previous string
	if plan.summary != nil && plan.summary.covered <= through+1 {
		from, previous = plan.summary.covered, plan.summary.summary.Content
	}
	req, before := e.summaryRequest(plan, previous, plan.history[from:through+1])
	var text strings.Builder
	res, err := model.Stream(ctx, req, func(d llm.Delta) { text.WriteString(d.Text) })
	if err != nil {
		return plan, err
	}
	content := strings.TrimSpace(text.String())
	if content == "" {
		return plan, fmt.Errorf("the model wrote an empty summary")
	}
	m, err := e.store.AddSummary(context.Background(), chat.Summary{ChatID: plan.chat.ID, ThroughID: plan.history[through].ID, Covered: through + 1,
		Content: content, Model: firstNonEmpty(res.Model, plan.provider.Model), TokensBefore: before,
		TokensAfter: plan.window.counter.Count(content)})
	if err != nil {
		return plan, err
	}
	e.emit(EventSummary, plan.chat.ID)
	e.notice(plan.chat.ID, "context_compacted", txtCompacted.With("n", fit.Thousands(m.Covered), "before", fit.Thousands(m.TokensBefore), "after", fit.Thousands(m.TokensAfter)))
	plan.summary = &summaryView{summary: m, covered: through + 1}
	return plan, nil
}

// summaryPrompt asks for a summary that lets the conversation go on.
const summaryPrompt = `You summarise the earlier part of a conversation between a user and an AI assistant that calls tools, so the assistant can go on without it. Write a concise summary in the conversation's language: the user's goals and instructions (keep their exact wording where it matters), decisions made, what each tool call did and found (file names, paths, numbers, errors), what is done and what remains. Leave out pleasantries and anything superseded. Do not call tools. Answer with the summary only.`

// MaxSummaryPart is the most of one message the summary request quotes.
const MaxSummaryPart = 6000

// summaryRequest is the request that asks for a summary of msgs (after a
// previous summary), fitted to the window; before is what they took.
func (e *Engine) summaryRequest(plan turnPlan, previous string, msgs []chat.Message) (llm.Request, int) {
	var b strings.Builder
	before := 0
	if previous != "" {
		fmt.Fprintf(&b, "## Summary of what came before\n\n%s\n\n", previous)
		before += plan.window.counter.Count(previous)
	}
	for _, m := range msgs {
		if m.Status == chat.StatusStreaming {
			continue
		}
		text := m.Content
		for _, c := range plan.calls[m.ID] {
			text += fmt.Sprintf("\n[called %s %s]", c.Name, clipRunes(string(c.EffectiveArguments()), 400))
		}
		before += plan.window.counter.Count(text)
		role := string(m.Role)
		if m.Kind == chat.KindToolResults {
			role = "tool results"
		}
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", role, clipRunes(text, MaxSummaryPart))
	}
	transcript := b.String()
	room := plan.window.Tokens - plan.window.Reserve - plan.window.counter.Count(summaryPrompt) - 64
	transcript = fit.Cut(transcript, max(room, 256), plan.window.counter)
	return llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: summaryPrompt},
		{Role: chat.RoleUser, Content: "Summarise this conversation:\n\n" + transcript},
	}}, before
}

// lastBeforeExchange is the index of the last message before the
// conversation's last exchange (the answer being written, the user's last
// message or the last results with the answer that asked for them), or -1.
func lastBeforeExchange(history []chat.Message) int {
	k := len(history) - 1
	for k >= 0 && history[k].Status == chat.StatusStreaming {
		k--
	}
	switch {
	case k >= 1 && history[k].Kind == chat.KindToolResults:
		k -= 2
	case k >= 0:
		k--
	}
	return k
}

func indexOf(history []chat.Message, id string) int {
	for i, m := range history {
		if m.ID == id {
			return i
		}
	}
	return -1
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n*2/3]) + fmt.Sprintf(" […%s characters…] ", fit.Thousands(len(r)-n)) + string(r[len(r)-n/3:])
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// CompactNow folds the older part of the chat into a summary now (the
// gauge's Compact, ask-first chats, Compact and retry): what the next
// request would leave out, or else all but the last exchanges.
func (e *Engine) CompactNow(ctx context.Context, chatID string) (chat.Summary, error) {
	if why := e.busy(chatID); why != nil {
		return chat.Summary{}, why
	}
	c, err := e.store.GetChat(ctx, chatID)
	if err != nil {
		return chat.Summary{}, err
	}
	provider, model, err := e.connect(ctx, c)
	if err != nil {
		return chat.Summary{}, err
	}
	history, err := e.store.ListMessages(ctx, chatID)
	if err != nil {
		return chat.Summary{}, err
	}
	// The error of a failed answer is not part of the conversation.
	for len(history) > 0 && history[len(history)-1].Role == chat.RoleAssistant && history[len(history)-1].Status != chat.StatusComplete {
		history = history[:len(history)-1]
	}
	plan := e.planTurn(ctx, c, provider, history)
	plan.window = e.budgetFor(ctx, provider)
	_, rep, _ := plan.request()
	through := rep.DroppedThrough
	if k := lastBeforeExchange(history); k >= 0 && indexOf(history, through) < k {
		through = history[k].ID
	}
	if k := indexOf(history, through); k < 0 || (plan.summary != nil && k < plan.summary.covered) {
		return chat.Summary{}, refuse("nothing_to_compact", chat.ErrInvalid, txtNothingToCompact)
	}
	next, err := e.compact(ctx, plan, model, through)
	if err != nil {
		return chat.Summary{}, refuse("compact_failed", err, txtCompactWriteFailed, "reason", err)
	}
	return next.summary.summary, nil
}

// UndoSummary sets a summary aside: the chat's requests go back to
// shortening old results and leaving old messages out.
func (e *Engine) UndoSummary(ctx context.Context, id string) (chat.Summary, error) {
	m, err := e.store.UndoSummary(ctx, id)
	if err == nil {
		e.emit(EventSummary, m.ChatID)
	}
	return m, err
}
