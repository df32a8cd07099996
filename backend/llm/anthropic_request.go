package llm

import (
	"encoding/json"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"airlock/backend/chat"
)

// AnthropicMaxTokens is the answer budget (max_tokens) of an Anthropic
// Messages request when neither the request nor Config.MaxTokens sets one:
// the API requires one, and Claude's current models and the compatible
// endpoints (DeepSeek, GLM, Kimi, MiniMax) all take this one.
const AnthropicMaxTokens = 8192

// anthropicParams turns a Request into a Messages request:
//   - system messages become the system prompt, marked cacheable;
//   - an assistant message is its signed thoughts, its text and one
//     tool_use block per call, in that order;
//   - RoleTool messages become tool_result blocks, first in the next user
//     message (is_error where the call failed);
//   - consecutive messages of one role are joined (the API wants turns to
//     alternate), and empty text is left out (the API refuses it).
//
// The extra options carry what the SDK's params do not (temperature).
func (c *Client) anthropicParams(req Request) (anthropic.MessageNewParams, []option.RequestOption) {
	p := anthropic.MessageNewParams{Model: anthropic.Model(c.cfg.Model), MaxTokens: AnthropicMaxTokens}
	switch {
	case req.MaxTokens > 0:
		p.MaxTokens = int64(req.MaxTokens)
	case c.cfg.MaxTokens > 0:
		p.MaxTokens = int64(c.cfg.MaxTokens)
	}
	var system []string
	var turns []antTurn
	add := func(assistant bool, blocks ...anthropic.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(turns); n > 0 && turns[n-1].assistant == assistant {
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
			return
		}
		turns = append(turns, antTurn{assistant: assistant, blocks: blocks})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case chat.RoleSystem:
			if s := strings.TrimSpace(m.Content); s != "" {
				system = append(system, s)
			}
		case RoleTool:
			add(false, toolResultBlock(m))
		case chat.RoleAssistant:
			add(true, assistantBlocks(m)...)
		default:
			var blocks []anthropic.ContentBlockParamUnion
			if strings.TrimSpace(m.Content) != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, u := range m.ImageURLs {
				if mime, data, ok := strings.Cut(strings.TrimPrefix(u, "data:"), ";base64,"); ok && strings.HasPrefix(u, "data:") {
					blocks = append(blocks, anthropic.NewImageBlockBase64(mime, data))
				}
			}
			add(false, blocks...)
		}
	}
	for _, t := range turns {
		if t.assistant {
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(t.blocks...))
		} else {
			p.Messages = append(p.Messages, anthropic.NewUserMessage(t.blocks...))
		}
	}
	if len(system) > 0 {
		// The system prompt (and the paradigm's tool instructions in it)
		// is the same every turn: cache it.
		p.System = []anthropic.TextBlockParam{{Text: strings.Join(system, "\n\n"), CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	for i, t := range req.Tools {
		tp := anthropic.ToolParam{Name: t.Name, InputSchema: inputSchema(t.Parameters)}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		if i == len(req.Tools)-1 {
			// A breakpoint on the last tool caches every definition.
			tp.CacheControl = anthropic.NewCacheControlEphemeralParam()
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	var opts []option.RequestOption
	if b := c.cfg.ThinkingBudget; b > 0 {
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(b))
		p.MaxTokens += int64(b)
		return p, opts
	}
	if t := req.Temperature; t != nil {
		// The API takes 0 to 1; the setting may go to 2 for OpenAI.
		opts = append(opts, option.WithJSONSet("temperature", min(max(float64(*t), 0), 1)))
	}
	return p, opts
}

type antTurn struct {
	assistant bool
	blocks    []anthropic.ContentBlockParamUnion
}

// assistantBlocks is an answer as sent back. Its signed thoughts go first,
// unchanged: the API checks their signatures on a tool-use turn.
func assistantBlocks(m Message) []anthropic.ContentBlockParamUnion {
	var out []anthropic.ContentBlockParamUnion
	if len(m.ToolCalls) > 0 {
		for _, t := range m.Thoughts {
			switch {
			case t.Redacted != "":
				out = append(out, anthropic.NewRedactedThinkingBlock(t.Redacted))
			case t.Signature != "" || t.Text != "":
				out = append(out, anthropic.NewThinkingBlock(t.Signature, t.Text))
			}
		}
	}
	// An answer may not end in white space (the API reads that as a
	// prefill); inside a conversation trimming changes nothing.
	if text := strings.TrimRight(m.Content, " \t\r\n"); text != "" {
		out = append(out, anthropic.NewTextBlock(text))
	}
	for _, tc := range m.ToolCalls {
		args := json.RawMessage(sentArguments(tc.Arguments))
		if !json.Valid(args) {
			args = json.RawMessage("{}")
		}
		out = append(out, anthropic.NewToolUseBlock(tc.ID, args, tc.Name))
	}
	return out
}

// toolResultBlock is a RoleTool message as a tool_result block. An empty
// result is sent without content (the API refuses an empty text block).
func toolResultBlock(m Message) anthropic.ContentBlockParamUnion {
	b := anthropic.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.IsError {
		b.IsError = anthropic.Bool(true)
	}
	if strings.TrimSpace(m.Content) != "" {
		b.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: m.Content}}}
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &b}
}

// inputSchema is a tool's JSON Schema as the SDK's type: properties and
// required in their fields, every other keyword kept as it was.
func inputSchema(params json.RawMessage) anthropic.ToolInputSchemaParam {
	s := anthropic.ToolInputSchemaParam{Properties: map[string]any{}}
	var m map[string]any
	if len(params) == 0 || json.Unmarshal(params, &m) != nil {
		return s
	}
	if p, ok := m["properties"]; ok && p != nil {
		s.Properties = p
	}
	if r, ok := m["required"].([]any); ok {
		for _, v := range r {
			if name, ok := v.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	delete(m, "properties")
	delete(m, "required")
	delete(m, "type")
	if len(m) > 0 {
		s.ExtraFields = m
	}
	return s
}
