package demomodel

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// The Anthropic Messages wire (POST /v1/messages), so the demo can be tried
// offline on a provider of that kind. The same rules choose the reply; it
// is streamed the way Anthropic streams: message_start, then per content
// block content_block_start, its deltas and content_block_stop (thinking
// with a signature_delta, text, tool_use with input_json_delta pieces),
// then message_delta with the stop_reason and message_stop. Errors use
// Anthropic's shape ({"type":"error","error":{"type","message"}}).
//
// Like the real API, it checks what comes back: a tool-use answer was
// streamed with a signed thinking block, and the request that carries its
// results must send that block back unchanged (HTTP 400 otherwise).

type messagesRequest struct {
	Model     string            `json:"model"`
	MaxTokens int               `json:"max_tokens"`
	System    json.RawMessage   `json:"system"`
	Messages  []messagesMessage `json:"messages"`
	Tools     []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

type messagesMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type messagesBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// blocks reads a content: a string, or an array of blocks.
func blocks(raw json.RawMessage) []messagesBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []messagesBlock{{Type: "text", Text: s}}
	}
	var bs []messagesBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

// signature is the demo's stand-in for Anthropic's: a digest of the text.
func signature(thinking string) string {
	sum := sha256.Sum256([]byte("airlock-demo:" + thinking))
	return "demo-" + hex.EncodeToString(sum[:16])
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	var req messagesRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, 32<<20)).Decode(&req); err != nil {
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", "The request body is not valid JSON: "+err.Error())
		return
	}
	_, _ = io.Copy(io.Discard, r.Body)
	switch {
	case req.Model == "":
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", "model: Field required")
		return
	case req.MaxTokens <= 0:
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", "max_tokens: Field required")
		return
	case !slices.Contains(s.opts.Models, req.Model):
		writeAnthropicError(w, http.StatusNotFound, "not_found_error", "model: "+req.Model)
		return
	}
	p, problem := messagesPrompt(req)
	if problem != "" {
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", problem)
		return
	}
	rep := choose(p)
	if rep.Status != 0 {
		for k, v := range rep.Header {
			w.Header()[k] = v
		}
		writeAnthropicError(w, rep.Status, anthropicErrorType(rep.Status), rep.ErrMessage)
		return
	}
	if len(rep.ToolCalls) > 0 && rep.Reasoning == "" {
		// Thinking before a tool use, as Claude does with thinking on: the
		// signature is what the next request must send back.
		rep.Reasoning = "The request needs " + rep.ToolCalls[0].Name + "; I will call it and read the result."
	}
	if !req.Stream {
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", "The demo answers /v1/messages with stream: true only.")
		return
	}
	s.streamMessages(w, r, p, rep)
}

// messagesPrompt is the request as the rules see it, or what is wrong with it.
func messagesPrompt(req messagesRequest) (Prompt, string) {
	p := Prompt{Model: req.Model}
	if len(req.System) > 0 {
		var b strings.Builder
		for _, bl := range blocks(req.System) {
			b.WriteString(bl.Text)
		}
		p.Messages = append(p.Messages, PromptMessage{Role: "system", Content: b.String()})
	}
	for i, m := range req.Messages {
		var text strings.Builder
		am := PromptMessage{Role: m.Role}
		var thought *messagesBlock
		for j, b := range blocks(m.Content) {
			switch b.Type {
			case "text":
				text.WriteString(b.Text)
			case "thinking":
				if b.Signature != signature(b.Thinking) {
					return p, fmt.Sprintf("messages.%d.content.%d: Invalid `signature` in `thinking` block", i, j)
				}
				thought = &b
			case "tool_use":
				am.ToolCalls = append(am.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: string(bytes.TrimSpace(b.Input))})
			case "tool_result":
				p.Messages = append(p.Messages, PromptMessage{Role: "tool", ToolCallID: b.ToolUseID, Content: text0(b.Content)})
			}
		}
		if m.Role == "assistant" && len(am.ToolCalls) > 0 && thought == nil && i == lastToolUse(req.Messages) {
			return p, fmt.Sprintf("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. "+
				"When `thinking` is enabled, a final `assistant` message must start with a thinking block "+
				"(preceeding the lastmost set of `tool_use` and `tool_result` blocks).", i)
		}
		am.Content = text.String()
		if am.Content != "" || len(am.ToolCalls) > 0 {
			p.Messages = append(p.Messages, am)
		}
		if m.Role == "user" && am.Content != "" {
			p.LastUser = am.Content
		}
	}
	for _, t := range req.Tools {
		p.Tools = append(p.Tools, t.Name)
	}
	return p, ""
}

