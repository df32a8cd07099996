package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// overflowCase is a server's real overflow message and the numbers in it.
type overflowCase struct {
	source, text              string
	window, requested, prompt int
}

// seenOverflows are the messages the rules were written from (public issue
// threads and source; the URL says where each was found).
var seenOverflows = []overflowCase{
	{"vllm-project/vllm#20409", "This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.", 16384, 122946, 112946},
	{"DeepSeek, evalstate/fast-agent#621", "This model's maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.", 131072, 131134, 122942},
	{"OpenAI, ChatGPTNextWeb/NextChat#2358", "This model's maximum context length is 16385 tokens. However, your messages resulted in 16468 tokens. Please reduce the length of the messages.", 16385, 16468, 0},
	{"OpenRouter, OpenHands/OpenHands#9937", `This endpoint's maximum context length is 131072 tokens. However, you requested about 138956 tokens (7884 of text input, 131072 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.`, 131072, 138956, 7884},
	{"vLLM (newer), whois-api-llc/web-categorization-v2 docs", "This model's maximum context length is 1536 tokens. However, your request has 4176 input tokens", 1536, 4176, 4176},
	{"vLLM max_tokens, andrewcho-dev/opsconductor-ng docs", "'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context length is 4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778). None", 4096, 10778, 2778},
	{"OpenAI GPT-5, cline/cline#5474", "Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 289650 tokens. Please reduce the length of the messages.", 272000, 289650, 0},
	{"Anthropic, boldsoftware/exe.dev#62", "prompt is too long: 200251 tokens > 200000 maximum", 200000, 200251, 0},
	{"Anthropic max_tokens, stackblitz/bolt.new#7422", "input length and max_tokens exceed context limit: 86888 + 119866 > 204648, decrease input length or max_tokens and try again", 204648, 206754, 86888},
	{"llama.cpp server-context.cpp (quoted in a client's self-test)", "request (9412 tokens) exceeds the available context size (8192 tokens), try increasing it", 8192, 9412, 0},
	{"llama.cpp (older builds)", "the request exceeds the available context size, try increasing it", 0, 0, 0},
	{"LM Studio, lmstudio-bug-tracker#546", "Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input.", 32768, 111490, 0},
	{"LM Studio, anomalyco/opencode#11141", "Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)", 7424, 15028, 0},
	{"LM Studio (pi-mono's list)", "tokens to keep from the initial prompt is greater than the context length", 0, 0, 0},
	{"Gemini, google-gemini/gemini-cli#6678", "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).", 1048576, 1200293, 0},
	{"Mistral (pi-mono's list)", "Prompt contains 300000 tokens, too large for model with 131072 maximum context length", 131072, 300000, 0},
	{"Groq, letta-ai/letta#1963", "Please reduce the length of the messages or completion.", 0, 0, 0},
	{"Kimi (pi-mono's list)", "Your request exceeded model token limit: 262144 (requested: 300000)", 262144, 300000, 0},
	{"xAI (pi-mono's list)", "This model's maximum prompt length is 131072 but the request contains 537812 tokens.", 131072, 537812, 0},
	{"Together (pi-mono's list)", "The input (265330 tokens) is longer than the model's context length (262144 tokens).", 262144, 265330, 0},
	{"GitHub Copilot (pi-mono's list)", "prompt token count of 145000 exceeds the limit of 128000", 128000, 145000, 0},
	{"Cerebras, cline/cline#5140", "Please reduce the length of the messages or completion. Current length is 42328 while limit is 40000", 40000, 42328, 0},
	{"Ollama (pi-mono's list)", "prompt too long; exceeded max context length by 4096 tokens", 0, 0, 0},
	{"Alibaba DashScope (pi-mono's list)", "Range of input length should be [1, 129024]", 129024, 0, 0},
	{"MiniMax (pi-mono's list)", "invalid params, context window exceeds limit", 0, 0, 0},
	{"z.ai (pi-mono's list)", "model_context_window_exceeded", 0, 0, 0},
	{"Bedrock (pi-mono's list)", "Input is too long for requested model.", 0, 0, 0},
	{"OpenAI Responses (pi-mono's list)", "Your input exceeds the context window of this model", 0, 0, 0},
}

