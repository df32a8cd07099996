package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"airlock/backend/chat"
	"airlock/backend/redact"
)

// Anthropic Messages (/v1/messages) on the official SDK: Claude, and the
// Anthropic-compatible endpoints of DeepSeek, Zhipu GLM, Moonshot Kimi,
// MiniMax, LiteLLM and claude-code-router. The SDK sends the request and
// decodes the server-sent events; here they become the same Deltas and
// Result as the OpenAI wire, so the engine does not know which it talks to.

const (
	// DefaultRetryWait is the first wait before asking an overloaded
	// server again; it doubles each time.
	DefaultRetryWait = 2 * time.Second
	// maxAttempts bounds the tries of one request that meets an overloaded
	// server (or a short rate limit) before anything of the answer arrived.
	maxAttempts = 4
	// maxRetryAfter is the longest Retry-After waited out by itself; a
	// longer one is reported.
	maxRetryAfter = 20 * time.Second
	// maxModelPages bounds the pages of /v1/models read (1000 models each).
	maxModelPages = 10
)

// newAnthropic builds a client for an Anthropic Messages server. The key
// goes as x-api-key, which Anthropic wants; other hosts get it as a bearer
// token too, which DeepSeek, GLM, Kimi, MiniMax and LiteLLM document (the
// same secret, to the same server). Nothing is read from the environment
// (ANTHROPIC_API_KEY and co. would leak into a provider that has no key:
// the services are built without NewClient's environment defaults),
// and the SDK does not retry by itself: streamAnthropic does, and says so.
func newAnthropic(cfg Config, hc *http.Client) *Client {
	if cfg.RetryWait <= 0 {
		cfg.RetryWait = DefaultRetryWait
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/v1")
	opts := []option.RequestOption{option.WithHTTPClient(hc), option.WithMaxRetries(0)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL+"/"))
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithHeader("x-api-key", cfg.APIKey))
		if u, err := url.Parse(cfg.BaseURL); err == nil && !isAnthropicHost(u.Hostname()) {
			opts = append(opts, option.WithHeader("authorization", "Bearer "+cfg.APIKey))
		}
	}
	// The two services used, not anthropic.NewClient: a Client holds every
	// service of the API (beta, organization…), whose code would all be
	// linked in (about 20 MB more binary).
	opts = append([]option.RequestOption{option.WithEnvironmentProduction()}, opts...)
	ant := &antServices{messages: anthropic.NewMessageService(opts...), models: anthropic.NewModelService(opts...)}
	return &Client{cfg: cfg, ant: ant, hc: hc, shown: redact.URL(cfg.BaseURL),
		secrets: append(redact.Secrets(cfg.BaseURL), cfg.APIKey)}
}

// antServices are the parts of the SDK a client uses.
type antServices struct {
	messages anthropic.MessageService
	models   anthropic.ModelService
}

func isAnthropicHost(h string) bool {
	h = strings.ToLower(h)
	return h == "anthropic.com" || strings.HasSuffix(h, ".anthropic.com")
}

// streamAnthropic sends req, asking again (after a growing wait, said in a
// Notice) while the server is overloaded or briefly rate-limited and
// nothing of the answer has arrived yet.
func (c *Client) streamAnthropic(ctx context.Context, req Request, onDelta func(Delta)) (Result, error) {
	params, opts := c.anthropicParams(req)
	what := opChat
	if len(req.Tools) > 0 {
		what = opChatTools
	}
	wait := c.cfg.RetryWait
	for attempt := 1; ; attempt++ {
		res, started, err := c.anthropicOnce(ctx, params, opts, what, onDelta)
		var e *Error
		if err == nil || started || attempt == maxAttempts || !errors.As(err, &e) || !retryable(e) {
			return res, err
		}
		d := max(wait, e.RetryAfter)
		onDelta(Delta{Notice: fmt.Sprintf("%s Airlock asks again in %s (attempt %d of %d).",
			strings.TrimSuffix(retryReason(e), "."), humanSeconds(d), attempt+1, maxAttempts)})
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return res, (&Error{Kind: KindTimeout, Err: ctx.Err()}).say(txtTimeout.With())
			}
			return res, (&Error{Kind: KindCanceled, Err: ctx.Err()}).say(txtStopped.With())
		case <-t.C:
		}
		wait *= 2
	}
}

// retryable: an overloaded server (529, overloaded_error, 503) or a rate
// limit that names a short wait.
func retryable(e *Error) bool {
	switch {
	case e.Kind == KindServer && (e.StatusCode == 529 || e.StatusCode == http.StatusServiceUnavailable || e.overloaded):
		return true
	case e.Kind == KindRateLimited:
		return e.RetryAfter > 0 && e.RetryAfter <= maxRetryAfter
	}
	return false
}

func retryReason(e *Error) string {
	if e.Kind == KindRateLimited {
		return "The provider is rate-limiting requests."
	}
	return "The provider is overloaded."
}

