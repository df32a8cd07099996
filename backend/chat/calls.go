package chat

import (
	"airlock/backend/uitext"
	"encoding/json"
)

// CallState is where a proposed tool call is in the approval flow.
//
//	pending ──approve──► approved ──► running ──► done | error
//	   │                                 └─(app died)─► interrupted ──approve──► approved
//	   └──deny──► denied
//	problem ──fix──► approved      problem ──tell the model──► (settled, error result)
type CallState string

const (
	CallPending     CallState = "pending"     // waiting for a decision
	CallApproved    CallState = "approved"    // decided, about to run
	CallRunning     CallState = "running"     // the tool is working
	CallDone        CallState = "done"        // ran and succeeded
	CallError       CallState = "error"       // ran and failed (or timed out, or was cancelled)
	CallDenied      CallState = "denied"      // the user said no
	CallInterrupted CallState = "interrupted" // was running when the app died; never re-run by itself
	CallProblem     CallState = "problem"     // could not be parsed or validated
)

// Who made a decision (more in policy.go: "rule:<id>", the guards).
const (
	ByUser        = "user"
	ByRuleChat    = "rule:chat"   // legacy: an always-allow rule for the chat, before rules had ids
	ByRuleGlobal  = "rule:global" // legacy: an always-allow rule for every chat
	ByInterrupted = "system"      // the app marked it on restart
)

// Call is a tool call the model proposed, as the approval flow tracks it.
// Every change is stored before the UI hears of it.
type Call struct {
	ID          string          `json:"id"`          // ours, globally unique
	ModelCallID string          `json:"modelCallId"` // the model's (or a stable generated) id, used in results
	ChatID      string          `json:"chatId"`
	MessageID   string          `json:"messageId"` // the assistant message that proposed it
	Index       int             `json:"index"`     // order within the message
	Name        string          `json:"name"`
	Arguments   json.RawMessage `json:"arguments"`        // as proposed (repaired and coerced)
	Edited      json.RawMessage `json:"edited,omitempty"` // the user's edit, if any: what actually ran
	Raw         string          `json:"raw"`
	Format      string          `json:"format"`
	State       CallState       `json:"state"`
	Problem     string          `json:"problem,omitempty"` // why it is a problem card
	// ProblemText is Problem coded for the UI's language; Problem stays
	// what the model reads. Stored in result_text while the card is
	// unsettled: once told to the model, the result is the problem.
	ProblemText *uitext.Text `json:"problemText,omitempty"`
	Guard       string       `json:"guard,omitempty"` // why it was not run automatically (loop guard)
	DecidedBy   string       `json:"decidedBy,omitempty"`
	DecidedAt   int64        `json:"decidedAt,omitempty"`
	Reason      string       `json:"reason,omitempty"` // the user's reason for a denial
	Result      string       `json:"result,omitempty"` // what the model is told
	// ResultText is Result coded for the UI's language, when it is one of
	// Airlock's own sentences (an error); Result stays what the model reads.
	ResultText  *uitext.Text `json:"resultText,omitempty"`
	ResultState ToolStatus   `json:"resultStatus,omitempty"`
	Truncated   bool         `json:"truncated,omitempty"` // Result was cut at the output cap
	// Repaired: the message ended with only the call's closers missing and
	// Airlock added them. A person must approve it: no rule runs it.
	Repaired   bool            `json:"repaired,omitempty"`
	Images     []Image         `json:"images,omitempty"`     // pictures the tool returned, shown on the card
	Structured json.RawMessage `json:"structured,omitempty"` // the result as JSON (MCP structured content, a code run's report)
	StartedAt  int64           `json:"startedAt,omitempty"`
	FinishedAt int64           `json:"finishedAt,omitempty"`
	Preview    json.RawMessage `json:"preview,omitempty"` // what the call would change, computed before the decision
	// AmbiguousKeys are keys of the arguments written twice, or differing
	// only by case (AmbiguousKeys): no exact-value rule matches such a
	// call, and the card says so. Computed from the arguments, not stored.
	AmbiguousKeys []string `json:"ambiguousKeys,omitempty"`
	CreatedAt     int64    `json:"createdAt"`
	UpdatedAt     int64    `json:"updatedAt"`
}

// Image is a picture a tool returned.
type Image struct {
	MIME string `json:"mime"`
	Data []byte `json:"data"` // base64 in JSON
}

// EffectiveArguments are the arguments the tool runs with.
func (c Call) EffectiveArguments() json.RawMessage {
	if len(c.Edited) > 0 {
		return c.Edited
	}
	return c.Arguments
}

// Settled reports whether the call has an outcome the model can be told.
func (c Call) Settled() bool {
	switch c.State {
	case CallDone, CallError, CallDenied:
		return true
	case CallProblem:
		return c.ResultState != "" // the user chose "tell the model"
	}
	return false
}

// ToolResult is what goes back to the model for this call: the result,
// after a note of what the user changed when it ran with edited arguments.
func (c Call) ToolResult() ToolResult {
	return ToolResult{CallID: c.ModelCallID, Name: c.Name, Status: c.ResultState, Content: c.ResultForModel(c.Result)}
}

// transitions lists the legal moves of the state machine.
var transitions = map[CallState][]CallState{
	CallPending:     {CallApproved, CallDenied},
	CallInterrupted: {CallApproved, CallDenied},
	CallProblem:     {CallApproved, CallProblem}, // problem→problem: "tell the model" settles it in place
	// approved→pending/denied: a call a rule allowed is decided again just
	// before it runs (the workspace may have changed since).
	CallApproved: {CallRunning, CallError, CallPending, CallDenied},
	CallRunning:  {CallDone, CallError, CallInterrupted},
}

// CanMove reports whether a call may go from one state to another.
func CanMove(from, to CallState) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// Move checks a transition and returns a clear error when it is not allowed
// (for example approving a call that already ran).
func (c *Call) Move(to CallState) error {
	if !CanMove(c.State, to) {
		return Errorf("bad_state", ErrInvalid, "This %s call is %s; it cannot become %s.", c.Name, c.State, to)
	}
	c.State = to
	c.UpdatedAt = Now()
	return nil
}
