package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"airlock/backend/approval"
	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/paradigm"
	"airlock/backend/tools"
	"airlock/backend/uitext"
)

// The tool loop: a complete answer is scanned for calls in the chat's
// paradigm; each becomes a stored card; a person (or an always-allow rule)
// decides; approved calls run; when every call of the answer is settled,
// the results go back as a user message and the model continues.

// OutputCap bounds what one tool run hands to the model.
const OutputCap = 32 << 10

// afterAnswer finds the calls in a complete answer (written as text, and
// native ones) and stores them as cards.
func (e *Engine) afterAnswer(msg chat.Message, plan turnPlan, answer llm.Result) {
	if e.tools == nil {
		return
	}
	ctx := context.Background()
	c, box := plan.chat, plan.box
	res := paradigm.Scan(msg.Content, paradigm.Options{Paradigm: c.Paradigm, RecognizeOthers: c.RecognizeOthers,
		Registry: box.Registry(), IDSeed: msg.ID})
	natives := fromNative(answer.ToolCalls, box, answer.ToolCallsDropped)
	e.learnFrom(plan, answer.ToolCalls, len(res.Calls))
	if len(res.Calls) == 0 && len(res.Problems) == 0 && len(natives) == 0 {
		return
	}
	type found struct {
		at   int
		call chat.Call
	}
	var all []found
	for _, tc := range res.Calls {
		all = append(all, found{tc.Start, chat.Call{ModelCallID: tc.ID, Name: tc.Name, Arguments: tc.Arguments,
			Raw: tc.Raw, Format: tc.Format, State: chat.CallPending, Repaired: tc.Repaired}})
	}
	for _, p := range res.Problems {
		all = append(all, found{p.Start, chat.Call{ModelCallID: p.ID, Name: p.Name, Arguments: p.Arguments, Raw: p.Raw, Format: p.Format,
			State: chat.CallProblem, Problem: p.Message, ProblemText: p.Text}})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at < all[j].at })
	for _, n := range natives { // after the text, where the API puts them
		all = append(all, found{len(msg.Content), n})
	}

	env, envErr := e.envFor(ctx, msg.ChatID)
	calls := make([]chat.Call, len(all))
	for i, f := range all {
		calls[i] = f.call
	}
	calls = capCalls(calls)
	for i := range calls {
		cl := &calls[i]
		cl.ChatID, cl.MessageID, cl.Index = msg.ChatID, msg.ID, i
		if cl.ModelCallID == "" {
			cl.ModelCallID = fmt.Sprintf("call_%d", i+1)
		}
		if cl.State == chat.CallProblem && isEmptyArgs(cl.Arguments) {
			cl.Arguments = argsAsRead(cl.Raw) // shown as read; the Fix form starts from it
		}
	}
	if envErr == nil {
		markRefusals(box, env, calls) // a path leaving the workspace: said before Run
		previewAll(box, env, calls)   // before the decision lock, within a time budget
	}

	e.decide.Lock()
	defer e.decide.Unlock()
	previous, err := e.store.ListCalls(ctx, msg.ChatID)
	if err != nil {
		return
	}
	stored, err := e.store.AddCalls(ctx, calls)
	if err != nil {
		e.notice(msg.ChatID, "storage", txtCallsNotSaved.With("reason", err.Error()))
		return
	}
	for _, cl := range stored {
		e.emit(bridge.EventCallUpdated, cl)
	}
	e.applyRules(ctx, msg.ChatID, box, Subjects(box, env, envErr), previous, stored)
	e.finishLocked(ctx, msg.ID)
}

// preview encodes what a call would change; a failing preview is shown as
// such rather than hiding the card.
func preview(p json.RawMessage, err error) json.RawMessage {
	if err != nil {
		b, _ := json.Marshal(struct {
			Error     string       `json:"error"`
			ErrorText *uitext.Text `json:"errorText,omitempty"`
		}{err.Error(), codedText(err)})
		return b
	}
	return p
}

// previewOf is what a call with these arguments would change, computed as
// the cards' previews are (nil when the tool has none).
func (e *Engine) previewOf(ctx context.Context, chatID, name string, args json.RawMessage) json.RawMessage {
	t, ok := e.toolsOf(ctx, chatID).Get(name)
	if !ok || (t.Preview == nil && len(t.PathArgs) == 0) {
		return nil
	}
	env, err := e.envFor(ctx, chatID)
	if err != nil {
		return preview(nil, err)
	}
	if r := pathRefusal(t, env, args); r != nil || t.Preview == nil {
		return r
	}
	return safePreview(t, env, args)
}