// heldOutOverflows were collected after the rules were written, from
// other threads, and were not used to write them: on first run 12 of 14
// were recognised and 10 of 14 read exactly (llama-cpp-python's wording
// was unknown, LM Studio's older wording and OpenAI's "over N tokens" gave
// no numbers). The rules were then widened for those three wordings, so
// this set is no longer held out; it stays as a regression test.
var heldOutOverflows = []overflowCase{
	{"OpenAI, h2oai/h2ogpt#366", "This model's maximum context length is 4097 tokens. However, you requested 4696 tokens (3672 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.", 4097, 4696, 3672},
	{"OpenAI (old), run-llama/llama_index#948", "This model's maximum context length is 4097 tokens, however you requested 4116 tokens (3860 in your prompt; 256 for  the completion). Please reduce your prompt; or completion length.", 4097, 4116, 3860},
	{"local server, Significant-Gravitas/AutoGPT#5529", "This model maximum context length is 2048 tokens. However, your messages resulted in over 2407 tokens.", 2048, 2407, 0},
	{"OpenRouter, refly-ai/refly#1177", `This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.`, 32768, 42832, 42832},
	{"DeepSeek, CherryHQ/cherry-studio#12699", "This model's maximum context length is 131072 tokens. However, you requested 131279 tokens (123087 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.", 131072, 131279, 123087},
	{"Gemini, google-gemini/gemini-cli#4692", "The input token count (2845475) exceeds the maximum number of tokens allowed (1048576).", 1048576, 2845475, 0},
	{"OpenAI, gencay/vscode-chatgpt#184", "This model's maximum context length is 4096 tokens. However, you requested 4217 tokens (121 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.", 4096, 4217, 121},
	{"Groq, thepersonalaicompany/amurex-backend#51", "Please reduce the length of the messages or completion.", 0, 0, 0},
	{"LM Studio, n4ze3m/page-assist#356", "Trying to keep the first 6547 tokens when context overflows. However, the model is loaded with a context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input.", 4096, 6547, 0},
	{"LM Studio, cline/cline#3664", "Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input.", 7866, 10136, 0},
	{"LM Studio, anomalyco/opencode#11141 (a later comment)", "Cannot truncate prompt with n_keep (11378) >= n_ctx (4096)", 4096, 11378, 0},
	{"Anthropic, stackblitz/bolt.new#1036", "prompt is too long: 209062 tokens > 199999 maximum", 199999, 209062, 0},
	{"llama-cpp-python, fedora-copr/logdetective#100", "Requested tokens (2138) exceed context window of 2048", 2048, 2138, 0},
	{"llama-cpp-python, abetlen/llama-cpp-python#120", "Requested tokens exceed context window of 512", 512, 0, 0},
}

// heldOutTGI is a second held-out round, Hugging Face TGI's wording (none
// recognised on first run, 0 of 4; the rules were then written for it).
var heldOutTGI = []overflowCase{
	{"TGI, huggingface/llm-vscode#94", "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 3474 `inputs` tokens and 60 `max_new_tokens`", 2048, 3534, 3474},
	{"TGI, huggingface/chat-ui#1149", "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8192. Given: 6204 `inputs` tokens and 2047 `max_new_tokens`", 8192, 8251, 6204},
	{"TGI, huggingface/chat-ui#327", "Input validation error: `inputs` tokens + `max_new_tokens`  must be <= 1512. Given: 603 `inputs tokens and 1024 `max_new_tokens", 1512, 1627, 603},
	{"TGI, meta-llama/llama#1103", "Input validation error: `inputs` must have less than 4096 tokens. Given: 4545", 4096, 4545, 0},
}

// notOverflows share words with overflows but are something else: a
// compaction would not help, or would double a rate limit.
var notOverflows = []string{
	"Throttling error: Too many tokens, please wait before trying again.",
	"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 9000. Please try again in 16s.",
	"Request too large for model `llama3-70b-8192` in organization `org_abc` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 9800, please reduce your message size and try again.",
	"You exceeded your current quota, please check your plan and billing details.",
	"Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
	"The model `gpt-5` does not exist or you do not have access to it.",
	"messages: text content blocks must be non-empty",
	"registry.ollama.ai/library/gemma:2b does not support tools",
	"Input validation error: `max_new_tokens` must be <= 192", // TGI: a parameter's limit, not the window
	"",
}

// score runs cases and says how many were recognised, and how many of
// those had every stated number read right.
func score(t *testing.T, cases []overflowCase, strict bool) (recognised, exact int) {
	for _, c := range cases {
		o, ok := ParseOverflow(c.text)
		if !ok {
			if strict {
				t.Errorf("%s: not recognised: %q", c.source, c.text)
			}
			continue
		}
		recognised++
		if o.Window == c.window && o.Requested == c.requested && o.Prompt == c.prompt {
			exact++
		} else if strict {
			t.Errorf("%s: read %+v, want window %d requested %d prompt %d", c.source, o, c.window, c.requested, c.prompt)
		}
	}
	return recognised, exact
}

func TestParseOverflowSeen(t *testing.T) {
	r, e := score(t, seenOverflows, true)
	t.Logf("seen: %d/%d recognised, %d/%d with every number right", r, len(seenOverflows), e, len(seenOverflows))
	for _, s := range notOverflows {
		if o, ok := ParseOverflow(s); ok {
			t.Errorf("%q read as an overflow: %+v", s, o)
		}
	}
}

