package llm_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"airlock/backend/llm"
)

// How servers refuse tools, in their own words and body shapes. A request
// with tools that gets one of these fails with KindToolsUnsupported; the
// same answer to a request without tools stays what it was.
var toolRefusalCases = []struct {
	name   string
	status int
	body   string
	words  string // the server's words, kept in the message
}{
	{"Ollama (since 2026-03: the status picks the type)", 400,
		`{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"invalid_request_error","param":null,"code":null}}`,
		"registry.ollama.ai/library/gemma:2b does not support tools."},
	{"Ollama (earlier: api_error; ollama#6027)", 400,
		`{"error":{"message":"stablelm2:latest does not support tools","type":"api_error","param":null,"code":null}}`,
		"stablelm2:latest does not support tools."},
	{"llama.cpp without --jinja (ramalama#988)", 500,
		`{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`,
		"tools param requires --jinja flag."},
	{"llama.cpp builds that cannot stream tool calls (utils.hpp, early 2025)", 500,
		`{"error":{"code":500,"message":"Cannot use tools with stream","type":"server_error"}}`,
		"Cannot use tools with stream."},
	{"llama.cpp before --jinja (llama.cpp#10920)", 500,
		`{"error":{"code":500,"message":"Unsupported param: tools","type":"server_error"}}`,
		"Unsupported param: tools."},
	{"vLLM without --enable-auto-tool-choice (langchain4j#3475)", 400,
		`{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`,
		`"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set.`},
	{"vLLM, newer error shape", 400,
		`{"error":{"message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}}`,
		`"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set.`},
	{"OpenRouter, with a 404 (fast-agent#122)", 404,
		`{"error":{"message":"No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing","code":404}}`,
		"No endpoints found that support tool use."},
	{"DeepSeek reasoner (spring-ai#2643)", 400,
		`{"error":{"message":"deepseek-reasoner does not support Function Calling","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`,
		"deepseek-reasoner does not support Function Calling."},
	{"Groq (vercel/ai#11516)", 400,
		"{\"error\":{\"message\":\"`tool calling` is not supported with this model\",\"type\":\"invalid_request_error\"}}",
		"`tool calling` is not supported with this model."},
	{"Groq, other wording (langflow#11120)", 400,
		`{"error":{"message":"tool calling is not supported with this model","type":"invalid_request_error","param":"tool calling"}}`,
		"tool calling is not supported with this model."},
	{"OpenAI, a model without function calling (flexeval#242)", 400,
		`{"error":{"message":"tools is not supported in this model. For a list of supported models, refer to https://platform.openai.com/docs/guides/function-calling#models-supporting-function-calling.","type":"invalid_request_error","param":null,"code":null}}`,
		"tools is not supported in this model."},
	{"xAI (adk-python#952)", 400,
		`{"code":"Client specified an invalid argument","error":"Invalid request content: The model does not support tool use or function calling but tools or tool_choice have been specified on the request."}`,
		"The model does not support tool use or function calling"},
	{"Gemini's OpenAI layer, Gemma models (agno#3505; array body as in magentic#382)", 400,
		`[{"error":{"code":400,"message":"Function calling is not enabled for models/gemma-3-27b-it","status":"INVALID_ARGUMENT"}}]`,
		"Function calling is not enabled for models/gemma-3-27b-it."},
	{"DeepInfra through a gateway (truefoundry/models#944)", 405,
		`{"status":"failure","message":"deepinfra error: Tool calling is not supported for model: mistralai/Mistral-Small-24B-Instruct-2501","error":{"message":"deepinfra error: Tool calling is not supported for model: mistralai/Mistral-Small-24B-Instruct-2501","type":"APIError","code":"405"}}`,
		"Tool calling is not supported for model: mistralai/Mistral-Small-24B-Instruct-2501"},
	{"Azure OpenAI, old API version (azure-docs#121504)", 400,
		`{"error": {"requestid": "7eaa7bfc-966e-411a-9254-b3c4987036f5", "code": 400, "message": "Functions are not supported for this API version or this model version."}}`,
		"Functions are not supported for this API version or this model version."},
}

func refusingServer(t *testing.T, status int, body string) string {
	return server(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}).URL
}

