package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/engine/fit"
	"airlock/backend/llm"
	"airlock/backend/paradigm"
	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
	"airlock/backend/uitext"
)

// Native calling: the model gets the tools as the API's tools parameter and
// answers with tool_calls; each becomes a card like a text call, and the
// results go back as role "tool" messages. Auto uses native where the
// provider and model accept it and text otherwise, learning which per model.

// FormatNative is the format of a call the model made natively.
const FormatNative = "native"

// turnPlan is how one answer is asked for.
type turnPlan struct {
	mode     chat.ToolMode // native or text, for this request
	auto     bool          // chosen by Auto: a refusal falls back to text, and what happens is learned
	provider chat.Provider
	chat     chat.Chat
	box      *tools.Toolbox
	system   string // the agent's system prompt
	history  []chat.Message
	calls    map[string][]chat.Call // by message ID
	summary  *summaryView           // the stored summary that stands for the start, if any
	window   budget                 // the model's window and how tokens are counted

	files      map[string][]chat.AttachmentData // attached files, by message ID (attachments.go)
	vision     chat.Vision                      // whether the model takes images
	toolImages bool                             // the chat sends its tools' images to the model
	draftFiles []DraftFile                      // the files waiting in the composer (the gauge's draft)

	generation generation // the agent's options (setup.go)
}

// planTurn decides how the model calls tools in this answer; the chat's
// agent gives the system prompt and the options (setup.go).
func (e *Engine) planTurn(ctx context.Context, c chat.Chat, p chat.Provider, history []chat.Message) turnPlan {
	agent := e.agentOf(ctx, c)
	plan := turnPlan{mode: chat.ToolModeText, provider: p, chat: c, box: e.toolsOf(ctx, c.ID), system: agent.SystemPrompt, history: history,
		calls: map[string][]chat.Call{}, generation: generationOf(agent)}
	if e.notes != nil {
		plan.system = withInstructions(plan.system, e.notes(ctx, c), plan.box)
	}
	plan.summary = activeSummary(ctx, e.store, c.ID, history)
	if all, err := e.store.ListCalls(ctx, c.ID); err == nil {
		for _, cl := range all {
			plan.calls[cl.MessageID] = append(plan.calls[cl.MessageID], cl)
		}
	}
	e.planImages(ctx, &plan)
	if e.tools == nil {
		return plan
	}
	switch c.ToolMode {
	case chat.ToolModeNative:
		plan.mode = chat.ToolModeNative
	case chat.ToolModeAuto:
		plan.auto = true
		plan.mode = chat.ToolModeNative
		if m, err := e.store.GetModelMode(ctx, p.ID, p.Model); err == nil {
			plan.mode = m.Effective()
		}
	}
	return plan
}

