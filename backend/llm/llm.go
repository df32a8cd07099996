// Package llm streams chat completions from any OpenAI-compatible server
// (OpenAI, DeepSeek, OpenRouter, Ollama, LM Studio, vLLM, llama.cpp, the
// built-in demo) on top of github.com/sashabaranov/go-openai.
//
// It normalises what providers disagree on: reasoning arrives as a
// reasoning_content or reasoning delta field, or inline in <think> tags;
// native tool calls arrive cut up in different ways (see toolAccumulator);
// and every failure becomes an *Error with a stable Kind and a sentence for
// people, KindToolsUnsupported and KindContextOverflow (with the numbers
// the server stated, Error.Overflow) among them.
//
// It also knows what the servers say of their models' context windows
// (Client.Window: window.go, one file per kind of server, and a table of
// well-known models), detects a server's silent cut of a prompt
// (DetectTruncation), and sends the answer budget (Config.MaxTokens).
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"airlock/backend/chat"
	"airlock/backend/redact"
	"airlock/backend/uitext"
)

// Config says where and how to reach a provider.
type Config struct {
	// Kind is the wire: chat.APIOpenAI ("" reads as it) or chat.APIAnthropic.
	Kind string
	// BaseURL ends in /v1 for OpenAI-compatible servers
	// (https://api.openai.com/v1, http://localhost:11434/v1); for Anthropic
	// Messages it is the address /v1/messages hangs from
	// (https://api.anthropic.com, https://api.deepseek.com/anthropic; a
	// trailing /v1 is dropped).
	BaseURL string
	APIKey  string // may be empty for local servers
	Model   string
	// ConnectTimeout bounds the wait for response headers (default 15s).
	ConnectTimeout time.Duration
	// IdleTimeout bounds the silence between received bytes once the
	// response has started (default 90s).
	IdleTimeout time.Duration
	// MaxTokens, when above 0, is the answer budget sent as max_tokens
	// (max_completion_tokens for OpenAI's reasoning models) with every
	// request that does not set its own: the user's setting for the model.
	// 0 leaves it to the server.
	MaxTokens int
	// HTTPClient is optional; its Transport is wrapped, not replaced. It
	// should have no Timeout, which would cut long answers.
	HTTPClient *http.Client
	// ThinkingBudget, on the Anthropic wire, turns extended thinking on with
	// this many tokens to think (0 = off). The answer keeps its own
	// AnthropicMaxTokens on top, and no temperature is sent (the API takes
	// none with thinking).
	ThinkingBudget int
	// RetryWait is the first wait before asking an overloaded server again
	// (Anthropic Messages: HTTP 529, overloaded_error); it doubles each
	// time (default 2s).
	RetryWait time.Duration
}

const (
	DefaultConnectTimeout = 15 * time.Second
	DefaultIdleTimeout    = 90 * time.Second
)

// RoleTool is the role of a message that carries one native tool result.
const RoleTool chat.Role = "tool"

// Message is one turn sent to the model.
type Message struct {
	Role    chat.Role
	Content string

	// ToolCalls are the native calls an assistant message made, to send back
	// with it. Arguments go as given (an empty string as "{}"): Ollama,
	// SGLang and several chat templates reject a conversation whose earlier
	// arguments are not a JSON object, so send repaired ones.
	ToolCalls []ToolCall
	// ToolCallID, on a RoleTool message, is the id of the call it answers.
	ToolCallID string
	// Name, on a RoleTool message, is the tool's name. Optional: Ollama
	// finds it from ToolCallID, and strict servers may reject it.
	Name string
	// Reasoning, when set on an assistant message, is sent back as
	// reasoning_content. DeepSeek's thinking mode requires it on assistant
	// messages with tool calls; leave it empty for other providers.
	Reasoning string
	// ImageURLs, on a user message, are images sent after Content as
	// OpenAI image_url parts (data: URLs); Content becomes the text part.
	ImageURLs []string
	// Thoughts, on an assistant message with ToolCalls, are its signed
	// reasoning blocks, sent back unchanged (Anthropic Messages).
	Thoughts []chat.Thought
	// IsError, on a RoleTool message, says the call failed or was not run
	// (Anthropic's is_error).
	IsError bool
}

// Tool is a function the model may call natively.
type Tool struct {
	Name        string
	Description string
	// Parameters is a JSON Schema object; empty means no parameters.
	Parameters json.RawMessage
}

// ToolCall is a call the model made natively.
type ToolCall struct {
	ID   string // the server's id, else call_<n> (unique in the answer)
	Name string
	// Arguments is the text the server sent, joined: usually a JSON object,
	// but it may be invalid or cut off. It is not repaired here.
	Arguments string
	// Truncated says the arguments (or the name) passed the limits
	// (MaxToolArguments) and were cut.
	Truncated bool
	// Incomplete says the answer ended before the call did (cut off at the
	// output limit, or the stream broke inside it): never run it.
	Incomplete bool
	// Extra is provider data to send back with the call, as it came:
	// Gemini's extra_content ({"google":{"thought_signature":…}}), without
	// which Gemini 3 rejects the next request.
	Extra json.RawMessage
}