// PreviewCall is what a waiting call would change with the user's edited
// arguments, so the card's diff follows an edit before it runs. Nothing is
// stored; invalid arguments are an error, as Run edited would say.
func (e *Engine) PreviewCall(ctx context.Context, callID string, args json.RawMessage) (json.RawMessage, error) {
	c, err := e.store.GetCall(ctx, callID)
	if err != nil {
		return nil, err
	}
	_, clean, err := e.toolsOf(ctx, c.ChatID).Registry().Validate(c.Name, args)
	if err != nil {
		return nil, rejectedArgs(err)
	}
	return e.previewOf(ctx, c.ChatID, c.Name, clean), nil
}

// rejectedArgs is why arguments (or a name) were refused, coded so the UI can
// tell an unknown tool from arguments that do not fit.
func rejectedArgs(err error) error {
	if errors.Is(err, tools.ErrUnknownTool) {
		return chat.Errorf("unknown_tool", chat.ErrInvalid, "%s", err.Error())
	}
	return chat.Errorf("invalid_arguments", chat.ErrInvalid, "%s", err.Error())
}

// save writes a call and then tells the UI: the UI never shows a state that
// is not stored.
func (e *Engine) save(c chat.Call) error {
	c.UpdatedAt = chat.Now()
	if err := e.store.UpdateCall(context.Background(), c); err != nil {
		return err
	}
	e.emit(bridge.EventCallUpdated, c)
	return nil
}

func (e *Engine) notice(chatID, code string, t uitext.Text) {
	e.emit(bridge.EventNotice, bridge.Notice{ChatID: chatID, Code: code, Message: t.English, Text: t.Ptr()})
}

// --- decisions ------------------------------------------------------------

// decideOn runs one decision on a call under the decision lock and returns
// the call as stored afterwards; decide finishing the message, if it can.
func (e *Engine) decideOn(ctx context.Context, callID string, decide func(chat.Call) error) (chat.Call, error) {
	e.decide.Lock()
	defer e.decide.Unlock()
	c, err := e.store.GetCall(ctx, callID)
	if err != nil {
		return c, err
	}
	if err := decide(c); err != nil {
		return c, err
	}
	e.finishLocked(ctx, c.MessageID)
	return e.store.GetCall(ctx, callID)
}

// Approve runs a pending (or interrupted) call, with the user's edited
// arguments when given; edits are validated against the tool's schema.
func (e *Engine) Approve(ctx context.Context, callID string, edited json.RawMessage) (chat.Call, error) {
	return e.decideOn(ctx, callID, func(c chat.Call) error {
		if c.State == chat.CallProblem {
			return refuse("bad_state", chat.ErrInvalid, txtNotAValidCall)
		}
		return e.approveLocked(ctx, c, edited, chat.ByUser)
	})
}

// FixAndRun turns a problem card into a valid call and runs it.
func (e *Engine) FixAndRun(ctx context.Context, callID, name string, args json.RawMessage) (chat.Call, error) {
	return e.decideOn(ctx, callID, func(c chat.Call) error {
		if c.State != chat.CallProblem || c.Settled() {
			return refuse("bad_state", chat.ErrInvalid, txtOnlyProblemFix)
		}
		canon, clean, err := e.toolsOf(ctx, c.ChatID).Registry().Validate(name, args)
		if err != nil {
			return rejectedArgs(err)
		}
		// The arguments as read stay; the fix is what runs (Edited), so
		// the model is told what the user changed.
		c.Name = canon
		return e.approveLocked(ctx, c, clean, chat.ByUser)
	})
}