func TestParseOverflowHeldOut(t *testing.T) {
	r, e := score(t, heldOutOverflows, true)
	t.Logf("held out: %d/%d recognised, %d/%d with every number right", r, len(heldOutOverflows), e, len(heldOutOverflows))
	r, e = score(t, heldOutTGI, true)
	t.Logf("held out (TGI): %d/%d recognised, %d/%d with every number right", r, len(heldOutTGI), e, len(heldOutTGI))
}

// TestStreamOverflow: a real HTTP exchange with each server's error body
// becomes a KindContextOverflow error with the window the server stated,
// and a throttle with the same words does not.
func TestStreamOverflow(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		want   ErrorKind
		window int
	}{
		{"vllm", 400, `{"object":"error","message":"This model's maximum context length is 8192 tokens. However, you requested 8942 tokens (8430 in the messages, 512 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`, KindContextOverflow, 8192},
		{"openai", 400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 173172 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, KindContextOverflow, 128000},
		{"llama.cpp", 400, `{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}}`, KindContextOverflow, 4096},
		{"groq, only the code says it", 400, `{"error":{"message":"Please shorten the request.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, KindContextOverflow, 0},
		{"anthropic-compatible", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}`, KindContextOverflow, 200000},
		{"gemini list", 400, `[{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]`, KindContextOverflow, 1048576},
		{"groq TPM", 413, `{"error":{"message":"Request too large for model ` + "`llama3-70b-8192`" + ` on tokens per minute (TPM): Limit 6000, Requested 9800, please reduce your message size and try again.","type":"tokens","code":"rate_limit_exceeded"}}`, KindBadRequest, 0},
		{"rate limited", 429, `{"error":{"message":"This model's maximum context length is 8192 tokens, slow down","code":"rate_limit_exceeded"}}`, KindRateLimited, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			_, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "sk-secret-123"}).Stream(context.Background(),
				Request{Messages: []Message{{Role: "user", Content: "hi"}}}, func(Delta) {})
			var e *Error
			if !errors.As(err, &e) || e.Kind != c.want {
				t.Fatalf("got %v (%T %+v), want kind %s", err, err, e, c.want)
			}
			if e.Overflow.Window != c.window {
				t.Fatalf("window %d, want %d (%+v)", e.Overflow.Window, c.window, e.Overflow)
			}
			if c.want == KindContextOverflow && (!strings.Contains(e.Message, "Compact") || e.Said == "") {
				t.Fatalf("message: %q said %q", e.Message, e.Said)
			}
		})
	}
}

// TestMidStreamOverflow: LM Studio and llama.cpp may report an overflow
// inside a 200 stream.
func TestMidStreamOverflow(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(`data: {"error":{"message":"Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough."}}` + "\n\n"))
	}))
	defer srv.Close()
	_, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m"}).Stream(context.Background(),
		Request{Messages: []Message{{Role: "user", Content: "hi"}}}, func(Delta) {})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindContextOverflow || e.Overflow.Window != 7866 || e.Overflow.Requested != 10136 {
		t.Fatalf("got %v %+v", err, e)
	}
}

func TestDetectTruncation(t *testing.T) {
	cases := []struct {
		name                        string
		estimated, reported, window int
		cut                         bool
		limit                       int
	}{
		{"ollama at its 4096 default", 9000, 4096, 0, true, 4096},
		{"ollama, room kept for the answer", 9000, 3900, 0, true, 4096},
		{"known window of 8192", 20000, 8000, 8192, true, 8192},
		{"all of it read", 9000, 8800, 0, false, 0},
		{"a poor estimate, nowhere near a window", 9000, 3000, 32768, false, 0},
		{"small prompt", 300, 100, 0, false, 0},
		{"no usage reported", 9000, 0, 0, false, 0},
		{"reported above the known window: the window is wrong, not cut", 40000, 16384, 8192, true, 16384},
	}
	for _, c := range cases {
		tr, cut := DetectTruncation(c.estimated, c.reported, c.window)
		if cut != c.cut || (cut && tr.Window != c.limit) {
			t.Errorf("%s: cut %v window %d, want %v %d", c.name, cut, tr.Window, c.cut, c.limit)
		}
		if cut && !strings.Contains(tr.Message, "OLLAMA_CONTEXT_LENGTH") {
			t.Errorf("%s: message without the fix: %s", c.name, tr.Message)
		}
	}
}

// BenchmarkParseOverflow: the cost of classifying one error text (it runs
// once per failed request): an overflow found late in the rules, and a
// text that is not one (every rule tried).
func BenchmarkParseOverflow(b *testing.B) {
	for _, text := range []string{seenOverflows[len(seenOverflows)-1].text, "The model `gpt-5` does not exist or you do not have access to it."} {
		b.Run(text[:12], func(b *testing.B) {
			for range b.N {
				ParseOverflow(text)
			}
		})
	}
}