// anthropicOnce is one try. started says something of the answer reached
// onDelta (then it is not asked again).
func (c *Client) anthropicOnce(ctx context.Context, params anthropic.MessageNewParams, opts []option.RequestOption,
	what op, onDelta func(Delta)) (Result, bool, error) {
	res := Result{Model: c.cfg.Model}
	ctx, w, done := c.begin(ctx)
	defer done()
	stream := c.ant.messages.NewStreaming(ctx, params, opts...)
	defer stream.Close()
	a := antAnswer{answer: answer{res: &res, onDelta: onDelta, calls: newToolAccumulator()}, blocks: map[int64]*antBlock{}}
	for stream.Next() {
		a.event(stream.Current())
	}
	err := stream.Err()
	a.end()
	switch {
	case err != nil:
		return res, a.started, c.classifyAnthropic(ctx, w, err, what)
	case !a.stopped && ctx.Err() != nil:
		return res, a.started, c.classify(ctx, w, ctx.Err(), what)
	case !a.stopped:
		return res, a.started, (&Error{Kind: KindStreamBroken, Err: errors.New("no message_stop")}).say(txtClosedEarly.With())
	}
	return res, a.started, nil
}

// antAnswer follows one streamed message: content blocks by their index.
type antAnswer struct {
	answer
	blocks  map[int64]*antBlock
	started bool // a delta reached onDelta
	stopped bool // message_stop arrived
	usage   anthropic.MessageDeltaUsage
}

type antBlock struct {
	kind    string // text, thinking, redacted_thinking, tool_use, or another the API added
	thought int    // position in Result.Thoughts (thinking blocks)
	call    int    // position in the accumulator (tool_use), -1 when dropped
	done    bool   // content_block_stop arrived
}

func (a *antAnswer) emit(d Delta) {
	if d.Text != "" || d.Reasoning != "" || d.TextWasReasoning || len(d.ToolCalls) > 0 {
		a.started = true
	}
	a.answer.emit(d)
}

func (a *antAnswer) event(ev anthropic.MessageStreamEventUnion) {
	switch ev.Type {
	case "message_start":
		if ev.Message.Model != "" {
			a.res.Model = string(ev.Message.Model)
		}
		u := ev.Message.Usage
		a.usage = anthropic.MessageDeltaUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadInputTokens: u.CacheReadInputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens}
		a.setUsage()
	case "content_block_start":
		a.start(ev.Index, ev.ContentBlock)
	case "content_block_delta":
		a.delta(ev.Index, ev.Delta)
	case "content_block_stop":
		if b := a.blocks[ev.Index]; b != nil {
			b.done = true
		}
	case "message_delta":
		a.res.FinishReason = finishReason(ev.Delta.StopReason)
		// Usage here is cumulative; some compatible servers send the
		// input counts only here, others only in message_start.
		u := ev.Usage
		a.usage.OutputTokens = max(a.usage.OutputTokens, u.OutputTokens)
		a.usage.InputTokens = max(a.usage.InputTokens, u.InputTokens)
		a.usage.CacheReadInputTokens = max(a.usage.CacheReadInputTokens, u.CacheReadInputTokens)
		a.usage.CacheCreationInputTokens = max(a.usage.CacheCreationInputTokens, u.CacheCreationInputTokens)
		a.setUsage()
		// max_tokens is FinishLength: the engine marks the answer cut off
		// and offers Continue, as for the OpenAI wire.
		if ev.Delta.StopReason == anthropic.StopReasonRefusal {
			a.emit(a.split.flush())
			a.emit(Delta{Notice: "The model declined to go on with this answer (stop reason: refusal)."})
		}
	case "message_stop":
		a.stopped = true
	}
}

func (a *antAnswer) setUsage() {
	u := a.usage
	prompt := int(u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens)
	a.res.Usage = chat.Usage{PromptTokens: prompt, CompletionTokens: int(u.OutputTokens),
		TotalTokens: prompt + int(u.OutputTokens), CacheReadTokens: int(u.CacheReadInputTokens),
		CacheWriteTokens: int(u.CacheCreationInputTokens)}
}

func (a *antAnswer) start(index int64, cb anthropic.ContentBlockStartEventContentBlockUnion) {
	b := &antBlock{kind: cb.Type, thought: -1, call: -1}
	a.blocks[index] = b
	switch cb.Type {
	case "text":
		a.text(cb.Text)
	case "thinking":
		b.thought = len(a.res.Thoughts)
		a.res.Thoughts = append(a.res.Thoughts, chat.Thought{Signature: cb.Signature})
		a.thinking(b, cb.Thinking)
	case "redacted_thinking":
		// Opaque: kept to send back, never shown.
		a.res.Thoughts = append(a.res.Thoughts, chat.Thought{Redacted: cb.Data})
	case "tool_use":
		tc := chunkToolCall{Index: looseIndex{n: int(index), set: true}, ID: looseText(cb.ID)}
		tc.Function.Name = looseText(cb.Name)
		// The input starts as {} and arrives in input_json_delta pieces; a
		// server that sends it whole here is taken at its word.
		if in, err := json.Marshal(cb.Input); err == nil && cb.Input != nil && string(in) != "{}" {
			tc.Function.Arguments = argText(in)
		}
		var d Delta
		d.ToolCalls = a.calls.add(&tc, nil)
		if pos, ok := a.calls.byIndex[int(index)]; ok {
			b.call = pos
		}
		a.emit(d)
	}
}

