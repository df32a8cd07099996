package chat

import (
	"encoding/json"

	"airlock/backend/uitext"
)

// ToolCall is one call a model proposed in the text of an assistant message.
// It is plain data: the approval flow keeps its own state beside it.
type ToolCall struct {
	ID   string `json:"id"`   // the model's own id, else a stable generated one
	Name string `json:"name"` // the tool's canonical name once a registry repaired it
	// Arguments is always a JSON object, compact, keys in the order the model
	// wrote them.
	Arguments json.RawMessage `json:"arguments"`
	Raw       string          `json:"raw,omitempty"`    // the exact text the call was read from
	Format    string          `json:"format,omitempty"` // the syntax it was written in: "json", "xml", "vcp", "hermes", ...
	Start     int             `json:"start"`            // byte offsets of Raw in the message content
	End       int             `json:"end"`
	// Repaired: the message ended with only the call's closers missing
	// (every value complete), and Airlock added them. A person must
	// approve it: no rule runs a repaired call by itself.
	Repaired bool `json:"repaired,omitempty"`
}

// Problem is something in a message that was meant as a tool call but can't
// run as one: malformed, cut off, an unknown tool, arguments that fail the
// tool's schema. Problems are never dropped: the user sees them and the model
// is told, so it can try again.
type Problem struct {
	Message string `json:"message"` // one or two sentences, for the user and the model alike
	// Text is Message coded for the UI's language (nil: shown in English).
	Text   *uitext.Text `json:"text,omitempty"`
	Raw    string       `json:"raw"`
	Name   string       `json:"name,omitempty"` // the tool, when known
	ID     string       `json:"id,omitempty"`   // the id the call would have had
	Format string       `json:"format,omitempty"`
	Start  int          `json:"start"`
	End    int          `json:"end"`
	// Kind says what is wrong: "syntax" (the call can't be read or was cut
	// off), "unknown_tool", "arguments" (the schema rejects them), "limit"
	// (beyond the calls one message may make).
	Kind string `json:"kind,omitempty"`
	// Arguments are the arguments as read, when the call could be read
	// (an unknown tool, arguments the schema rejects): what a fix starts from.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Repaired: the call's closers were added at the end of the message
	// before the registry rejected it (see ToolCall.Repaired).
	Repaired bool `json:"repaired,omitempty"`
}

// ToolStatus is how a call ended.
type ToolStatus string

const (
	ToolSuccess ToolStatus = "success"
	ToolError   ToolStatus = "error"  // the tool failed, or the call was malformed
	ToolDenied  ToolStatus = "denied" // the user said no
)

// ToolResult carries the outcome of one call back to the model.
type ToolResult struct {
	CallID string     `json:"callId"`
	Name   string     `json:"name"`
	Status ToolStatus `json:"status"`
	// Content is the tool's output or the error/denial text. When it holds
	// JSON, paradigms embed it as JSON rather than as a quoted string.
	Content string `json:"content"`
}

// Result turns a problem into the error result the model is told about.
func (p Problem) Result() ToolResult {
	return ToolResult{CallID: p.ID, Name: p.Name, Status: ToolError, Content: p.Message}
}