// Request is one chat completion.
type Request struct {
	Messages    []Message
	Temperature *float32 // nil = provider default
	TopP        *float32 // nil = provider default
	// Tools offered for native calls. Empty: no tools are sent, and the
	// request is exactly what it was before native calls existed.
	Tools []Tool
	// ParallelToolCalls, when set and Tools is not empty, is sent as
	// parallel_tool_calls.
	ParallelToolCalls *bool
	// MaxTokens, when above 0, bounds the answer (else Config.MaxTokens;
	// on the Anthropic wire, which requires one, else AnthropicMaxTokens).
	MaxTokens int
}

// Delta is one increment of the answer. When several fields are set, they
// apply in order: Reasoning, Text, ToolCalls.
type Delta struct {
	Text, Reasoning string
	// TextWasReasoning is set (at most once per stream) when the model closed
	// a </think> block it never opened — some chat templates put <think> in
	// the prompt. All Text delivered by earlier deltas was reasoning: move it
	// to the reasoning before applying this delta.
	TextWasReasoning bool
	// ToolCalls are what arrived of native calls, for showing them as they
	// form. Result.ToolCalls is what counts.
	ToolCalls []ToolCallDelta
	// Notice is something to tell the person about this answer that is not
	// part of it ("the server is overloaded; trying again in 2 seconds").
	Notice string
}

// ToolCallDelta is what one streamed piece added to a native call.
type ToolCallDelta struct {
	// Index is the call's position in Result.ToolCalls (not the server's
	// index). A delta with a new Index starts a call.
	Index int
	ID    string // the server's id, once, when it arrives
	Name  string // to append to the name (usually the whole name, once)
	// Arguments is the next fragment of the arguments text.
	Arguments string
}

// Result describes a finished stream. On error it holds what arrived.
type Result struct {
	Usage        chat.Usage
	FinishReason string // "stop", "length", "tool_calls"… ("" when the server sent none)
	Model        string // as reported by the provider, else Config.Model
	// ToolCalls are the native calls, complete, in the order they began.
	ToolCalls []ToolCall
	// ToolCallsDropped says the answer had more than MaxToolCalls calls;
	// the later ones were ignored.
	ToolCallsDropped bool
	// Thoughts are the answer's signed reasoning blocks (Anthropic
	// Messages), to keep and send back with its tool calls.
	Thoughts []chat.Thought
}

// FinishLength is the finish reason of an answer the token budget cut off.
const FinishLength = "length"

// CutOff says the answer stopped because it reached its token budget
// (max_tokens, or what was left of the window), not because the model was
// done: it can be continued.
func (r Result) CutOff() bool { return r.FinishReason == FinishLength }

// Client talks to one provider. It is safe for concurrent use.
type Client struct {
	cfg Config
	api *openai.Client
	ant *antServices // set when the provider speaks Anthropic Messages
	hc  *http.Client // for the requests go-openai does not make (window discovery)
	// shown is BaseURL as errors print it, its secrets masked; secrets are
	// the values masked in every error's text (see clean).
	shown   string
	secrets []string
}

// New builds a client; zero timeouts take the defaults.
func New(cfg Config) *Client {
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	cfg.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")

	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		copied := *cfg.HTTPClient
		hc = &copied
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = &watchTransport{base: base}

	if cfg.Kind == chat.APIAnthropic {
		return newAnthropic(cfg, hc)
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = hc
	// go-openai gives up after this many non-data lines in a row; keep-alive
	// comments during a long think must not trip it (IdleTimeout guards us).
	oc.EmptyMessagesLimit = math.MaxInt32
	return &Client{cfg: cfg, api: openai.NewClientWithConfig(oc), hc: hc, shown: redact.URL(cfg.BaseURL),
		secrets: append(redact.Secrets(cfg.BaseURL), cfg.APIKey)}
}

// streamChunk is the part of a chat.completion.chunk we use. We decode it
// ourselves (go-openai's type lacks the "reasoning" field and error shapes).
type streamChunk struct {
	Model   string        `json:"model"`
	Object  string        `json:"object"`
	Message string        `json:"message"` // vLLM error object: {"object":"error","message":…}
	Error   *chunkError   `json:"error"`   // OpenRouter mid-stream error
	Choices []chunkChoice `json:"choices"`
	Usage   *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

type chunkChoice struct {
	Delta struct {
		Content          string          `json:"content"`
		ReasoningContent string          `json:"reasoning_content"` // DeepSeek, LM Studio, vLLM (old)
		Reasoning        looseText       `json:"reasoning"`         // OpenRouter, Ollama, vLLM (new)
		ToolCalls        []chunkToolCall `json:"tool_calls"`
	} `json:"delta"`
	FinishReason string `json:"finish_reason"`
}

type chunkError struct {
	Message string `json:"message"`
}

// looseText is a string field some providers fill with other shapes; those
// are ignored rather than failing the whole chunk.
type looseText string

func (t *looseText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, (*string)(t))
	}
	return nil
}

