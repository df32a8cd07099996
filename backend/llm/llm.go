// Package llm streams chat completions from any OpenAI-compatible server
// (OpenAI, DeepSeek, OpenRouter, Ollama, LM Studio, vLLM, llama.cpp, the
// built-in demo) on top of github.com/sashabaranov/go-openai.
//
// It normalises what providers disagree on: reasoning arrives as a
// reasoning_content or reasoning delta field, or inline in <think> tags; and
// every failure becomes an *Error with a stable Kind and a sentence for people.
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
)

// Config says where and how to reach a provider.
type Config struct {
	BaseURL string // ends in /v1, e.g. https://api.openai.com/v1, http://localhost:11434/v1
	APIKey  string // may be empty for local servers
	Model   string
	// ConnectTimeout bounds the wait for response headers (default 15s).
	ConnectTimeout time.Duration
	// IdleTimeout bounds the silence between received bytes once the
	// response has started (default 90s).
	IdleTimeout time.Duration
	// HTTPClient is optional; its Transport is wrapped, not replaced. It
	// should have no Timeout, which would cut long answers.
	HTTPClient *http.Client
}

const (
	DefaultConnectTimeout = 15 * time.Second
	DefaultIdleTimeout    = 90 * time.Second
)

// Message is one turn sent to the model.
type Message struct {
	Role    chat.Role
	Content string
}

// Request is one chat completion.
type Request struct {
	Messages    []Message
	Temperature *float32 // nil = provider default
}

// Delta is one increment of the answer. When both fields are set, Reasoning
// comes before Text.
type Delta struct {
	Text, Reasoning string
	// TextWasReasoning is set (at most once per stream) when the model closed
	// a </think> block it never opened — some chat templates put <think> in
	// the prompt. All Text delivered by earlier deltas was reasoning: move it
	// to the reasoning before applying this delta.
	TextWasReasoning bool
}

// Result describes a finished stream.
type Result struct {
	Usage        chat.Usage
	FinishReason string // "stop", "length", …
	Model        string // as reported by the provider, else Config.Model
}

// Client talks to one provider. It is safe for concurrent use.
type Client struct {
	cfg Config
	api *openai.Client
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

	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = hc
	// go-openai gives up after this many non-data lines in a row; keep-alive
	// comments during a long think must not trip it (IdleTimeout guards us).
	oc.EmptyMessagesLimit = math.MaxInt32
	return &Client{cfg: cfg, api: openai.NewClientWithConfig(oc)}
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
		Content          string    `json:"content"`
		ReasoningContent string    `json:"reasoning_content"` // DeepSeek, LM Studio, vLLM (old)
		Reasoning        looseText `json:"reasoning"`         // OpenRouter, Ollama, vLLM (new)
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
// delivered. Errors are *Error.
func (c *Client) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Result, error) {
	res := Result{Model: c.cfg.Model}
	oreq := openai.ChatCompletionRequest{
		Model:         c.cfg.Model,
		Messages:      make([]openai.ChatCompletionMessage, len(req.Messages)),
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	for i, m := range req.Messages {
		oreq.Messages[i] = openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content}
	}
	if t := req.Temperature; t != nil {
		oreq.Temperature = *t
		if *t == 0 {
			// go-openai omits a zero temperature (omitempty); this is its
			// documented stand-in for "exactly 0".
			oreq.Temperature = math.SmallestNonzeroFloat32
		}
		if openai.NewReasoningValidator().Validate(oreq) != nil {
			// Reasoning models (o1, o3, gpt-5…) only accept the default:
			// drop the user's global temperature rather than fail.
			oreq.Temperature = 0
		}
	}

	ctx, w, done := c.begin(ctx)
	defer done()
	stream, err := c.api.CreateChatCompletionStream(ctx, oreq)
	if err != nil {
		return res, c.classify(ctx, w, err, opChat)
	}
	defer stream.Close()

	var (
		split    thinkSplitter
		finished bool
		ch       streamChunk
	)
	emit := func(d Delta) {
		if d.Text != "" || d.Reasoning != "" || d.TextWasReasoning {
			onDelta(d)
		}
	}
	for {
		raw, err := stream.RecvRaw()
		if err != nil {
			emit(split.flush())
			if finished {
				// The answer is complete; a missing usage chunk or [DONE]
				// is not worth failing it.
				return res, nil
			}
			if errors.Is(err, io.EOF) && ctx.Err() == nil {
				return res, &Error{Kind: KindStreamBroken, Err: io.ErrUnexpectedEOF,
					Message: "The provider closed the connection before the answer was finished."}
			}
			return res, c.classify(ctx, w, err, opChat)
		}
		ch = streamChunk{}
		if err := json.Unmarshal(raw, &ch); err != nil {
			emit(split.flush())
			return res, &Error{Kind: KindStreamBroken, Err: err,
				Message: "The provider sent a piece of the answer Airlock could not read (" + clip(string(raw), 120) + ")."}
		}
		if msg, bad := chunkFailure(&ch); bad {
			emit(split.flush())
			return res, &Error{Kind: KindServer, Err: errors.New(msg),
				Message: sentence("The provider failed in the middle of the answer", msg, "")}
		}
		if ch.Model != "" {
			res.Model = ch.Model
		}
		if u := ch.Usage; u != nil {
			res.Usage = chat.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
		}
		if len(ch.Choices) == 0 {
			continue // usage-only chunk
		}
		c0 := &ch.Choices[0]
		reasoning := c0.Delta.ReasoningContent
		if reasoning == "" {
			reasoning = string(c0.Delta.Reasoning)
		}
		var d Delta
		if reasoning != "" {
			split.literal = true
			d.Reasoning = reasoning
		}
		if c0.Delta.Content != "" {
			t := split.feed(c0.Delta.Content)
			d.Text, d.TextWasReasoning = t.Text, t.TextWasReasoning
			d.Reasoning += t.Reasoning
		}
		emit(d)
		if c0.FinishReason != "" {
			res.FinishReason = c0.FinishReason
			finished = true
		}
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