// request builds the request for the plan's mode, fitted to the window.
func (p turnPlan) request() (llm.Request, fit.Report, error) {
	par, ok := paradigm.Get(p.chat.Paradigm)
	if !ok {
		par, _ = paradigm.Get(paradigm.Default)
	}
	native := p.mode == chat.ToolModeNative
	system := p.system
	var req llm.Request
	if !native {
		system = strings.TrimSpace(system)
		if p.box != nil {
			system = strings.TrimSpace(system + "\n\n" + par.Prompt(p.box.Specs()))
		}
	} else {
		for _, s := range p.box.Specs() {
			req.Tools = append(req.Tools, llm.Tool{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
		}
	}
	req = p.generation.apply(req)
	msgs, rep, err := p.fitted(p.view(system, par, native), req.Tools)
	req.Messages = make([]llm.Message, len(msgs))
	for i, m := range msgs {
		req.Messages[i] = m.Message
	}
	return req, rep, err
}

// textStream follows the text calls of the answer as it streams (a model
// may write calls as text in native mode too); nil without tools.
func (p turnPlan) textStream() *paradigm.Stream {
	if p.box == nil {
		return nil
	}
	return paradigm.NewStream(paradigm.Options{Paradigm: p.chat.Paradigm, RecognizeOthers: p.chat.RecognizeOthers, Registry: p.box.Registry()})
}

// refusal is why a provider refused tools, in a few words.
func refusal(err error) uitext.Text {
	var le *llm.Error
	if errors.As(err, &le) && le.Said != "" {
		said := strings.TrimSuffix(le.Said, ".")
		if le.StatusCode > 0 {
			return txtServerSaidHTTP.With("said", said, "status", le.StatusCode)
		}
		return txtServerSaid.With("said", said)
	}
	return uitext.Of(err)
}

// refused says Auto asked natively and the provider refused tools.
func (p turnPlan) refused(err error) bool {
	var le *llm.Error
	return p.auto && p.mode == chat.ToolModeNative && errors.As(err, &le) && le.Kind == llm.KindToolsUnsupported
}

// learn records what Auto found out about the model, and tells the chat
// when it changes how the model is asked.
func (e *Engine) learn(p turnPlan, mode chat.ToolMode, reason uitext.Text) {
	if !p.auto {
		return
	}
	ctx := context.Background()
	before, err := e.store.GetModelMode(ctx, p.provider.ID, p.provider.Model)
	if err != nil || before.Learned == mode {
		return
	}
	if _, err := e.store.LearnModelMode(ctx, p.provider.ID, p.provider.Model, mode, reason.English); err != nil {
		return
	}
	if mode == chat.ToolModeNative && before.Learned == "" {
		return // the first answer confirmed the default: nothing changes for the user
	}
	how := txtNativeCalls.With()
	if mode == chat.ToolModeText {
		how = txtTextCalls.With()
	}
	e.notice(p.chat.ID, "tool_mode_learned", txtModeLearned.With("model", p.provider.Model, "how", how, "reason", reason))
}

// messages is the conversation as the API expects it, unfitted.
func (p turnPlan) messages(system string, par paradigm.Paradigm, native bool) []llm.Message {
	v := p.view(system, par, native)
	out := make([]llm.Message, len(v))
	for i, m := range v {
		out[i] = m.Message
	}
	return out
}

// view is the conversation as the API expects it, with what fitting needs
// to know: which stored message each came from, which carry tool results,
// and the user's latest own message (pinned: the task at hand). An answer
// with native calls is followed by one tool message per call, whatever came
// after it, so a native conversation stays valid for the API; in a text
// request the same calls are written in the paradigm instead. A summary
// stands for the messages it covers.
func (p turnPlan) view(system string, par paradigm.Paradigm, native bool) []fit.Message {
	out := make([]fit.Message, 0, len(p.history)+1)
	if s := strings.TrimSpace(system); s != "" {
		out = append(out, fit.Message{Message: llm.Message{Role: chat.RoleSystem, Content: s}})
	}
	history, summary := p.history, p.summary
	if summary != nil {
		history = history[summary.covered:]
		out = append(out, fit.Message{Message: llm.Message{Role: chat.RoleUser, Content: summaryText(summary.summary)},
			ID: summary.summary.ThroughID, Pinned: true})
	}
	answered := false // the last answer's native calls were given their tool messages
	lastUser := -1
	for _, m := range history {
		if m.Status == chat.StatusStreaming {
			continue
		}
		calls := nativeCalls(p.calls[m.ID])
		switch {
		case m.Role == chat.RoleAssistant && len(calls) > 0 && native:
			out = append(out, fit.Message{Message: llm.Message{Role: chat.RoleAssistant, Content: m.Content, ToolCalls: wireCalls(calls), Thoughts: p.thoughts(m)}, ID: m.ID})
			for _, c := range calls {
				content := p.seeable(toolMessage(c), calls)
				out = append(out, fit.Message{Message: llm.Message{Role: llm.RoleTool, ToolCallID: c.ModelCallID, Content: content,
					IsError: !c.Settled() || c.ResultState == chat.ToolError}, ID: m.ID,
					Results: []fit.Result{{Tool: c.Name, Chars: utf8.RuneCountInString(content)}}})
			}
			if img, ok := p.toolImagesMessage(calls); ok {
				img.ID = m.ID
				out = append(out, img)
			}
			answered = true
			continue
		case m.Role == chat.RoleAssistant && len(calls) > 0:
			out = append(out, fit.Message{Message: llm.Message{Role: chat.RoleAssistant, Content: strings.TrimSpace(m.Content + "\n\n" + par.FormatCalls(textCalls(calls)))}, ID: m.ID})
			continue
		case m.Kind == chat.KindToolResults && answered:
			answered = false // said in the tool messages
			continue
		}
		answered = false
		if fm, ok := p.sentMessage(m, p.calls[m.ParentID]); ok {
			switch {
			case m.Kind == chat.KindToolResults:
				for _, c := range p.calls[m.ParentID] {
					fm.Results = append(fm.Results, fit.Result{Tool: c.Name, Chars: utf8.RuneCountInString(c.Result)})
				}
				if len(fm.Results) == 0 {
					fm.Results = []fit.Result{{Tool: "tools", Chars: utf8.RuneCountInString(m.Content)}}
				}
			case m.Role == chat.RoleUser:
				lastUser = len(out)
			}
			out = append(out, fm)
		}
	}
	if lastUser >= 0 {
		out[lastUser].Pinned = true
	}
	return out
}

// thoughts are an answer's signed reasoning blocks that go back with its
// calls: those the current provider signed (another refuses the signature).
func (p turnPlan) thoughts(m chat.Message) []chat.Thought {
	var out []chat.Thought
	for _, t := range m.SignedThoughts() {
		if t.Provider == p.provider.ID {
			out = append(out, t)
		}
	}
	return out
}

func nativeCalls(calls []chat.Call) []chat.Call {
	var out []chat.Call
	for _, c := range calls {
		if c.Format == FormatNative {
			out = append(out, c)
		}
	}
	return out
}

// wireCalls are the calls as the answer is re-sent: with arguments that
// are a JSON object (servers reject a conversation whose earlier arguments
// are not), the ones that ran as they ran.
func wireCalls(calls []chat.Call) []llm.ToolCall {
	out := make([]llm.ToolCall, len(calls))
	for i, c := range calls {
		args := string(c.EffectiveArguments())
		if v, err := ojson.Decode([]byte(args)); err != nil || !isObject(v) {
			args = "{}"
		}
		out[i] = llm.ToolCall{ID: c.ModelCallID, Name: c.Name, Arguments: args}
	}
	return out
}

func isObject(v any) bool { _, ok := v.(ojson.Object); return ok }

func textCalls(calls []chat.Call) []chat.ToolCall {
	out := make([]chat.ToolCall, len(calls))
	for i, c := range calls {
		out[i] = chat.ToolCall{ID: c.ModelCallID, Name: c.Name, Arguments: c.EffectiveArguments()}
	}
	return out
}

// toolMessage is what a tool message says about a call: its result (after
// a note of what the user changed, when it ran with edited arguments), or
// why there is none.
func toolMessage(c chat.Call) string {
	switch {
	case !c.Settled():
		return "This call was not run: the conversation went on before anyone decided."
	case c.ResultState == chat.ToolError:
		return c.ResultForModel("Error: " + c.Result)
	}
	return c.ResultForModel(c.Result)
}

// learnFrom is what Auto learns from a complete answer asked for natively:
// native calls that read mean native works; calls written as text instead
// mean the server ignored the tools (or the model prefers text); native
// calls none of whose arguments read mean text will serve it better.
func (e *Engine) learnFrom(p turnPlan, natives []llm.ToolCall, textCalls int) {
	if !p.auto || p.mode != chat.ToolModeNative {
		return
	}
	readable := 0
	for _, tc := range natives {
		if _, err := nativeArguments(tc.Arguments); err == nil && !tc.Truncated {
			readable++
		}
	}
	key := p.provider.ID + "\x00" + p.provider.Model
	e.mu.Lock()
	switch {
	case readable > 0:
		delete(e.unreadable, key)
	case len(natives) > 0: // answers without calls say nothing either way
		e.unreadable[key]++
	}
	misses := e.unreadable[key]
	e.mu.Unlock()
	switch {
	case readable > 0:
		e.learn(p, chat.ToolModeNative, txtLearnNativeWork.With())
	case misses >= unreadableLimit:
		e.learn(p, chat.ToolModeText, txtLearnBadJSON.With("n", misses))
	case len(natives) == 0 && textCalls > 0:
		e.learn(p, chat.ToolModeText, txtLearnWroteText.With())
	}
}

// unreadableLimit is how many answers with native calls in a row whose
// arguments were all unreadable make Auto switch a model to text: one can
// be a slip.
const unreadableLimit = 2

// fromNative turns the model's native calls into cards: valid ones pending,
// the others problem cards that say what is wrong and keep the text.
func fromNative(natives []llm.ToolCall, box *tools.Toolbox, dropped bool) []chat.Call {
	out := make([]chat.Call, 0, len(natives)+1)
	for i, tc := range natives {
		c := chat.Call{ModelCallID: tc.ID, Name: strings.TrimSpace(tc.Name), Raw: tc.Arguments, Format: FormatNative, State: chat.CallPending}
		if c.ModelCallID == "" {
			c.ModelCallID = fmt.Sprintf("call_%d", i+1)
		}
		args, err := nativeArguments(tc.Arguments)
		problem := func(t uitext.Text) { c.State, c.Problem, c.ProblemText = chat.CallProblem, t.English, t.Ptr() }
		switch {
		case tc.Incomplete:
			problem(txtNativeCutOff.With())
		case tc.Truncated:
			problem(txtNativeTooLong.With("kb", llm.MaxToolArguments>>10))
		case err != nil:
			problem(txtNativeBadJSON.With("error", err.Error()))
		case c.Name == "":
			problem(txtNativeNoName.With())
		default:
			canon, clean, cerr := box.Registry().Check(c.Name, args)
			c.Arguments = ojson.Encode(clean)
			if cerr != nil {
				problem(uitext.Of(cerr))
			} else {
				c.Name = canon
			}
		}
		out = append(out, c)
	}
	if dropped {
		t := txtNativeDropped.With("max", llm.MaxToolCalls)
		out = append(out, chat.Call{ModelCallID: "call_dropped", Format: FormatNative, State: chat.CallProblem,
			Problem: t.English, ProblemText: t.Ptr()})
	}
	return out
}

// brokenCalls shows the native calls of an answer whose stream broke as
// problem cards, never as calls: what arrived of them may be cut anywhere.
// Nothing goes back to the model by itself (the answer failed; Retry
// replaces it, and its cards with it).
func (e *Engine) brokenCalls(msg chat.Message, plan turnPlan, answer llm.Result) {
	if e.tools == nil {
		return
	}
	natives := slices.Clone(answer.ToolCalls)
	for i := range natives {
		natives[i].Incomplete = true
	}
	calls := fromNative(natives, plan.box, answer.ToolCallsDropped)
	for i := range calls {
		cl := &calls[i]
		cl.ChatID, cl.MessageID, cl.Index = msg.ChatID, msg.ID, i
		if isEmptyArgs(cl.Arguments) {
			cl.Arguments = argsAsRead(cl.Raw)
		}
	}
	e.decide.Lock()
	defer e.decide.Unlock()
	stored, err := e.store.AddCalls(context.Background(), capCalls(calls))
	if err != nil {
		return
	}
	for _, cl := range stored {
		e.emit(bridge.EventCallUpdated, cl)
	}
}

// nativeArguments reads a native call's arguments: a JSON object, possibly
// encoded twice (some servers send a string holding the JSON), "" for
// none. Light damage (a trailing comma, single quotes) is repaired; text
// that was cut off is not completed: a half-written value must not run.
func nativeArguments(text string) (ojson.Object, error) {
	text = strings.TrimSpace(text)
	if text == "" || text == "null" {
		return ojson.Object{}, nil
	}
	v, err := ojson.Decode([]byte(text))
	if err != nil {
		fixed, rerr := tools.SafeRepair(text)
		if rerr != nil || !balanced(text) {
			return nil, err
		}
		if v, err = ojson.Decode([]byte(fixed)); err != nil {
			return nil, err
		}
	}
	if s, ok := v.(string); ok {
		return nativeArguments(s)
	}
	obj, ok := v.(ojson.Object)
	if !ok {
		return nil, fmt.Errorf("they are %s, not a JSON object", jsonKind(v))
	}
	return obj, nil
}

// balanced says text closes every brace and bracket it opens (outside
// strings): repairing it fixes syntax, not a cut.
func balanced(text string) bool {
	depth, inStr, esc := 0, false, false
	for _, r := range text {
		switch {
		case esc:
			esc = false
		case inStr && r == '\\':
			esc = true
		case r == '"':
			inStr = !inStr
		case inStr:
		case r == '{' || r == '[':
			depth++
		case r == '}' || r == ']':
			depth--
		}
	}
	return depth == 0 && !inStr
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case json.Number, float64, int64:
		return "a number"
	case bool:
		return "true or false"
	}
	return "a plain value"
}