func (e *Engine) approveLocked(ctx context.Context, c chat.Call, edited json.RawMessage, by string) error {
	if !chat.CanMove(c.State, chat.CallApproved) {
		return refuse("bad_state", chat.ErrInvalid, txtAlreadyDecided, "tool", c.Name, "state", string(c.State))
	}
	if ed := strings.TrimSpace(string(edited)); ed != "" && ed != "null" { // JS null: no edit
		_, clean, err := e.toolsOf(ctx, c.ChatID).Registry().Validate(c.Name, edited)
		if err != nil {
			return rejectedArgs(err)
		}
		if string(clean) != string(c.Arguments) {
			c.Edited = clean
			// The card shows the change that runs, not the model's.
			if pv := e.previewOf(ctx, c.ChatID, c.Name, clean); pv != nil {
				c.Preview = pv
			}
		}
	}
	fixing := c.State == chat.CallProblem
	if err := c.Move(chat.CallApproved); err != nil {
		return err
	}
	c.DecidedBy, c.DecidedAt = by, chat.Now()
	c.Result, c.ResultState, c.Images = "", "", nil
	if err := e.save(c); err != nil {
		return err
	}
	detail := c.Guard // a person ran what the loop guard or turn cap held
	if fixing {
		detail = c.Problem
	}
	e.record(ctx, c, approvalKind(c, fixing), note{by: by, detail: detail, runs: true})
	e.wg.Add(1)
	go e.execute(c, e.enqueue(ctx, c))
	return nil
}

// Deny settles a call as denied; the model is told, with the reason.
func (e *Engine) Deny(ctx context.Context, callID, reason string) (chat.Call, error) {
	return e.decideOn(ctx, callID, func(c chat.Call) error { return e.denyLocked(ctx, c, reason) })
}

func (e *Engine) denyLocked(ctx context.Context, c chat.Call, reason string) error {
	reason = strings.TrimSpace(reason)
	return e.denyAs(ctx, c, chat.AuditDenied, note{by: chat.ByUser, detail: reason}, reason, approval.DenialText(reason))
}

// denyAs settles a call as denied by someone (a person, a never rule, a
// new message), telling the model result, and records it.
func (e *Engine) denyAs(ctx context.Context, c chat.Call, d chat.AuditDecision, n note, reason, result string) error {
	if err := c.Move(chat.CallDenied); err != nil {
		return err
	}
	c.DecidedBy, c.DecidedAt, c.Reason = n.by, chat.Now(), reason
	c.Result, c.ResultState = result, chat.ToolDenied
	if err := e.save(c); err != nil {
		return err
	}
	n.status = chat.ToolDenied
	e.record(ctx, c, d, n)
	return nil
}

// TellModel settles a problem card by sending its error to the model.
func (e *Engine) TellModel(ctx context.Context, callID string) (chat.Call, error) {
	return e.decideOn(ctx, callID, func(c chat.Call) error {
		if c.State != chat.CallProblem || c.Settled() {
			return refuse("bad_state", chat.ErrInvalid, txtOnlyProblemSend)
		}
		c.DecidedBy, c.DecidedAt = chat.ByUser, chat.Now()
		c.Result, c.ResultText, c.ResultState = c.Problem, c.ProblemText, chat.ToolError
		if err := e.save(c); err != nil {
			return err
		}
		e.record(ctx, c, chat.AuditToldModel, note{by: chat.ByUser, detail: c.Problem, status: chat.ToolError})
		return nil
	})
}

// supersedeUndecided settles the calls still waiting for a decision when the
// user writes a new message instead: they are denied (never run), so no card
// waits forever and nothing runs behind the new question.
func (e *Engine) supersedeUndecided(ctx context.Context, chatID string) error {
	e.decide.Lock()
	defer e.decide.Unlock()
	calls, err := e.store.ListCalls(ctx, chatID)
	if err != nil {
		return err
	}
	for _, c := range calls {
		switch {
		case c.State == chat.CallPending || c.State == chat.CallInterrupted:
			n := note{by: chat.ByNewMessage, detail: supersededReason}
			if err := e.denyAs(ctx, c, chat.AuditSuperseded, n, supersededReason, approval.DenialText(supersededReason)); err != nil {
				return err
			}
		case c.State == chat.CallProblem && !c.Settled():
			c.DecidedBy, c.DecidedAt = chat.ByNewMessage, chat.Now()
			c.Reason, c.Result, c.ResultText, c.ResultState = supersededReason, c.Problem, c.ProblemText, chat.ToolError
			if err := e.save(c); err != nil {
				return err
			}
			e.record(ctx, c, chat.AuditSuperseded, note{by: chat.ByNewMessage, detail: supersededReason, status: chat.ToolError})
		}
	}
	return nil
}

const supersededReason = "the user sent a new message instead of deciding"