// Stream sends req and calls onDelta, from the calling goroutine, for every
// increment until the answer ends. Text delivered before a failure stays
// delivered, and the Result holds the tool calls that arrived. Errors are
// *Error.
func (c *Client) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Result, error) {
	if c.ant != nil {
		res, err := c.streamAnthropic(ctx, req, onDelta)
		return res, c.clean(err)
	}
	res, err := c.stream(ctx, req, onDelta)
	return res, c.clean(err)
}

func (c *Client) stream(ctx context.Context, req Request, onDelta func(Delta)) (Result, error) {
	res := Result{Model: c.cfg.Model}
	oreq, body, err := c.chatRequest(req)
	if err != nil {
		return res, (&Error{Kind: KindBadRequest, Err: err}).say(sentence(txtCannotBuild.With(), err.Error(), uitext.Text{}))
	}
	what := opChat
	if len(req.Tools) > 0 {
		what = opChatTools
	}

	ctx, w, done := c.begin(ctx)
	defer done()
	w.body, w.maxLine = body, maxStreamLine
	stream, err := c.api.CreateChatCompletionStream(ctx, oreq)
	if err != nil {
		return res, c.classify(ctx, w, err, what)
	}
	defer stream.Close()

	a := answer{res: &res, onDelta: onDelta, calls: newToolAccumulator()}
	err = a.read(stream, func(err error) error {
		if errors.Is(err, io.EOF) && ctx.Err() == nil {
			if w.sawDone.Load() {
				return nil // [DONE] without a finish_reason: complete all the same
			}
			return (&Error{Kind: KindStreamBroken, Err: io.ErrUnexpectedEOF}).say(txtClosedEarly.With())
		}
		return c.classify(ctx, w, err, what)
	}, what)
	res.ToolCalls, res.ToolCallsDropped = a.calls.result(), a.calls.dropped
	return res, err
}

// answer follows one streamed answer.
type answer struct {
	res      *Result
	onDelta  func(Delta)
	split    thinkSplitter
	calls    toolAccumulator
	finished bool
}

func (a *answer) emit(d Delta) {
	if d.Text != "" || d.Reasoning != "" || d.TextWasReasoning || len(d.ToolCalls) > 0 || d.Notice != "" {
		a.onDelta(d)
	}
}

// read consumes the stream; ended turns the error that ended it (io.EOF
// included) into the one to return.
func (a *answer) read(stream *openai.ChatCompletionStream, ended func(error) error, what op) error {
	var ch streamChunk
	for {
		raw, err := stream.RecvRaw()
		if err != nil {
			a.emit(a.split.flush())
			if a.finished {
				// The answer is complete; a missing usage chunk or [DONE]
				// is not worth failing it.
				return nil
			}
			return ended(err)
		}
		ch = streamChunk{}
		if err := json.Unmarshal(raw, &ch); err != nil {
			a.emit(a.split.flush())
			return (&Error{Kind: KindStreamBroken, Err: err}).say(txtUnreadable.With("piece", clip(string(raw), 120)))
		}
		if msg, bad := chunkFailure(&ch); bad {
			a.emit(a.split.flush())
			return midStreamError(msg, errors.New(msg), what)
		}
		a.chunk(&ch)
	}
}

func (a *answer) chunk(ch *streamChunk) {
	if ch.Model != "" {
		a.res.Model = ch.Model
	}
	if u := ch.Usage; u != nil {
		a.res.Usage = chat.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	}
	if len(ch.Choices) == 0 {
		return // usage-only chunk
	}
	c0 := &ch.Choices[0]
	reasoning := c0.Delta.ReasoningContent
	if reasoning == "" {
		reasoning = string(c0.Delta.Reasoning)
	}
	var d Delta
	if reasoning != "" {
		a.split.literal = true
		d.Reasoning = reasoning
	}
	if c0.Delta.Content != "" {
		t := a.split.feed(c0.Delta.Content)
		d.Text, d.TextWasReasoning = t.Text, t.TextWasReasoning
		d.Reasoning += t.Reasoning
	}
	for i := range c0.Delta.ToolCalls {
		d.ToolCalls = a.calls.add(&c0.Delta.ToolCalls[i], d.ToolCalls)
	}
	a.emit(d)
	if c0.FinishReason != "" {
		a.res.FinishReason = c0.FinishReason
		a.finished = true
	}
}

// chunkFailure spots the ways providers report an error inside a 200 stream.
func chunkFailure(ch *streamChunk) (string, bool) {
	if ch.Error != nil {
		return ch.Error.Message, true
	}
	if ch.Object == "error" {
		return ch.Message, true
	}
	return "", false
}

// ListModels returns the model IDs the provider offers, sorted.
func (c *Client) ListModels(ctx context.Context) ([]string, error) {
	if c.ant != nil {
		ids, err := c.listAnthropicModels(ctx)
		return ids, c.clean(err)
	}
	ids, err := c.listModels(ctx)
	return ids, c.clean(err)
}

func (c *Client) listModels(ctx context.Context) ([]string, error) {
	ctx, w, done := c.begin(ctx)
	defer done()
	list, err := c.api.ListModels(ctx)
	if err != nil {
		return nil, c.classify(ctx, w, err, opModels)
	}
	ids := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	return ids, nil
}
