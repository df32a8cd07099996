package demomodel

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
)

// Native tool calls: the demo's side of the OpenAI "tools" / "tool_calls"
// exchange.

// wireToolCall is a tool call as OpenAI writes it: whole in a completion's
// message, or a piece of one in a stream's delta.
type wireToolCall struct {
	Index    *int   `json:"index,omitempty"` // stream pieces only
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func wholeCall(c ToolCall) wireToolCall {
	w := wireToolCall{ID: c.ID, Type: "function"}
	w.Function.Name, w.Function.Arguments = c.Name, c.Arguments
	return w
}

// callPieces cuts calls into stream pieces the way OpenAI sends them: a
// call's first piece has its index, id, type, name and empty arguments; the
// others only the index and 2–8 characters of arguments. Parallel calls are
// interleaved, one piece of each in turn, which the spec allows (pieces are
// keyed by index) and clients must handle.
func callPieces(calls []ToolCall) []wireToolCall {
	queues := make([][]wireToolCall, len(calls))
	for i, c := range calls {
		head := wholeCall(c)
		head.Index, head.Function.Arguments = &i, ""
		queues[i] = append(queues[i], head)
		for _, frag := range pieces(c.Arguments) {
			p := wireToolCall{Index: &i}
			p.Function.Arguments = frag
			queues[i] = append(queues[i], p)
		}
	}
	var out []wireToolCall
	for more := true; more; {
		more = false
		for i := range queues {
			if len(queues[i]) > 0 {
				out = append(out, queues[i][0])
				queues[i] = queues[i][1:]
				more = true
			}
		}
	}
	return out
}

// newCallID makes an id like OpenAI's (call_ and 24 characters).
func newCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}

// refuseTools answers a request with tools to TextOnlyModel as Ollama does
// for a model without tool support: HTTP 400, with the message Ollama builds
// from the model's full name (server/images.go CheckCapabilities) in its
// OpenAI error shape (openai/openai.go NewError, whose type follows the
// status since 2026-03; it was "api_error" before).
func refuseTools(p Prompt) Reply {
	return Reply{Status: http.StatusBadRequest, ErrType: "invalid_request_error",
		ErrMessage: "registry.ollama.ai/library/" + p.Model + ":latest does not support tools"}
}

// nativeResults reads the results of the last round of native calls: the
// "tool" messages that end the conversation, named from the assistant
// message whose calls they answer. It returns nil when the conversation does
// not end with results.
func nativeResults(p Prompt) []result {
	n := len(p.Messages)
	if n == 0 || p.Messages[n-1].Role != "tool" {
		return nil
	}
	i := n - 1
	for i >= 0 && p.Messages[i].Role == "tool" {
		i--
	}
	names := map[string]string{}
	if i >= 0 {
		for _, c := range p.Messages[i].ToolCalls {
			names[c.ID] = c.Name
		}
	}
	var out []result
	for _, m := range p.Messages[i+1:] {
		name := names[m.ToolCallID]
		if name == "" {
			name = m.Name
		}
		if name == "" {
			name = "an unknown tool"
		}
		status, text := toolStatus(m.Content)
		out = append(out, result{name, status, text})
	}
	return out
}

// toolStatus reads how a call ended from a "tool" message. Results framed
// the way the text paradigms frame them ({"status":…,"result":…}) say so;
// plain text is a success unless it reads as a denial or an error.
func toolStatus(content string) (status, text string) {
	var v struct {
		Status string          `json:"status"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal([]byte(content), &v) == nil && v.Status != "" {
		r := string(v.Result)
		var s string
		if json.Unmarshal(v.Result, &s) == nil {
			r = s
		}
		return strings.ToLower(v.Status), r
	}
	t := strings.TrimSpace(content)
	switch {
	case strings.HasPrefix(t, "The user denied"):
		return "denied", t
	case len(t) >= 5 && strings.EqualFold(t[:5], "error"):
		return "error", t
	}
	return "success", t
}

// roundsSince counts the assistant messages with native calls since the
// user's request.
func roundsSince(p Prompt) int {
	n := 0
	for i := len(p.Messages) - 1; i >= 0 && p.Messages[i].Role != "user"; i-- {
		if p.Messages[i].Role == "assistant" && len(p.Messages[i].ToolCalls) > 0 {
			n++
		}
	}
	return n
}
