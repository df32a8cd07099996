package engine

import (
	"encoding/json"
	"fmt"
	"time"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

// Caps on the work an answer makes before anyone approves anything. The
// recognizer has its own cap; these hold whatever reaches the engine.
const (
	// MaxCallsPerAnswer: cards for one answer. Past it, one more card says
	// how many calls were left out (and tells the model when settled).
	MaxCallsPerAnswer = 50
	// MaxResultsBytes: the results message sent back for one answer. Past
	// it, the outputs of the last calls are replaced by a line saying so.
	MaxResultsBytes = 256 << 10
	previewWorkers  = 4
)

// PreviewBudget is how long an answer's previews may take together
// before its cards appear without the ones not done ("preview
// unavailable"). A variable for tests.
var PreviewBudget = 3 * time.Second

// capCalls keeps the first MaxCallsPerAnswer calls and adds one problem
// card saying how many were left out.
func capCalls(calls []chat.Call) []chat.Call {
	if len(calls) <= MaxCallsPerAnswer {
		return calls
	}
	left := len(calls) - MaxCallsPerAnswer
	kept := append([]chat.Call(nil), calls[:MaxCallsPerAnswer]...)
	t := txtTooManyCalls.With("count", len(calls), "max", MaxCallsPerAnswer, "left", left)
	return append(kept, chat.Call{Name: "too_many_calls", Arguments: json.RawMessage("{}"), State: chat.CallProblem,
		Format: calls[MaxCallsPerAnswer].Format, Problem: t.English, ProblemText: t.Ptr()})
}

// previewAll computes the previews of pending calls, a few at a time, for
// at most PreviewBudget in all. A preview not done by then is shown as
// unavailable, with the reason; it goes on in the background and is
// dropped (previews only read).
func previewAll(box *tools.Toolbox, env tools.Env, calls []chat.Call) {
	type job struct {
		i int
		t tools.Tool
	}
	var jobs []job
	for i, cl := range calls {
		if t, ok := box.Get(cl.Name); ok && t.Preview != nil && cl.State == chat.CallPending && cl.Preview == nil {
			jobs = append(jobs, job{i, t})
		}
	}
	if len(jobs) == 0 {
		return
	}
	type done struct {
		i int
		p json.RawMessage
	}
	deadline := time.Now().Add(PreviewBudget)
	results := make(chan done, len(jobs)) // buffered: a late worker never blocks
	next := make(chan job, len(jobs))
	for _, j := range jobs {
		next <- j
	}
	close(next)
	for range min(previewWorkers, len(jobs)) {
		go func() {
			for j := range next {
				if time.Now().After(deadline) {
					continue // not started: reported unavailable below
				}
				results <- done{j.i, safePreview(j.t, env, calls[j.i].Arguments)}
			}
		}()
	}
	timer := time.NewTimer(PreviewBudget)
	defer timer.Stop()
	got := map[int]bool{}
	for len(got) < len(jobs) {
		select {
		case r := <-results:
			calls[r.i].Preview, got[r.i] = r.p, true
		case <-timer.C:
			for _, j := range jobs {
				if !got[j.i] {
					calls[j.i].Preview = preview(nil, txtPreviewSlow.Error("budget", PreviewBudget.String()))
				}
			}
			return
		}
	}
}

// safePreview runs a tool's preview, a panic included.
func safePreview(t tools.Tool, env tools.Env, args json.RawMessage) (p json.RawMessage) {
	defer func() {
		if r := recover(); r != nil {
			p = preview(nil, txtPreviewCrashed.Error("reason", fmt.Sprint(r)))
		}
	}()
	return preview(t.Preview(env, args))
}

// capResults keeps the results message of one answer under
// MaxResultsBytes: each output is already capped (OutputCap); past the
// total, later outputs are replaced by a line saying why.
func capResults(rs []chat.ToolResult) []chat.ToolResult {
	total := 0
	for i := range rs {
		total += len(rs[i].Content)
		if total > MaxResultsBytes {
			total -= len(rs[i].Content)
			rs[i].Content = fmt.Sprintf("[output left out: the results of this answer passed %d KB; run this call again on its own to see it]", MaxResultsBytes>>10)
			total += len(rs[i].Content)
		}
	}
	return rs
}
