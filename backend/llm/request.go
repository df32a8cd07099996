package llm

import (
	"encoding/json"
	"errors"
	"math"

	openai "github.com/sashabaranov/go-openai"
)

// chatRequest builds the request go-openai sends. A request with nothing
// native (no tools, no tool calls or results, no reasoning sent back) is
// go-openai's own, unchanged. Otherwise body is the JSON to send instead:
// go-openai's request with the messages written by us, because its message
// type cannot say what native exchanges need (see wireMessage).
func (c *Client) chatRequest(req Request) (oreq openai.ChatCompletionRequest, body []byte, err error) {
	oreq = openai.ChatCompletionRequest{
		Model:         c.cfg.Model,
		Messages:      make([]openai.ChatCompletionMessage, len(req.Messages)),
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	native := len(req.Tools) > 0
	for i, m := range req.Messages {
		oreq.Messages[i] = openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content}
		if len(m.ImageURLs) > 0 {
			oreq.Messages[i].Content, oreq.Messages[i].MultiContent = "", multiContent(m)
		}
		if len(m.ToolCalls) > 0 || m.ToolCallID != "" || m.Name != "" || m.Reasoning != "" {
			native = true
			om := &oreq.Messages[i]
			om.ToolCallID, om.Name, om.ReasoningContent = m.ToolCallID, m.Name, m.Reasoning
			for _, tc := range m.ToolCalls {
				om.ToolCalls = append(om.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: tc.Name, Arguments: sentArguments(tc.Arguments)}})
			}
		}
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		oreq.Tools = append(oreq.Tools, openai.Tool{Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	if len(req.Tools) > 0 && req.ParallelToolCalls != nil {
		oreq.ParallelToolCalls = *req.ParallelToolCalls
	}
	setOptions(&oreq, req, c.cfg.MaxTokens)
	if !native {
		return oreq, nil, nil
	}
	msgs := make([]wireMessage, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = wireMessage{Role: string(m.Role), Content: m.Content, Name: m.Name,
			ReasoningContent: m.Reasoning, ToolCallID: m.ToolCallID}
		if len(m.ImageURLs) > 0 {
			msgs[i].Content = multiContent(m)
		}
		for _, tc := range m.ToolCalls {
			w := wireToolCall{ID: tc.ID, Type: "function", ExtraContent: tc.Extra}
			w.Function.Name, w.Function.Arguments = tc.Name, sentArguments(tc.Arguments)
			msgs[i].ToolCalls = append(msgs[i].ToolCalls, w)
		}
	}
	body, err = json.Marshal(nativeRequest{ChatCompletionRequest: &oreq, Messages: msgs})
	return oreq, body, err
}

// setOptions sends the generation options the model accepts (budget: the
// client's answer budget when the request sets none). Reasoning
// models (o1, o3, gpt-5…) take only the default temperature and top_p, and
// max_completion_tokens instead of max_tokens: what they refuse is dropped
// rather than failing the answer.
func setOptions(oreq *openai.ChatCompletionRequest, req Request, budget int) {
	if t := req.Temperature; t != nil {
		oreq.Temperature = *t
		if *t == 0 {
			// go-openai omits a zero temperature (omitempty); this is its
			// documented stand-in for "exactly 0".
			oreq.Temperature = math.SmallestNonzeroFloat32
		}
	}
	if p := req.TopP; p != nil && *p > 0 {
		oreq.TopP = *p
	}
	refuses := func(probe openai.ChatCompletionRequest) bool {
		probe.Model = oreq.Model
		return openai.NewReasoningValidator().Validate(probe) != nil
	}
	if refuses(openai.ChatCompletionRequest{Temperature: 0.5}) {
		oreq.Temperature = 0
	}
	if refuses(openai.ChatCompletionRequest{TopP: 0.5}) {
		oreq.TopP = 0
	}
	// The answer budget: the request's (an agent's, a Continue's), else the
	// client's (Config.MaxTokens). OpenAI's reasoning models take it as
	// max_completion_tokens only; every other server reads max_tokens.
	if n := req.MaxTokens; n > 0 || budget > 0 {
		if n <= 0 {
			n = budget
		}
		if refuses(openai.ChatCompletionRequest{MaxTokens: 1}) {
			oreq.MaxCompletionTokens = n
		} else {
			oreq.MaxTokens = n
		}
	}
}

// nativeRequest is go-openai's request with our messages: the outer
// Messages field hides the embedded one when marshalled.
type nativeRequest struct {
	*openai.ChatCompletionRequest
	Messages []wireMessage `json:"messages"`
}

// wireMessage is a message as sent when the request is native. Unlike
// go-openai's, it always sends content: DeepSeek rejects an assistant
// message with tool calls and no content field, and a tool result may be
// empty. For an assistant message with only tool calls the content is "",
// not null: OpenAI, DeepSeek, vLLM, llama.cpp and Bedrock's OpenAI layer
// take both, while Ollama (some versions and its cloud), older
// mlx-openai-server and Bedrock-backed gateways have rejected or dropped
// null.
type wireMessage struct {
	Role             string         `json:"role"`
	Content          any            `json:"content"` // a string, or the parts of a message with images
	Name             string         `json:"name,omitempty"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"` // a JSON text in a string, as OpenAI defines it
	} `json:"function"`
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
}

// multiContent is a message with images as OpenAI content parts: its text
// (when any), then one image_url part per image.
func multiContent(m Message) []openai.ChatMessagePart {
	var parts []openai.ChatMessagePart
	if m.Content != "" {
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: m.Content})
	}
	for _, u := range m.ImageURLs {
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL,
			ImageURL: &openai.ChatMessageImageURL{URL: u}})
	}
	return parts
}

// sentArguments is what goes back to the server for a call's arguments: an
// empty text (a call without parameters) as "{}", which every server reads.
func sentArguments(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// toolsRefused tells go-openai's own refusals of tools for a model.
func toolsRefused(err error) bool {
	return errors.Is(err, openai.ErrReasoningToolsRequireResponses) || errors.Is(err, openai.ErrO1BetaLimitationsTools)
}
