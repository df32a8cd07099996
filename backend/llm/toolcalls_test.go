package llm_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"airlock/backend/llm"
)

// Native tool calls as real servers stream them. Each fixture is written the
// way the named server writes it; the comment says where the shape comes
// from.

func ev(chunk string) string { return "data: " + chunk + "\n\n" }

// openAIChunk is a chunk as OpenAI sends it with include_usage (OpenAI API
// reference, "The chat completion chunk object"; function calling guide,
// "Streaming").
func openAIChunk(delta, finish string) string {
	return ev(`{"id":"chatcmpl-BDoT3kcsJbJdCWTAuRg3x4uwPGD9U","object":"chat.completion.chunk","created":1742554841,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b38e740b47","choices":[{"index":0,"delta":` + delta + `,"logprobs":null,"finish_reason":` + finish + `}],"usage":null}`)
}

const openAIUsage = `data: {"id":"chatcmpl-BDoT3kcsJbJdCWTAuRg3x4uwPGD9U","object":"chat.completion.chunk","created":1742554841,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b38e740b47","choices":[],"usage":{"prompt_tokens":82,"completion_tokens":18,"total_tokens":100,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}` + "\n\n"

func openAIArgs(index int, frag string) string {
	return openAIChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, index, frag), "null")
}

// vllmChunk is vLLM's chunk (serving_chat.py, serialized with
// exclude_unset), as in a capture of vLLM 0.8 serving Qwen2.5 with the
// hermes parser.
func vllmChunk(delta string) string {
	return ev(`{"id":"chatcmpl-d0c68c86be0641129cffa5053c0c217e","object":"chat.completion.chunk","created":1744513664,"model":"Qwen/Qwen2.5-7B-Instruct","choices":[{"index":0,"delta":` + delta + `,"logprobs":null,"finish_reason":null}]}`)
}

const vllmFinish = `data: {"id":"chatcmpl-d0c68c86be0641129cffa5053c0c217e","object":"chat.completion.chunk","created":1744513664,"model":"Qwen/Qwen2.5-7B-Instruct","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"tool_calls","stop_reason":null}]}` + "\n\n"

// ollamaChunk is Ollama's chunk since 0.12 (openai/openai.go ToStreamChunks,
// middleware/openai.go ChatWriter): one whole call per tool_calls entry.
func ollamaChunk(delta, finish string) string {
	return ev(`{"id":"chatcmpl-225","object":"chat.completion.chunk","created":1744655392,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`)
}

// sglangChunk is SGLang's chunk (entrypoints/openai/serving_chat.py
// _process_tool_call_stream: chunk.model_dump_json(), so every unset field
// is null; the id and name only on a call's first piece).
func sglangChunk(delta string) string {
	return ev(`{"id":"6f1c0d3e2b8a4c1f9e7d5b3a1c0e8f6d","object":"chat.completion.chunk","created":1750000000,"model":"Qwen/Qwen3-8B","choices":[{"index":0,"delta":` + delta + `,"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}`)
}

// geminiChunk is the shape of Gemini's OpenAI layer (captures in
// noho/dayu-agent#45 and open-webui/computer#224): keys in alphabetical
// order, no index on tool calls, extra_content with the thought signature.
func geminiChunk(delta, finish string) string {
	f := ""
	if finish != "" {
		f = `"finish_reason":"` + finish + `",`
	}
	return ev(`{"choices":[{"delta":` + delta + `,` + f + `"index":0}],"created":1760000000,"id":"n7YzaL6PM_qVz7IPuc6-sQ0","model":"gemini-3-flash-preview","object":"chat.completion.chunk"}`)
}

type toolCase struct {
	name   string
	events []string
	cut    bool // the server breaks the connection after the events

	calls     []llm.ToolCall
	text      string
	reasoning string
	finish    string
	usage     int // total tokens, when a usage chunk came
	errKind   llm.ErrorKind
}

