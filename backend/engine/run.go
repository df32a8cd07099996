package engine

import (
	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/uitext"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Cancel stops a running call; it ends as an error the model is told about.
func (e *Engine) Cancel(callID string) {
	e.mu.Lock()
	r, ok := e.running[callID]
	e.mu.Unlock()
	if ok {
		r.cancel(errCancelledByUser)
	}
}

var errCancelledByUser = errors.New("cancelled by the user")

// toolTimeout is how long a run may take (the chat's agent's tool timeout).
func (e *Engine) toolTimeout(ctx context.Context, chatID string) time.Duration {
	if t := time.Duration(e.agentOfChat(ctx, chatID).ToolTimeoutSeconds) * time.Second; t > 0 {
		return t
	}
	return 30 * time.Second
}

// noTools is the toolbox of an engine without tools, or of a chat that is gone.
var noTools, _ = tools.NewToolbox()

// toolsOf is the toolbox of a chat, as it is now.
func (e *Engine) toolsOf(ctx context.Context, chatID string) *tools.Toolbox {
	if e.tools == nil {
		return noTools
	}
	c, err := e.store.GetChat(ctx, chatID)
	if err != nil {
		return noTools
	}
	return Offered(e.tools(c), e.agentOf(ctx, c), c.ToolToggles)
}

// RunByHand runs a tool a person asked for in the Tool lab, on the chat's
// workspace: the person asking is the one deciding. The arguments are
// validated as the model's are, and the run takes the cards' path: the
// timeout, Stop, the panic guard, the output cap, the workspace event.
func (e *Engine) RunByHand(ctx context.Context, chatID, name string, args json.RawMessage) (tools.Output, error) {
	canon, clean, err := e.toolsOf(ctx, chatID).Registry().Validate(name, args)
	if err != nil {
		return tools.Output{}, rejectedArgs(err)
	}
	timeout := e.toolTimeout(ctx, chatID)
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	byHand := chat.Call{ChatID: chatID, Name: canon, Arguments: clean}
	t, _ := e.toolsOf(ctx, chatID).Get(canon)
	defer e.runs.hold(e.runKey(ctx, chatID), t.Changes)()
	started := chat.Now()
	out, err := e.runTool(runCtx, byHand)
	timedOut := errors.Is(runCtx.Err(), context.DeadlineExceeded)
	if timedOut {
		err = txtRunTimedOut.Error("after", timeout.String())
	}
	out.Text, _ = capOutput(out.Text)
	kind, by := outcomeKind(false, false, timedOut, chat.ByUser)
	n := note{by: by, detail: "Run by hand in the Tool lab.", runs: true, status: chat.ToolSuccess, ms: chat.Now() - started}
	if err != nil {
		n.status, n.detail = chat.ToolError, n.detail+" "+err.Error()
	}
	e.record(ctx, byHand, kind, n)
	return out, err
}

// execute runs an approved call with the timeout and output cap, after the
// call before it in line when the chat's agent runs calls one at a time
// (the timeout starts when it runs; Cancel works while it waits).
func (e *Engine) execute(c chat.Call, q queued) {
	defer e.wg.Done()
	defer q.end()
	ctx := context.Background()
	timeout := e.toolTimeout(ctx, c.ChatID)
	baseCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	e.mu.Lock()
	e.running[c.ID] = toolRun{chatID: c.ChatID, cancel: cancel}
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.running, c.ID)
		e.mu.Unlock()
	}()

	waited := q.wait(baseCtx)
	// In its turn: a tool that changes the workspace runs alone, and a
	// call a rule allowed is decided again on the workspace as it is now.
	t, _ := e.toolsOf(ctx, c.ChatID).Get(c.Name)
	release := e.runs.hold(e.runKey(ctx, c.ChatID), t.Changes)
	defer func() {
		if release != nil {
			release()
		}
	}()
	if !e.stillAllowed(ctx, c) {
		return
	}
	runCtx, cancelTimeout := context.WithTimeout(baseCtx, timeout)
	defer cancelTimeout()
	if err := c.Move(chat.CallRunning); err != nil {
		return
	}
	c.StartedAt = chat.Now()
	if e.save(c) != nil {
		return
	}
	var (
		out tools.Output
		err error
	)
	if waited {
		out, err = e.runTool(runCtx, c)
	}
	release()
	release = nil
	interrupted := errors.Is(context.Cause(runCtx), errStopped)
	cancelled := !interrupted && errors.Is(context.Cause(runCtx), errCancelledByUser)
	timedOut := !interrupted && !cancelled && errors.Is(runCtx.Err(), context.DeadlineExceeded)
	switch {
	case interrupted:
		err = txtCallShutDown.Error()
	case cancelled:
		err = txtCallCancelled.Error("after", time.Since(time.UnixMilli(c.StartedAt)).Round(time.Millisecond).String())
	case timedOut:
		err = txtCallTimedOut.Error("after", timeout.String())
	}
	c.FinishedAt = chat.Now()
	kind, by := outcomeKind(interrupted, cancelled, timedOut, c.DecidedBy)
	outcome := note{by: by, runs: true, ms: c.FinishedAt - c.StartedAt}
	if interrupted {
		// Not settled: after a restart the user decides again.
		_ = c.Move(chat.CallInterrupted)
		c.Result, c.ResultText = err.Error(), codedText(err)
		_ = e.save(c)
		outcome.detail = c.Result
		e.record(ctx, c, kind, outcome)
		return
	}
	c.Images = out.Images // shown on the card; the text tells the model they were
	c.Structured = out.Structured
	if err != nil {
		_ = c.Move(chat.CallError)
		c.Result, c.ResultState, c.ResultText = err.Error(), chat.ToolError, codedText(err)
	} else {
		_ = c.Move(chat.CallDone)
		c.Result, c.Truncated = capOutput(out.Text)
		c.ResultState = chat.ToolSuccess
	}
	_ = e.save(c)
	outcome.status = c.ResultState
	if err != nil {
		outcome.detail = err.Error()
	}
	e.record(ctx, c, kind, outcome)

	e.decide.Lock()
	defer e.decide.Unlock()
	e.finishLocked(ctx, c.MessageID)
}