func TestToolsUnsupported(t *testing.T) {
	withTools := llm.Request{Tools: []llm.Tool{{Name: "calculate"}}}
	for _, c := range toolRefusalCases {
		t.Run(c.name, func(t *testing.T) {
			url := refusingServer(t, c.status, c.body)
			o := stream(t, llm.Config{BaseURL: url}, t.Context(), withTools)
			e := wantKind(t, o.err, llm.KindToolsUnsupported)
			if e.StatusCode != c.status || !strings.Contains(e.Message, c.words) {
				t.Errorf("status %d, message %q lacks the server's words %q", e.StatusCode, e.Message, c.words)
			}
			if !strings.HasPrefix(e.Message, "The model or server does not accept tools (HTTP ") || !strings.Contains(e.Message, "text tool calls") {
				t.Errorf("message %q", e.Message)
			}
			// Without tools the same answer is an ordinary failure.
			o = stream(t, llm.Config{BaseURL: url}, t.Context(), llm.Request{})
			var plain *llm.Error
			if o.err == nil || !asError(o.err, &plain) || plain.Kind == llm.KindToolsUnsupported {
				t.Errorf("without tools: %v", o.err)
			}
		})
	}
}

// Failures of tool requests that are not refusals keep their kind.
func TestToolRequestFailuresThatAreNotRefusals(t *testing.T) {
	withTools := llm.Request{Tools: []llm.Tool{{Name: "calculate"}}}
	for _, c := range []struct {
		name, body string
		status     int
		kind       llm.ErrorKind
	}{
		{"Groq: the model wrote a bad call", `{"error":{"message":"Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.","type":"invalid_request_error","code":"tool_use_failed","failed_generation":"<function=test_tool>{\"x\": \"test\""}}`, 400, llm.KindBadRequest},
		{"OpenAI: a schema it rejects", `{"error":{"message":"Invalid schema for function 'read_file': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'path'.","type":"invalid_request_error","param":"tools[0].function.parameters","code":"invalid_function_parameters"}}`, 400, llm.KindBadRequest},
		{"OpenAI: parallel_tool_calls unsupported", `{"error":{"message":"Unsupported parameter: 'parallel_tool_calls' is not supported with this model.","type":"invalid_request_error","param":"parallel_tool_calls","code":"unsupported_parameter"}}`, 400, llm.KindBadRequest},
		{"OpenRouter: unknown model", `{"error":{"message":"No endpoints found for meta-llama/llama-9:free.","code":404}}`, 404, llm.KindNotFound},
		{"rate limit", `{"error":{"message":"Rate limit reached for tools","type":"requests"}}`, 429, llm.KindRateLimited},
	} {
		o := stream(t, llm.Config{BaseURL: refusingServer(t, c.status, c.body)}, t.Context(), withTools)
		var e *llm.Error
		if !asError(o.err, &e) || e.Kind != c.kind {
			t.Errorf("%s: %v", c.name, o.err)
		}
	}
}

// A refusal reported inside a 200 stream, before any answer.
func TestToolsUnsupportedMidStream(t *testing.T) {
	srv := sseServer(t, `data: {"error":{"message":"This model does not support tools","type":"invalid_request_error"}}`+"\n\n")
	o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{Tools: []llm.Tool{{Name: "x"}}})
	if e := wantKind(t, o.err, llm.KindToolsUnsupported); !strings.Contains(e.Message, "This model does not support tools.") {
		t.Errorf("message %q", e.Message)
	}
	o = stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
	wantKind(t, o.err, llm.KindServer)
}

// go-openai refuses some models' tool requests itself (GPT-6 takes tools on
// the Responses API only): nothing is sent.
func TestToolsUnsupportedBeforeSending(t *testing.T) {
	var hits atomic.Int32
	srv := server(t, func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	o := stream(t, llm.Config{BaseURL: srv.URL, Model: "gpt-6-sol"}, t.Context(), llm.Request{Tools: []llm.Tool{{Name: "x"}}})
	if e := wantKind(t, o.err, llm.KindToolsUnsupported); !strings.Contains(e.Message, "Responses API") {
		t.Errorf("message %q", e.Message)
	}
	if hits.Load() != 0 {
		t.Error("the request was sent")
	}
}

func asError(err error, e **llm.Error) bool { return errors.As(err, e) }
