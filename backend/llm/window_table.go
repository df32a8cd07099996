package llm

import (
	"strings"

	"airlock/backend/chat"
)

// knownWindow is a well-known model's window and answer limit, matched by
// the longest prefix of its name.
type knownWindow struct {
	prefix            string
	tokens, maxOutput int
}

// knownWindows are the windows the makers publish, for servers that do not
// say (OpenAI, DeepSeek, Anthropic-compatible and Gemini's OpenAI layer list
// no windows). Where a maker's figure depends on the route (Llama, Qwen,
// Mistral on third-party hosts), the smaller common one is kept: a window
// too small costs an early compaction, one too large a refused request.
// Local servers say their own and are asked first.
//
// Sources: OpenAI's model pages (platform.openai.com/docs/models), Anthropic's
// models overview (docs.anthropic.com/en/docs/about-claude/models), Google's
// Gemini models page (ai.google.dev/gemini-api/docs/models), DeepSeek's
// pricing page (api-docs.deepseek.com/quick_start/pricing) and its own
// overflow message ("maximum context length is 131072 tokens"), Mistral's
// models overview (docs.mistral.ai/getting-started/models), the Llama,
// Qwen, GLM, Kimi and MiniMax model cards (Hugging Face config
// max_position_embeddings) and their makers' API documentation.
var knownWindows = []knownWindow{
	// OpenAI
	{"gpt-5", 400_000, 128_000},
	{"gpt-4.1", 1_047_576, 32_768},
	{"gpt-4o", 128_000, 16_384},
	{"chatgpt-4o", 128_000, 16_384},
	{"gpt-4-turbo", 128_000, 4_096},
	{"gpt-4", 8_192, 8_192},
	{"gpt-3.5-turbo", 16_385, 4_096},
	{"o1-mini", 128_000, 65_536},
	{"o1", 200_000, 100_000},
	{"o3-mini", 200_000, 100_000},
	{"o3", 200_000, 100_000},
	{"o4-mini", 200_000, 100_000},
	{"gpt-oss", 131_072, 0},
	// DeepSeek
	{"deepseek-chat", 131_072, 8_192},
	{"deepseek-reasoner", 131_072, 65_536},
	{"deepseek-v3", 131_072, 0},
	{"deepseek-r1", 131_072, 0},
	// Anthropic
	{"claude-3-haiku", 200_000, 4_096},
	{"claude-3-5-haiku", 200_000, 8_192},
	{"claude-3-5-sonnet", 200_000, 8_192},
	{"claude-3-7-sonnet", 200_000, 64_000},
	{"claude-sonnet-4", 200_000, 64_000},
	{"claude-opus-4", 200_000, 32_000},
	{"claude-haiku-4", 200_000, 64_000},
	{"claude", 200_000, 0},
	// Google
	{"gemini-1.5-pro", 2_097_152, 8_192},
	{"gemini-1.5-flash", 1_048_576, 8_192},
	{"gemini-2.0-flash", 1_048_576, 8_192},
	{"gemini-2.5", 1_048_576, 65_536},
	{"gemini", 1_048_576, 0},
	{"gemma-3", 131_072, 0},
	// Qwen (Alibaba)
	{"qwen3-coder", 262_144, 0},
	{"qwen3", 40_960, 0},
	{"qwen2.5", 32_768, 0},
	{"qwen-max", 32_768, 8_192},
	{"qwen-plus", 131_072, 8_192},
	// Meta Llama (Groq's ids, Ollama's and Hugging Face's)
	{"llama-3.1", 131_072, 0},
	{"llama-3.2", 131_072, 0},
	{"llama-3.3", 131_072, 0},
	{"llama3.1", 131_072, 0},
	{"llama3.2", 131_072, 0},
	{"llama3.3", 131_072, 0},
	{"meta-llama-3.1", 131_072, 0},
	{"llama3", 8_192, 0},
	{"llama-3", 8_192, 0},
	// Mistral
	{"mistral-large", 131_072, 0},
	{"mistral-medium", 131_072, 0},
	{"mistral-small", 32_768, 0},
	{"codestral", 256_000, 0},
	{"open-mistral-nemo", 131_072, 0},
	{"mistral-nemo", 131_072, 0},
	// Zhipu GLM
	{"glm-4.6", 200_000, 0},
	{"glm-4.5", 131_072, 0},
	{"glm-4", 128_000, 0},
	// Moonshot Kimi
	{"kimi-k2", 131_072, 0},
	{"moonshot-v1-8k", 8_192, 0},
	{"moonshot-v1-32k", 32_768, 0},
	{"moonshot-v1-128k", 131_072, 0},
	// MiniMax
	{"minimax-m1", 1_000_000, 0},
	{"minimax-m2", 204_800, 0},
	// xAI
	{"grok-4", 256_000, 0},
	{"grok-3", 131_072, 0},
}

// TableWindow looks a model up in the table of well-known models: by the
// longest prefix of its name, lower-cased, without a route prefix
// ("openai/gpt-4o", "models/gemini-2.5-pro").
func TableWindow(model string) (Window, bool) {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best := -1
	for i, k := range knownWindows {
		if strings.HasPrefix(name, k.prefix) && (best < 0 || len(k.prefix) > len(knownWindows[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return Window{}, false
	}
	k := knownWindows[best]
	return Window{Tokens: k.tokens, ModelMax: k.tokens, MaxOutput: k.maxOutput, Source: chat.WindowFromTable}, true
}