// runTool is the one path every run takes, from a card, a rule or the Tool
// lab: the tool runs on its own goroutine so a tool that ignores its
// context still cannot hold the loop past the timeout, and a panic becomes
// an error result instead of a crash. A tool that may change the workspace
// saves it and tells the UI, whatever the outcome.
func (e *Engine) runTool(ctx context.Context, c chat.Call) (tools.Output, error) {
	t, ok := e.toolsOf(ctx, c.ChatID).Get(c.Name)
	if !ok {
		return tools.Output{}, txtNoSuchTool.Error("name", strconv.Quote(c.Name))
	}
	// The call goes along so what the environment keeps (a checkpoint) is
	// keyed to it, and an MCP server's questions and progress find its card.
	ctx = tools.WithCall(ctx, tools.CallInfo{ID: c.ID, Tool: c.Name})
	env, err := e.envFor(ctx, c.ChatID)
	if err != nil {
		return tools.Output{}, (&uitext.Error{Text: txtNoWorkspace.With("reason", err), Err: err})
	}
	if t.Changes {
		defer e.emit(bridge.EventWorkspaceChanged, bridge.WorkspaceChanged{ChatID: c.ChatID})
	}
	type outcome struct {
		out tools.Output
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{tools.Output{}, txtToolCrashed.Error("reason", fmt.Sprint(r))}
			}
		}()
		out, err := t.Run(tools.WithOutputLimit(ctx, OutputCap), env, c.EffectiveArguments())
		if err == nil && out.IsError {
			err = errors.New(out.Text) // the tool reported a failure
		}
		done <- outcome{out, err}
	}()
	select {
	case o := <-done:
		// A tool that changes files may have changed some even when it
		// failed: save the workspace either way.
		if t.Changes && env.Commit != nil {
			if err := env.Commit(); err != nil && o.err == nil {
				return o.out, (&uitext.Error{Text: txtChangeNotSaved.With("reason", err), Err: err})
			}
		}
		return o.out, o.err
	case <-ctx.Done():
		return tools.Output{}, ctx.Err()
	}
}

func capOutput(s string) (string, bool) {
	if len(s) <= OutputCap {
		return s, false
	}
	// A tool's closing note ("[… call read_file with offset=… to
	// continue]") is how the model goes on: it survives the cut.
	tail := ""
	if i := strings.LastIndexByte(s, '\n'); i >= 0 && len(s)-i <= maxNote && strings.HasPrefix(s[i+1:], "[") && strings.HasSuffix(s, "]") {
		tail = s[i:]
	}
	cut := OutputCap - len(tail)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[output truncated: showing %d of %d bytes]", cut, len(s)-len(tail)) + tail, true
}

// maxNote is the longest closing note capOutput keeps.
const maxNote = 1 << 10
