package llm

import (
	"airlock/backend/uitext"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Overflow is what an overflow error said in numbers, where it said them.
type Overflow struct {
	// Window is the context window the server stated (0 = not stated).
	Window int
	// Requested is the tokens the request needed in all (prompt and the
	// answer's reservation), 0 = not stated.
	Requested int
	// Prompt is the prompt's part of Requested, when stated apart.
	Prompt int
}

// overflowRule is one way a server says the request did not fit. window,
// requested and prompt are the submatch numbers that hold each (0 = not in
// this message); extra, when set, holds the answer's reservation, which
// with prompt makes requested.
type overflowRule struct {
	re                               *regexp.Regexp
	window, requested, prompt, extra int
}

// num is a token count as servers print it ("131072", "131,072").
const num = `(\d[\d,]*)`

func rule(expr string, window, requested, prompt int) overflowRule {
	return overflowRule{re: regexp.MustCompile(`(?i)` + expr), window: window, requested: requested, prompt: prompt}
}

// sumRule is a rule whose message gives the prompt and the answer's
// reservation apart.
func sumRule(expr string, window, prompt, extra int) overflowRule {
	r := rule(expr, window, 0, prompt)
	r.extra = extra
	return r
}

// overflowRules are the servers' own sentences (sources in overflow_test.go),
// most specific first: the first that matches gives the numbers.
var overflowRules = []overflowRule{
	// vLLM, OpenAI (old), DeepSeek, OpenRouter, Groq-hosted vLLM:
	// "This model's maximum context length is 8192 tokens. However, you
	// requested 8942 tokens (8430 in the messages, 512 in the completion)."
	rule(`maximum context length is `+num+` tokens[.,]? however,? you requested (?:about )?`+num+` tokens(?: \(`+num+` (?:in the messages|in your prompt|of text input))?`, 1, 2, 3),
	// OpenAI: "... However, your messages resulted in 8227 tokens."
	rule(`maximum context length is `+num+` tokens[.,]? however,? your messages resulted in (?:over )?`+num+` tokens`, 1, 2, 0),
	// vLLM (newer): "... is 1536 tokens. However, your request has 4176
	// input tokens", and its max_tokens form "... is 4096 tokens and your
	// request has 2778 input tokens (8000 > 4096 - 2778)".
	sumRule(`maximum context length is `+num+` tokens and your request has `+num+` input tokens \(`+num+` > `, 1, 2, 3),
	rule(`maximum context length is `+num+` tokens\.?,? (?:however, )?your request has `+num+` input tokens`, 1, 0, 2),
	// Anything else that states the maximum context length (vLLM, OpenAI,
	// OpenRouter "This endpoint's maximum context length is …").
	rule(`maximum context length is `+num+` tokens`, 1, 0, 0),
	// OpenAI (GPT-5): "Input tokens exceed the configured limit of 272000
	// tokens. Your messages resulted in 289650 tokens."
	rule(`input tokens exceed the configured limit of `+num+` tokens\.?(?: your messages resulted in `+num+` tokens)?`, 1, 2, 0),
	// Anthropic and Anthropic-compatible: "prompt is too long: 200251
	// tokens > 200000 maximum".
	rule(`prompt is too long: `+num+` tokens > `+num+` maximum`, 2, 1, 0),
	// Anthropic, answer budget included: "input length and `max_tokens`
	// exceed context limit: 86888 + 119866 > 204648".
	sumRule("input length and `?max_tokens`? exceed context limit: "+num+` \+ `+num+` > `+num, 3, 1, 2),
	// llama.cpp server: "request (9412 tokens) exceeds the available
	// context size (8192 tokens), try increasing it"; older builds without
	// the numbers; the error type exceed_context_size_error.
	rule(`request \(`+num+` tokens\) exceeds the available context size \(`+num+` tokens\)`, 2, 1, 0),
	rule(`exceeds the available context size|exceed_context_size_error`, 0, 0, 0),
	// LM Studio: "Trying to keep the first 15857 tokens when context the
	// overflows. However, the model is loaded with context length of only
	// 7866 tokens, which is not enough."
	rule(`trying to keep the first `+num+` tokens when context (?:the )?overflows\.? however, the model is loaded with (?:a )?context length of only `+num+` tokens`, 2, 1, 0),
	// LM Studio and llama.cpp-based runtimes: "Cannot truncate prompt with
	// n_keep (15028) >= n_ctx (7424)", "(n_keep: 5047>= n_ctx: 4096)".
	rule(`n_keep(?: \(|: ?)`+num+`\)? ?>= ?n_ctx(?: \(|: ?)`+num, 2, 1, 0),
	rule(`(?:tokens to keep from the initial prompt|context length of only \d+ tokens).*(?:greater than the context length|not enough)`, 0, 0, 0),
	// Gemini (also through its OpenAI endpoint): "The input token count
	// (1200293) exceeds the maximum number of tokens allowed (1048576)."
	rule(`input token count \(?`+num+`\)? exceeds the maximum number of tokens allowed \(?`+num, 2, 1, 0),
	// Mistral: "Prompt contains 40960 tokens and 0 draft tokens, too large
	// for model with 32768 maximum context length".
	rule(`prompt contains `+num+` tokens.{0,40}too large for model with `+num+` maximum context length`, 2, 1, 0),
	rule(`too large for model with `+num+` maximum context length`, 1, 0, 0),
	// Kimi: "Your request exceeded model token limit: 262144 (requested: 300000)".
	rule(`exceeded model token limit: `+num+`(?: \(requested: `+num+`\))?`, 1, 2, 0),
	// xAI: "This model's maximum prompt length is 131072 but the request
	// contains 537812 tokens."
	rule(`maximum prompt length is `+num+` but the request contains `+num+` tokens`, 1, 2, 0),
	// Together: "The input (265330 tokens) is longer than the model's
	// context length (262144 tokens)."
	rule(`input \(`+num+` tokens\) is longer than the model'?s context length \(`+num+` tokens\)`, 2, 1, 0),
	// GitHub Copilot: "prompt token count of 145000 exceeds the limit of 128000".
	rule(`prompt token count of `+num+` exceeds the limit of `+num, 2, 1, 0),
	// Cerebras: "Please reduce the length of the messages or completion.
	// Current length is 42328 while limit is 40000".
	rule(`current length is `+num+` while limit is `+num, 2, 1, 0),
	// Poolside, and others: "Input length 265330 exceeds the maximum allowed
	// input length of 262144 tokens."
	rule(`input length `+num+` exceeds the maximum allowed input length of `+num, 2, 1, 0),
	// Alibaba DashScope (Qwen): "Range of input length should be [1, 129024]".
	rule(`range of input length should be \[1, ?`+num+`\]`, 1, 0, 0),
	// llama-cpp-python's server: "Requested tokens (2138) exceed context
	// window of 2048", without the count in some versions.
	rule(`requested tokens(?: \(`+num+`\))? exceed context window of `+num, 2, 1, 0),
	// Hugging Face TGI (Inference Endpoints, chat-ui): "Input validation
	// error: `inputs` tokens + `max_new_tokens` must be <= 8192. Given: 6204
	// `inputs` tokens and 2047 `max_new_tokens`", and "`inputs` must have
	// less than 4096 tokens. Given: 4545".
	sumRule("`?inputs`? tokens \\+ `?max_new_tokens`?\\s+must be <= "+num+`\. Given: `+num+" `?inputs`? tokens and "+num, 1, 2, 3),
	rule("`?inputs`? must have less than "+num+` tokens\. Given: `+num, 1, 2, 0),
	// Ollama: "prompt too long; exceeded max context length by 4096 tokens",
	// "the input length exceeds the context length".
	rule(`prompt too long; exceeded (?:max )?context length|input length exceeds the context length`, 0, 0, 0),
	// Groq, OpenAI's code, and the words without numbers: Groq ("Please
	// reduce the length of the messages or completion."), OpenAI's
	// Responses API ("Your input exceeds the context window of this
	// model"), Bedrock ("Input is too long for requested model"), MiniMax
	// ("context window exceeds limit"), z.ai (model_context_window_exceeded).
	rule(`context_length_exceeded|context length exceeded|reduce the length of the messages|exceeds the context window|input is too long for requested model|context window exceeds limit|model_context_window_exceeded`, 0, 0, 0),
}

// notOverflow are throttles that use the same words: a request too large
// for a per-minute token budget is a rate limit, not a window. Compacting
// and calling again would only make two refusals of one.
var notOverflow = regexp.MustCompile(`(?i)per min|tokens per minute|\bTPM\b|rate.?limit|throttl|please wait|quota|try again in \d`)

// ParseOverflow says whether a server's error text says the request did
// not fit the model's context window, and the numbers it gave.
func ParseOverflow(text string) (Overflow, bool) {
	if text == "" || notOverflow.MatchString(text) {
		return Overflow{}, false
	}
	for _, r := range overflowRules {
		m := r.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		o := Overflow{Window: group(m, r.window), Requested: group(m, r.requested), Prompt: group(m, r.prompt)}
		if o.Requested == 0 {
			o.Requested = o.Prompt + group(m, r.extra)
		}
		return o, true
	}
	return Overflow{}, false
}

// isOverflow reads the server's text, and the error type or code go-openai
// found in the body (llama.cpp's exceed_context_size_error, OpenAI's
// context_length_exceeded), which the text may not repeat.
func isOverflow(text string, err error) bool {
	if _, ok := ParseOverflow(text); ok {
		return true
	}
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	_, ok := ParseOverflow(fmt.Sprintf("%s %v", apiErr.Type, apiErr.Code))
	return ok && !notOverflow.MatchString(text)
}

func group(m []string, i int) int {
	if i <= 0 || i >= len(m) {
		return 0
	}
	n, err := strconv.Atoi(strings.ReplaceAll(m[i], ",", ""))
	if err != nil || n < 0 || n > 1<<31 {
		return 0
	}
	return n
}

// overflowError is the error for a request the server refused as too long
// for the window.
func overflowError(o Overflow, status int, text string, err error) *Error {
	e := &Error{Kind: KindContextOverflow, StatusCode: status, Said: text, Overflow: o, Err: err}
	what := txtOverflow.With()
	switch {
	case o.Window > 0 && o.Requested > 0:
		what = txtOverflowBoth.With("needed", o.Requested, "window", o.Window)
	case o.Window > 0:
		what = txtOverflowWin.With("window", o.Window)
	}
	if status > 0 {
		what = withStatus(what, status)
	}
	return e.say(then(sentence(what, text, uitext.Text{}), txtOverflowHint.With()))
}

// Truncation is a server's silent cut of the conversation: it reported
// reading far fewer prompt tokens than were sent (Ollama drops the start of
// a prompt longer than its window, system prompt first, and says nothing).
type Truncation struct {
	Estimated int // the tokens Airlock estimated it sent
	Reported  int // the prompt_tokens the server reported
	Window    int // the window the server seems to run with
	Message   string
	Text      uitext.Text // Message coded for the UI's language
}

// truncationRatio: a report below this share of the estimate is a cut, not
// an estimate's error (estimates are calibrated to well within it).
const truncationRatio = 0.7

// DetectTruncation decides whether the server cut the conversation: the
// reported prompt is under 70% of the estimate and sits just under a window
// (the known one, else a power of two from 2048 up, which is how servers
// are configured). Both conditions, so a poor estimate alone does not cry
// wolf. window is the window Airlock knows, 0 when none.
func DetectTruncation(estimated, reported, window int) (Truncation, bool) {
	if estimated <= 0 || reported <= 0 || float64(reported) >= truncationRatio*float64(estimated) {
		return Truncation{}, false
	}
	limit := window
	if limit <= 0 || reported > limit {
		limit = 2048
		for limit < reported && limit < 1<<24 {
			limit <<= 1
		}
	}
	// A cut prompt fills the window but for the room kept for the answer
	// and the server's own tokens.
	if reported > limit || reported < limit-max(512, limit/4) {
		return Truncation{}, false
	}
	t := Truncation{Estimated: estimated, Reported: reported, Window: limit}
	t.Text = txtTruncated.With("reported", reported, "estimated", estimated, "window", limit)
	t.Message = t.Text.English
	return t, true
}