// RunAll approves every call of a message that waits for a decision.
func (e *Engine) RunAll(ctx context.Context, messageID string) error {
	e.decide.Lock()
	defer e.decide.Unlock()
	calls, err := e.store.MessageCalls(ctx, messageID)
	if err != nil {
		return err
	}
	for _, c := range calls {
		if c.State == chat.CallPending || c.State == chat.CallInterrupted {
			if err := e.approveLocked(ctx, c, nil, chat.ByUser); err != nil {
				return err
			}
		}
	}
	return nil
}

// DenyAll denies every call of a message that waits for a decision.
func (e *Engine) DenyAll(ctx context.Context, messageID, reason string) error {
	e.decide.Lock()
	defer e.decide.Unlock()
	calls, err := e.store.MessageCalls(ctx, messageID)
	if err != nil {
		return err
	}
	for _, c := range calls {
		if c.State == chat.CallPending || c.State == chat.CallInterrupted {
			if err := e.denyLocked(ctx, c, reason); err != nil {
				return err
			}
		}
	}
	e.finishLocked(ctx, messageID)
	return nil
}

// --- handing results back -------------------------------------------------

// finishLocked sends the results of a message's calls back to the model
// once every call is settled, exactly once. Callers hold e.decide.
func (e *Engine) finishLocked(ctx context.Context, messageID string) {
	calls, err := e.store.MessageCalls(ctx, messageID)
	if err != nil || len(calls) == 0 {
		return
	}
	results := make([]chat.ToolResult, 0, len(calls))
	for _, c := range calls {
		if !c.Settled() {
			return
		}
		results = append(results, c.ToolResult())
	}
	// Results go back exactly once, and never onto a version the user has
	// switched away from: only while the answer that made the calls ends
	// the conversation as shown.
	c, err := e.store.GetChat(ctx, calls[0].ChatID)
	if err != nil || c.LeafID != messageID {
		return
	}
	p, ok := paradigm.Get(c.Paradigm)
	if !ok {
		p, _ = paradigm.Get(paradigm.Default)
	}
	um, err := e.store.AddMessage(ctx, chat.Message{ChatID: c.ID, ParentID: messageID, Role: chat.RoleUser, Kind: chat.KindToolResults,
		Content: p.FormatResults(capResults(results)), Status: chat.StatusComplete})
	if err != nil {
		e.notice(c.ID, "storage", txtResultsNotSaved.With("reason", err.Error()))
		return
	}
	e.emit(bridge.EventMessageAdded, um)
	e.continueLocked(ctx, c.ID)
}

// continueLocked starts the model's next turn after tool results, unless
// auto-continue is off or the turn cap is reached.
func (e *Engine) continueLocked(ctx context.Context, chatID string) {
	settings, err := e.store.GetSettings(ctx)
	if err != nil || !settings.AutoContinue {
		return
	}
	history, err := e.store.ListMessages(ctx, chatID)
	if err != nil {
		return
	}
	if n, max := turnsSinceUser(history), e.agentOfChat(ctx, chatID).MaxTurns; n >= max {
		e.notice(chatID, "turn_cap", txtTurnCap.With("n", n))
		return
	}
	asst, err := e.start(ctx, chatID)
	if err != nil {
		e.notice(chatID, "continue_failed", uitext.Of(err))
		return
	}
	e.emit(bridge.EventMessageAdded, asst)
}

// Continue sends the latest tool results to the model now (auto-continue
// off, or the turn cap paused the loop).
func (e *Engine) Continue(ctx context.Context, chatID string) (chat.Message, error) {
	e.decide.Lock()
	defer e.decide.Unlock()
	history, err := e.store.ListMessages(ctx, chatID)
	if err != nil {
		return chat.Message{}, err
	}
	if len(history) == 0 || history[len(history)-1].Kind != chat.KindToolResults {
		return chat.Message{}, refuse("nothing_to_continue", chat.ErrInvalid, txtNothingToContinue)
	}
	asst, err := e.start(ctx, chatID)
	if err == nil {
		e.emit(bridge.EventMessageAdded, asst)
	}
	return asst, err
}

// turnsSinceUser counts the model's answers since the user last wrote.
func turnsSinceUser(history []chat.Message) int {
	n := 0
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		if m.Role == chat.RoleUser && m.Kind != chat.KindToolResults {
			break
		}
		if m.Role == chat.RoleAssistant {
			n++
		}
	}
	return n
}