func (a *antAnswer) delta(index int64, d anthropic.MessageStreamEventUnionDelta) {
	b := a.blocks[index]
	if b == nil {
		return // a delta for a block that never started: nothing to attach it to
	}
	switch d.Type {
	case "text_delta":
		a.text(d.Text)
	case "thinking_delta":
		a.thinking(b, d.Thinking)
	case "signature_delta":
		if b.thought >= 0 {
			a.res.Thoughts[b.thought].Signature += d.Signature
		}
	case "input_json_delta":
		if b.call < 0 || d.PartialJSON == "" {
			return
		}
		tc := chunkToolCall{Index: looseIndex{n: int(index), set: true}}
		tc.Function.Arguments = argText(d.PartialJSON)
		a.emit(Delta{ToolCalls: a.calls.add(&tc, nil)})
	}
}

func (a *antAnswer) text(s string) {
	if s == "" {
		return
	}
	t := a.split.feed(s)
	a.emit(Delta{Text: t.Text, Reasoning: t.Reasoning, TextWasReasoning: t.TextWasReasoning})
}

func (a *antAnswer) thinking(b *antBlock, s string) {
	if s == "" || b.thought < 0 {
		return
	}
	a.split.literal = true // reasoning comes in its own blocks: <think> in text is text
	a.res.Thoughts[b.thought].Text += s
	a.emit(Delta{Reasoning: s})
}

// end closes the answer: what the splitter held back, the calls as they
// stand (a call whose block never stopped is Incomplete), and the thoughts
// worth keeping: every thinking block, signed or not (DeepSeek's endpoint
// wants its own back too, and refuses a tool-use turn without them), but
// not an empty one.
func (a *antAnswer) end() {
	a.emit(a.split.flush())
	a.res.ToolCalls, a.res.ToolCallsDropped = a.calls.result(), a.calls.dropped
	for _, b := range a.blocks {
		if b.kind == "tool_use" && !b.done && b.call >= 0 && b.call < len(a.res.ToolCalls) {
			a.res.ToolCalls[b.call].Incomplete = true
		}
	}
	a.res.Thoughts = slices.DeleteFunc(a.res.Thoughts, func(t chat.Thought) bool { return t == chat.Thought{} })
	if len(a.res.Thoughts) == 0 {
		a.res.Thoughts = nil
	}
}

// finishReason maps a stop_reason to the OpenAI names the rest of Airlock
// knows: end_turn and stop_sequence "stop", max_tokens (and the context
// window's own limit) "length", tool_use "tool_calls"; others as they are.
func finishReason(r anthropic.StopReason) string {
	switch r {
	case anthropic.StopReasonEndTurn, anthropic.StopReasonStopSequence, anthropic.StopReasonPauseTurn:
		return "stop"
	case anthropic.StopReasonMaxTokens, anthropic.StopReasonModelContextWindowExceeded:
		return FinishLength
	case anthropic.StopReasonToolUse:
		return "tool_calls"
	}
	return string(r)
}

// anthropicWindow is a model's context window on the Anthropic wire: from
// the table of known models (Claude's are there), since /v1/models here
// says nothing of windows (and the compatible endpoints often have none).
func (c *Client) anthropicWindow(model string) Window {
	if t, ok := TableWindow(model); ok {
		return t
	}
	return Window{Note: fmt.Sprintf("%s does not say how large %s's context window is, and it is not among the models Airlock knows. "+
		"Set the window in Settings → Providers (the model's card or the provider's documentation gives it).", c.shown, model)}
}

// listAnthropicModels reads /v1/models, every page up to maxModelPages.
func (c *Client) listAnthropicModels(ctx context.Context) ([]string, error) {
	ctx, w, done := c.begin(ctx)
	defer done()
	var ids []string
	params := anthropic.ModelListParams{Limit: anthropic.Int(1000)}
	for range maxModelPages {
		page, err := c.ant.models.List(ctx, params)
		if err != nil {
			return nil, c.classifyAnthropic(ctx, w, err, opModels)
		}
		for _, m := range page.Data {
			if m.ID != "" {
				ids = append(ids, m.ID)
			}
		}
		if !page.HasMore || page.LastID == "" {
			break
		}
		params.AfterID = anthropic.String(page.LastID)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