var toolCases = []toolCase{
	{
		name: "OpenAI: arguments in many pieces, split inside \\\" and a \\u escape",
		events: []string{
			openAIChunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","type":"function","function":{"name":"search_notes","arguments":""}}],"refusal":null}`, "null"),
			openAIArgs(0, `"{\""`), openAIArgs(0, `"query"`), openAIArgs(0, `"\":\""`), openAIArgs(0, `"say \\"`),
			openAIArgs(0, `"\"hi\\"`), openAIArgs(0, `"\" — Gr"`), openAIArgs(0, `"üße"`), openAIArgs(0, `" aus M\\u00"`),
			openAIArgs(0, `"fc"`), openAIArgs(0, `"nchen\"}"`),
			openAIChunk(`{}`, `"tool_calls"`), openAIUsage, doneEvent,
		},
		calls:  []llm.ToolCall{{ID: "call_DdmO9pD3xa9XTPNJ32zg2hcA", Name: "search_notes", Arguments: `{"query":"say \"hi\" — Grüße aus M\u00fcnchen"}`}},
		finish: "tool_calls", usage: 100,
	},
	{
		name: "OpenAI: text, then two calls one after the other",
		events: []string{
			openAIChunk(`{"role":"assistant","content":"","refusal":null}`, "null"),
			openAIChunk(`{"content":"Let me "}`, "null"), openAIChunk(`{"content":"check."}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":0,"id":"call_1xEnd0wXkAsp1uvhc6Wn6MZz","type":"function","function":{"name":"get_current_time","arguments":""}}]}`, "null"),
			openAIArgs(0, `"{}"`),
			openAIChunk(`{"tool_calls":[{"index":1,"id":"call_MplpAXsw5hP0gKxjnmEfAF1A","type":"function","function":{"name":"calculate","arguments":""}}]}`, "null"),
			openAIArgs(1, `"{\"expression\""`), openAIArgs(1, `":\"17*23\"}"`),
			openAIChunk(`{}`, `"tool_calls"`), openAIUsage, doneEvent,
		},
		text: "Let me check.",
		calls: []llm.ToolCall{
			{ID: "call_1xEnd0wXkAsp1uvhc6Wn6MZz", Name: "get_current_time", Arguments: `{}`},
			{ID: "call_MplpAXsw5hP0gKxjnmEfAF1A", Name: "calculate", Arguments: `{"expression":"17*23"}`},
		},
		finish: "tool_calls", usage: 100,
	},
	{
		name: "vLLM: id, type and name first, then arguments; two calls (qwen3_coder parser capture)",
		events: []string{
			vllmChunk(`{"role":"assistant","content":""}`),
			vllmChunk(`{"tool_calls":[{"id":"chatcmpl-tool-82672f40890f8f33","type":"function","index":0,"function":{"name":"get_weather"}}]}`),
			vllmChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": \""}}]}`),
			vllmChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"Paris"}}]}`),
			vllmChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}`),
			vllmChunk(`{"tool_calls":[{"id":"chatcmpl-tool-8e3b23c3ab2694f1","type":"function","index":1,"function":{"name":"get_weather"}}]}`),
			vllmChunk(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"city\": \""}}]}`),
			vllmChunk(`{"tool_calls":[{"index":1,"function":{"arguments":"Tokyo\"}"}}]}`),
			vllmFinish,
			`data: {"id":"chatcmpl-d0c68c86be0641129cffa5053c0c217e","object":"chat.completion.chunk","created":1744513664,"model":"Qwen/Qwen2.5-7B-Instruct","choices":[],"usage":{"prompt_tokens":287,"total_tokens":340,"completion_tokens":53}}` + "\n\n",
			doneEvent,
		},
		calls: []llm.ToolCall{
			{ID: "chatcmpl-tool-82672f40890f8f33", Name: "get_weather", Arguments: `{"city": "Paris"}`},
			{ID: "chatcmpl-tool-8e3b23c3ab2694f1", Name: "get_weather", Arguments: `{"city": "Tokyo"}`},
		},
		finish: "tool_calls", usage: 340,
	},
	{
		// A capture of Qwen2.5-72B on Huawei ModelArts (vLLM): the id comes
		// alone, the name in the next piece, the arguments with \u escapes
		// and an empty piece.
		name: "vLLM on ModelArts: id alone, then name, then arguments",
		events: []string{
			ev(`{"id":"chat-0ce39f45881e4df69b6a5b956e46c738","object":"chat.completion.chunk","created":1740826834,"model":"Qwen2.5-72B-32K","choices":[{"index":0,"delta":{"role":"assistant"},"logprobs":null,"finish_reason":null}]}`),
			ev(`{"id":"chat-0ce39f45881e4df69b6a5b956e46c738","object":"chat.completion.chunk","created":1740826834,"model":"Qwen2.5-72B-32K","choices":[{"index":0,"delta":{"tool_calls":[{"id":"chatcmpl-tool-efd231cc9c784398839866c0a9dfd87d","type":"function","index":0}]},"logprobs":null,"finish_reason":null}]}`),
			ev(`{"id":"chat-0ce39f45881e4df69b6a5b956e46c738","object":"chat.completion.chunk","created":1740826834,"model":"Qwen2.5-72B-32K","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"get_weather"}}]},"logprobs":null,"finish_reason":null}]}`),
			ev(`{"id":"chat-0ce39f45881e4df69b6a5b956e46c738","object":"chat.completion.chunk","created":1740826834,"model":"Qwen2.5-72B-32K","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"cityName\": \""}}]},"logprobs":null,"finish_reason":null}]}`),
			ev(`{"id":"chat-0ce39f45881e4df69b6a5b956e46c738","object":"chat.completion.chunk","created":1740826834,"model":"Qwen2.5-72B-32K","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\u5357\\u4eac"}}]},"logprobs":null,"finish_reason":null}]}`),
			ev(`{"id":"chat-0ce39f45881e4df69b6a5b956e46c738","object":"chat.completion.chunk","created":1740826834,"model":"Qwen2.5-72B-32K","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":""}}]},"logprobs":null,"finish_reason":null}]}`),
			ev(`{"id":"chat-0ce39f45881e4df69b6a5b956e46c738","object":"chat.completion.chunk","created":1740826834,"model":"Qwen2.5-72B-32K","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]},"logprobs":null,"finish_reason":null}]}`),
			ev(`{"id":"chat-0ce39f45881e4df69b6a5b956e46c738","object":"chat.completion.chunk","created":1740826834,"model":"Qwen2.5-72B-32K","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"tool_calls","stop_reason":null}]}`),
			doneEvent,
		},
		calls:  []llm.ToolCall{{ID: "chatcmpl-tool-efd231cc9c784398839866c0a9dfd87d", Name: "get_weather", Arguments: `{"cityName": "\u5357\u4eac"}`}},
		finish: "tool_calls",
	},
	{
		// A capture of Zhipu's glm-4-plus: the whole call in the chunk that
		// also carries finish_reason, which comes again with the usage.
		name: "Zhipu GLM: whole call in the finish chunk",
		events: []string{
			ev(`{"id":"2025030119050107f2aa800e544259","created":1740827101,"model":"glm-4-plus","choices":[{"index":0,"finish_reason":"tool_calls","delta":{"role":"assistant","tool_calls":[{"id":"call_2025030119050107f2aa800e544259_0","index":0,"type":"function","function":{"name":"get_weather","arguments":"{\"cityName\": \"南京\"}"}}]}}]}`),
			ev(`{"id":"2025030119050107f2aa800e544259","created":1740827101,"model":"glm-4-plus","choices":[{"index":0,"finish_reason":"tool_calls","delta":{"role":"assistant","content":""}}],"usage":{"prompt_tokens":128,"completion_tokens":11,"total_tokens":139}}`),
			doneEvent,
		},
		calls:  []llm.ToolCall{{ID: "call_2025030119050107f2aa800e544259_0", Name: "get_weather", Arguments: `{"cityName": "南京"}`}},
		finish: "tool_calls", usage: 139,
	},
	{
		name: "Ollama 0.12+: reasoning, then each call whole with its index",
		events: []string{
			ollamaChunk(`{"role":"assistant","reasoning":"The user wants the time and a sum."}`, "null"),
			ollamaChunk(`{"content":"","tool_calls":[{"id":"call_k3x2n7bq","index":0,"type":"function","function":{"name":"get_current_time","arguments":"{\"timezone\":\"UTC\"}"}}]}`, "null"),
			ollamaChunk(`{"content":"","tool_calls":[{"id":"call_9f0a1c2d","index":1,"type":"function","function":{"name":"calculate","arguments":"{\"expression\":\"17*23\"}"}}]}`, "null"),
			ollamaChunk(`{}`, `"tool_calls"`),
			`data: {"id":"chatcmpl-225","object":"chat.completion.chunk","created":1744655392,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[],"usage":{"prompt_tokens":210,"completion_tokens":41,"total_tokens":251}}` + "\n\n",
			doneEvent,
		},
		reasoning: "The user wants the time and a sum.",
		calls: []llm.ToolCall{
			{ID: "call_k3x2n7bq", Name: "get_current_time", Arguments: `{"timezone":"UTC"}`},
			{ID: "call_9f0a1c2d", Name: "calculate", Arguments: `{"expression":"17*23"}`},
		},
		finish: "tool_calls", usage: 251,
	},
	{
		// Ollama before index tracking (ollama#7888, released in 0.4.7):
		// every call parsed so far in one chunk, no index, a fresh id each,
		// and the answer finishes with "stop".
		name: "Ollama 0.4: whole calls without index, finish stop",
		events: []string{
			ev(`{"id":"chatcmpl-417","object":"chat.completion.chunk","created":1732000000,"model":"llama3.1","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_ac7j1ci2","type":"function","function":{"name":"get_current_time","arguments":"{\"timezone\":\"UTC\"}"}},{"id":"call_p0xq3r8z","type":"function","function":{"name":"calculate","arguments":"{\"expression\":\"17*23\"}"}}]},"finish_reason":null}]}`),
			ev(`{"id":"chatcmpl-417","object":"chat.completion.chunk","created":1732000000,"model":"llama3.1","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}]}`),
			doneEvent,
		},
		calls: []llm.ToolCall{
			{ID: "call_ac7j1ci2", Name: "get_current_time", Arguments: `{"timezone":"UTC"}`},
			{ID: "call_p0xq3r8z", Name: "calculate", Arguments: `{"expression":"17*23"}`},
		},
		finish: "stop",
	},
	{
		// Translating proxies that number calls by their place in the chunk
		// (su-kaka/gcli2api#406): every whole call comes with index 0.
		name: "whole calls, each with index 0 and its own id",
		events: []string{
			openAIChunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.md\"}"}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":0,"id":"call_b2","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"b.md\"}"}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":0,"id":"call_c3","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"c.md\"}"}}]}`, "null"),
			openAIChunk(`{}`, `"tool_calls"`), doneEvent,
		},
		calls: []llm.ToolCall{
			{ID: "call_a1", Name: "read_file", Arguments: `{"path":"a.md"}`},
			{ID: "call_b2", Name: "read_file", Arguments: `{"path":"b.md"}`},
			{ID: "call_c3", Name: "read_file", Arguments: `{"path":"c.md"}`},
		},
		finish: "tool_calls",
	},
	{
		name: "Gemini: text, then a call without index, with its thought signature, finish stop",
		events: []string{
			geminiChunk(`{"content":"I'll look that up.","role":"assistant"}`, ""),
			geminiChunk(`{"role":"assistant","tool_calls":[{"extra_content":{"google":{"thought_signature":"Eo4GCosG==="}},"function":{"arguments":"{\"query\":\"杭州周末天气预报\"}","name":"search_web"},"id":"jm4owj31","type":"function"}]}`, ""),
			geminiChunk(`{"role":"assistant"}`, "stop"),
			doneEvent,
		},
		text:   "I'll look that up.",
		calls:  []llm.ToolCall{{ID: "jm4owj31", Name: "search_web", Arguments: `{"query":"杭州周末天气预报"}`, Extra: json.RawMessage(`{"google":{"thought_signature":"Eo4GCosG==="}}`)}},
		finish: "stop",
	},
	{
		// open-webui/computer#224: arguments over index-less pieces, and the
		// signature in a piece of its own.
		name: "Gemini: arguments over index-less pieces, signature alone",
		events: []string{
			geminiChunk(`{"role":"assistant","tool_calls":[{"function":{"arguments":"{\"location\":","name":"get_weather"},"id":"function-call-1","type":"function"}]}`, ""),
			geminiChunk(`{"tool_calls":[{"function":{"arguments":"\"Sydney\"}"}}]}`, ""),
			geminiChunk(`{"tool_calls":[{"extra_content":{"google":{"thought_signature":"CiQBjz1rX"}}}]}`, ""),
			geminiChunk(`{"tool_calls":[{"function":{"arguments":"{\"location\":\"Perth\"}","name":"get_weather"},"id":"function-call-2","type":"function"}]}`, ""),
			geminiChunk(`{}`, "stop"),
			doneEvent,
		},
		calls: []llm.ToolCall{
			{ID: "function-call-1", Name: "get_weather", Arguments: `{"location":"Sydney"}`, Extra: json.RawMessage(`{"google":{"thought_signature":"CiQBjz1rX"}}`)},
			{ID: "function-call-2", Name: "get_weather", Arguments: `{"location":"Perth"}`},
		},
		finish: "stop",
	},
	{
		name: "SGLang: null fields, reasoning_content beside the calls",
		events: []string{
			sglangChunk(`{"role":"assistant","content":null,"reasoning_content":null,"tool_calls":null}`),
			sglangChunk(`{"role":null,"content":null,"reasoning_content":"Two cities, two calls.","tool_calls":null}`),
			sglangChunk(`{"role":null,"content":null,"reasoning_content":null,"tool_calls":[{"id":"call_5f8a1c2b3d4e5f6a7b8c9d0e","index":0,"type":"function","function":{"name":"get_weather","arguments":""}}]}`),
			sglangChunk(`{"role":null,"content":null,"reasoning_content":null,"tool_calls":[{"id":null,"index":0,"type":"function","function":{"name":null,"arguments":"{\"city\": \"Paris\"}"}}]}`),
			sglangChunk(`{"role":null,"content":null,"reasoning_content":null,"tool_calls":[{"id":"call_0a9b8c7d6e5f4a3b2c1d0e9f","index":1,"type":"function","function":{"name":"get_weather","arguments":""}}]}`),
			sglangChunk(`{"role":null,"content":null,"reasoning_content":null,"tool_calls":[{"id":null,"index":1,"type":"function","function":{"name":null,"arguments":"{\"city\": \"Oslo\"}"}}]}`),
			ev(`{"id":"6f1c0d3e2b8a4c1f9e7d5b3a1c0e8f6d","object":"chat.completion.chunk","created":1750000000,"model":"Qwen/Qwen3-8B","choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":null,"tool_calls":null},"logprobs":null,"finish_reason":"tool_calls","matched_stop":null}],"usage":null}`),
			doneEvent,
		},
		reasoning: "Two cities, two calls.",
		calls: []llm.ToolCall{
			{ID: "call_5f8a1c2b3d4e5f6a7b8c9d0e", Name: "get_weather", Arguments: `{"city": "Paris"}`},
			{ID: "call_0a9b8c7d6e5f4a3b2c1d0e9f", Name: "get_weather", Arguments: `{"city": "Oslo"}`},
		},
		finish: "tool_calls",
	},
	{
		// The spec keys pieces by index, so a server may interleave parallel
		// calls (the demo model does).
		name: "parallel calls interleaved by index",
		events: []string{
			openAIChunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_t","type":"function","function":{"name":"get_current_time","arguments":""}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":1,"id":"call_c","type":"function","function":{"name":"calculate","arguments":""}}]}`, "null"),
			openAIArgs(0, `"{\"timez"`), openAIArgs(1, `"{\"expre"`), openAIArgs(0, `"one\":\"U"`), openAIArgs(1, `"ssion\":"`),
			openAIArgs(1, `"\"2+2\"}"`), openAIArgs(0, `"TC\"}"`),
			openAIChunk(`{}`, `"tool_calls"`), doneEvent,
		},
		calls: []llm.ToolCall{
			{ID: "call_t", Name: "get_current_time", Arguments: `{"timezone":"UTC"}`},
			{ID: "call_c", Name: "calculate", Arguments: `{"expression":"2+2"}`},
		},
		finish: "tool_calls",
	},
	{
		// Alibaba's DashScope sends "id":"" and the type on later pieces;
		// others repeat the id, or the whole name, on every piece.
		name: "id and name repeated on every piece, or empty",
		events: []string{
			openAIChunk(`{"tool_calls":[{"index":0,"id":"call_r","type":"function","function":{"name":"calculate","arguments":"{\"ex"}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":0,"id":"call_r","type":"function","function":{"name":"calculate","arguments":"pression\""}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":0,"id":"","type":"function","function":{"arguments":":\"1+1\"}"}}]}`, "null"),
			openAIChunk(`{}`, `"tool_calls"`), doneEvent,
		},
		calls:  []llm.ToolCall{{ID: "call_r", Name: "calculate", Arguments: `{"expression":"1+1"}`}},
		finish: "tool_calls",
	},
	{
		name: "no index, the id on every piece, two calls",
		events: []string{
			openAIChunk(`{"tool_calls":[{"id":"call_x","type":"function","function":{"name":"calculate","arguments":"{\"expression\":"}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"id":"call_y","type":"function","function":{"name":"get_current_time","arguments":"{}"}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"id":"call_x","function":{"arguments":"\"5-3\"}"}}]}`, "null"),
			openAIChunk(`{}`, `"tool_calls"`), doneEvent,
		},
		calls: []llm.ToolCall{
			{ID: "call_x", Name: "calculate", Arguments: `{"expression":"5-3"}`},
			{ID: "call_y", Name: "get_current_time", Arguments: `{}`},
		},
		finish: "tool_calls",
	},
	{
		name: "no ids, name in pieces, no type, arguments as an object, [DONE] without finish_reason",
		events: []string{
			openAIChunk(`{"tool_calls":[{"index":0,"function":{"name":"get_current_","arguments":""}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":0,"function":{"name":"time"}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":0,"function":{"arguments":{"timezone": "UTC"}}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":1,"id":"call_1","function":{"name":"calculate","arguments":{}}}]}`, "null"),
			openAIChunk(`{"tool_calls":[{"index":2,"function":{"name":"calculate","arguments":"{\"expression\":\"3*3\"}"}}]}`, "null"),
			doneEvent,
		},
		calls: []llm.ToolCall{
			{ID: "call_2", Name: "get_current_time", Arguments: `{"timezone":"UTC"}`},
			{ID: "call_1", Name: "calculate", Arguments: `{}`},
			{ID: "call_3", Name: "calculate", Arguments: `{"expression":"3*3"}`},
		},
	},
	{
		name: "cut in the middle of the arguments",
		events: []string{
			vllmChunk(`{"role":"assistant","content":""}`),
			vllmChunk(`{"tool_calls":[{"id":"chatcmpl-tool-1","type":"function","index":0,"function":{"name":"write_file"}}]}`),
			vllmChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\": \"notes.md\", \"content\": \"# No"}}]}`),
		},
		cut:     true,
		calls:   []llm.ToolCall{{ID: "chatcmpl-tool-1", Name: "write_file", Arguments: `{"path": "notes.md", "content": "# No`}},
		errKind: llm.KindStreamBroken,
	},
	{
		name: "closed after the arguments, without finish_reason or [DONE]",
		events: []string{
			vllmChunk(`{"tool_calls":[{"id":"chatcmpl-tool-2","type":"function","index":0,"function":{"name":"read_file"}}]}`),
			vllmChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\": \"a\"}"}}]}`),
		},
		calls:   []llm.ToolCall{{ID: "chatcmpl-tool-2", Name: "read_file", Arguments: `{"path": "a"}`}},
		errKind: llm.KindStreamBroken,
	},
}

func TestStreamToolCalls(t *testing.T) {
	for _, c := range toolCases {
		t.Run(c.name, func(t *testing.T) {
			srv := server(t, func(w http.ResponseWriter, r *http.Request) {
				startSSE(w)
				for _, e := range c.events {
					send(w, e)
				}
				if c.cut {
					panic(http.ErrAbortHandler)
				}
			})
			o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{Tools: []llm.Tool{{Name: "anything"}}})
			if c.errKind == "" && o.err != nil {
				t.Fatalf("error: %v", o.err)
			}
			if c.errKind != "" {
				wantKind(t, o.err, c.errKind)
			}
			if o.text != c.text || o.reasoning != c.reasoning {
				t.Errorf("text %q reasoning %q, want %q %q", o.text, o.reasoning, c.text, c.reasoning)
			}
			if o.res.FinishReason != c.finish {
				t.Errorf("finish %q, want %q", o.res.FinishReason, c.finish)
			}
			if c.usage != 0 && o.res.Usage.TotalTokens != c.usage {
				t.Errorf("usage %+v", o.res.Usage)
			}
			got := o.res.ToolCalls
			if len(got) != len(c.calls) {
				t.Fatalf("%d calls, want %d: %+v", len(got), len(c.calls), got)
			}
			for i, want := range c.calls {
				g := got[i]
				if g.ID != want.ID || g.Name != want.Name || g.Arguments != want.Arguments || g.Truncated || string(g.Extra) != string(want.Extra) {
					t.Errorf("call %d:\n got %+v (extra %s)\nwant %+v (extra %s)", i, g, g.Extra, want, want.Extra)
				}
				// The deltas built the same call (ids only where the
				// server sent one).
				if i >= len(o.live) {
					t.Errorf("no delta for call %d", i)
					continue
				}
				l := o.live[i]
				if l.Name != g.Name || l.Arguments != g.Arguments || (l.ID != "" && l.ID != g.ID) {
					t.Errorf("call %d from the deltas: %+v, result %+v", i, l, g)
				}
			}
			if len(o.live) != len(got) {
				t.Errorf("deltas formed %d calls, result has %d", len(o.live), len(got))
			}
			if o.res.ToolCallsDropped {
				t.Error("nothing was dropped")
			}
		})
	}
}

// The arguments read back are JSON whatever the splits were, when the
// server's were.
func TestStreamToolCallArgumentsStayJSON(t *testing.T) {
	for _, c := range toolCases[:3] {
		srv := sseServer(t, c.events...)
		o := stream(t, llm.Config{BaseURL: srv.URL}, t.Context(), llm.Request{})
		for _, tc := range o.res.ToolCalls {
			var v map[string]any
			if err := json.Unmarshal([]byte(tc.Arguments), &v); err != nil {
				t.Errorf("%s: %s: %v", c.name, tc.Arguments, err)
			}
		}
	}
	var v map[string]string
	_ = json.Unmarshal([]byte(toolCases[0].calls[0].Arguments), &v)
	if v["query"] != `say "hi" — Grüße aus München` {
		t.Errorf("query %q", v["query"])
	}
}

func TestStreamToolCallLimits(t *testing.T) {
	t.Run("calls", func(t *testing.T) {
		var events []string
		for i := range llm.MaxToolCalls + 5 {
			events = append(events, openAIChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"calculate","arguments":"{}"}}]}`, i, i), "null"))
			if i == llm.MaxToolCalls+1 {
				// More pieces of a dropped call, with and without its index.
				events = append(events, openAIArgs(i, `"more"`), openAIChunk(`{"tool_calls":[{"function":{"arguments":"x"}}]}`, "null"))
			}
		}
		events = append(events, openAIChunk(`{}`, `"tool_calls"`), doneEvent)
		o := stream(t, llm.Config{BaseURL: sseServer(t, events...).URL}, t.Context(), llm.Request{})
		if o.err != nil {
			t.Fatal(o.err)
		}
		if len(o.res.ToolCalls) != llm.MaxToolCalls || !o.res.ToolCallsDropped || len(o.live) != llm.MaxToolCalls {
			t.Fatalf("%d calls (%d from deltas), dropped %v", len(o.res.ToolCalls), len(o.live), o.res.ToolCallsDropped)
		}
		last := o.res.ToolCalls[llm.MaxToolCalls-1]
		if last.ID != fmt.Sprintf("call_%d", llm.MaxToolCalls-1) || last.Arguments != "{}" {
			t.Errorf("last kept call %+v", last)
		}
	})
	t.Run("arguments", func(t *testing.T) {
		piece := strings.Repeat("é", 32<<10) // 64 KiB of two-byte characters
		events := []string{openAIChunk(`{"tool_calls":[{"index":0,"id":"call_big","type":"function","function":{"name":"write_file","arguments":"{\"content\":\""}}]}`, "null")}
		for range llm.MaxToolArguments/len(piece) + 2 {
			events = append(events, openAIArgs(0, `"`+piece+`"`))
		}
		events = append(events, openAIArgs(0, `"\"}"`), openAIChunk(`{}`, `"tool_calls"`), doneEvent)
		o := stream(t, llm.Config{BaseURL: sseServer(t, events...).URL}, t.Context(), llm.Request{})
		if o.err != nil {
			t.Fatal(o.err)
		}
		tc := o.res.ToolCalls[0]
		if !tc.Truncated || len(tc.Arguments) > llm.MaxToolArguments || len(tc.Arguments) < llm.MaxToolArguments-1 {
			t.Fatalf("truncated %v, %d bytes", tc.Truncated, len(tc.Arguments))
		}
		if !strings.HasSuffix(tc.Arguments, "é") || strings.HasSuffix(tc.Arguments, `"}`) {
			t.Errorf("cut in the wrong place: …%q", tc.Arguments[len(tc.Arguments)-8:])
		}
		if o.live[0].Arguments != tc.Arguments {
			t.Error("the deltas delivered more than the result holds")
		}
	})
}