// lastToolUse is the index of the last assistant message with a tool_use
// block (-1 for none).
func lastToolUse(ms []messagesMessage) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role != "assistant" {
			continue
		}
		for _, b := range blocks(ms[i].Content) {
			if b.Type == "tool_use" {
				return i
			}
		}
	}
	return -1
}

// text0 flattens a tool_result's content (a string or text blocks).
func text0(raw json.RawMessage) string {
	var b strings.Builder
	for _, bl := range blocks(raw) {
		b.WriteString(bl.Text)
	}
	return b.String()
}

func anthropicErrorType(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}

func writeAnthropicError(w http.ResponseWriter, status int, typ, message string) {
	type apiError struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	writeJSON(w, status, struct {
		Type  string   `json:"type"`
		Error apiError `json:"error"`
	}{"error", apiError{typ, message}})
}

// event writes one Anthropic server-sent event.
func (e *sse) event(typ string, data any) {
	if !e.ok {
		return
	}
	e.buf.Reset()
	e.buf.WriteString("event: " + typ + "\ndata: ")
	_ = e.enc.Encode(data)
	e.buf.WriteString("\n")
	e.write(e.buf.Bytes())
}

type obj = map[string]any

func (s *Server) streamMessages(w http.ResponseWriter, r *http.Request, p Prompt, rep Reply) {
	e := openSSE(w, r)
	u := usage(p, rep)
	e.event("message_start", obj{"type": "message_start", "message": obj{"id": "msg_" + newID()[9:], "type": "message",
		"role": "assistant", "content": []any{}, "model": p.Model, "stop_reason": nil, "stop_sequence": nil,
		"usage": obj{"input_tokens": u.PromptTokens, "output_tokens": 1, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}}})
	delay, ok := s.firstToken(e, rep)
	if !ok {
		return
	}
	index := 0
	begin := func(start obj) {
		e.event("content_block_start", obj{"type": "content_block_start", "index": index, "content_block": start})
	}
	delta := func(d obj) bool {
		e.event("content_block_delta", obj{"type": "content_block_delta", "index": index, "delta": d})
		return e.pause(delay)
	}
	end := func() bool {
		e.event("content_block_stop", obj{"type": "content_block_stop", "index": index})
		index++
		return e.ok
	}
	if rep.Reasoning != "" {
		begin(obj{"type": "thinking", "thinking": "", "signature": ""})
		for _, piece := range pieces(rep.Reasoning) {
			if !delta(obj{"type": "thinking_delta", "thinking": piece}) {
				return
			}
		}
		if !delta(obj{"type": "signature_delta", "signature": signature(rep.Reasoning)}) || !end() {
			return
		}
	}
	if rep.Text != "" {
		begin(obj{"type": "text", "text": ""})
		sent := 0
		for _, piece := range pieces(rep.Text) {
			if rep.DropAfter > 0 && sent >= rep.DropAfter {
				panic(http.ErrAbortHandler) // a broken stream, as when a server crashes
			}
			if !delta(obj{"type": "text_delta", "text": piece}) {
				return
			}
			sent += len(piece)
		}
		if !end() {
			return
		}
	}
	stop := "end_turn"
	for _, c := range rep.ToolCalls {
		begin(obj{"type": "tool_use", "id": strings.Replace(c.ID, "call_", "toolu_", 1), "name": c.Name, "input": obj{}})
		for _, piece := range pieces(c.Arguments) {
			if !delta(obj{"type": "input_json_delta", "partial_json": piece}) {
				return
			}
		}
		if !end() {
			return
		}
		stop = "tool_use"
	}
	e.event("message_delta", obj{"type": "message_delta", "delta": obj{"stop_reason": stop, "stop_sequence": nil},
		"usage": obj{"output_tokens": u.CompletionTokens}})
	e.event("message_stop", obj{"type": "message_stop"})
}
