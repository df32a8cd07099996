// Package paradigm is how a chat asks a model for tool calls written as
// text, and reads them back. A paradigm has the three verbs of the seam:
// Prompt (teach the syntax and list the tools), Parse (complete message →
// calls and problems) and FormatResults (results → the text of the user
// message that carries them back); FormatCalls writes calls the way the
// prompt teaches, for round trips, demos and the Tool lab.
//
// Scan is the scanner behind every Parse: it reads the paradigm's own
// syntax and, when asked, the formats model families are trained to emit.
// Everything here is pure: text in, calls out.
package paradigm

import (
	"sort"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

// Paradigm is one way of writing tool calls as text.
type Paradigm interface {
	ID() string    // "json", "xml", "vcp"
	Label() string // for people: "JSON", "XML tags", "VCP"
	// Prompt teaches the syntax and lists the tools; it goes into the
	// system prompt. Empty when there are no tools.
	Prompt(specs []tools.Spec) string
	// Parse reads the calls written in this paradigm's own syntax only,
	// names and arguments as written. Scan does more (other formats,
	// a registry); Parse is Scan with this paradigm and nothing else.
	Parse(text string) Result
	// FormatResults writes the user message that carries results back.
	FormatResults(rs []chat.ToolResult) string
	// FormatCalls writes calls the way Prompt teaches (Parse reads them
	// back as the same calls).
	FormatCalls(calls []chat.ToolCall) string
}

var registry = map[string]Paradigm{}

func register(p Paradigm) { registry[p.ID()] = p }

func init() {
	register(jsonParadigm{})
	register(xmlParadigm{})
	register(vcpParadigm{})
}

// Default is the paradigm of a new chat.
const Default = "json"

// Get returns a paradigm by id.
func Get(id string) (Paradigm, bool) {
	p, ok := registry[id]
	return p, ok
}

// All returns the paradigms, JSON first.
func All() []Paradigm {
	out := make([]Paradigm, 0, len(registry))
	for _, p := range registry {
		out = append(out, p)
	}
	order := map[string]int{"json": 0, "xml": 1, "vcp": 2}
	sort.Slice(out, func(i, j int) bool {
		oi, iok := order[out[i].ID()]
		oj, jok := order[out[j].ID()]
		if iok && jok {
			return oi < oj
		}
		if iok != jok {
			return iok
		}
		return out[i].ID() < out[j].ID()
	})
	return out
}

// Formats lists the syntaxes the scanner recognises with one example each:
// for the Tool lab and for docs. The first three are the paradigms' own.
func Formats() []FormatInfo { return formatInfos }

// FormatInfo describes a recognised syntax.
type FormatInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Models  string `json:"models"`
	Example string `json:"example"`
}

var formatInfos = []FormatInfo{
	{FormatJSON, "Airlock JSON", "any (JSON paradigm)", "```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"read_file\",\"arguments\":{\"path\":\"notes.md\"}}]}\n```"},
	{FormatXML, "Airlock XML", "any (XML paradigm)", `<tool_code>{"name":"read_file","arguments":{"path":"notes.md"}}</tool_code>`},
	{FormatVCP, "VCP", "any (VCP paradigm)", "<<<[TOOL_REQUEST]>>>\ntool_name:「始」read_file「末」,\npath:「始」notes.md「末」\n<<<[END_TOOL_REQUEST]>>>"},
	{FormatHermes, "Hermes", "Hermes 2/3, Qwen 2.5/3, QwQ, many fine-tunes", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.md\"}}\n</tool_call>"},
	{FormatQwenCoder, "Qwen3-Coder XML", "Qwen3-Coder, Qwen3.5, Seed-OSS", "<tool_call>\n<function=read_file>\n<parameter=path>\nnotes.md\n</parameter>\n</function>\n</tool_call>"},
	{FormatLlama, "Llama JSON", "Llama 3.1/3.2/3.3, xLAM, Granite, generic", `{"name": "read_file", "parameters": {"path": "notes.md"}}`},
	{FormatOpenAI, "OpenAI-style JSON", "models imitating the API", `{"type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \"notes.md\"}"}}`},
	{FormatMistral, "Mistral", "Mistral 7B v0.3, Nemo, Small 3.x, Devstral, Magistral", `[TOOL_CALLS]read_file[ARGS]{"path": "notes.md"}`},
	{FormatDeepSeek, "DeepSeek", "DeepSeek V3, R1, V3.1, V3.2 (DSML), V4", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{\"path\": \"notes.md\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
	{FormatPythonic, "Pythonic", "Llama 3.2/4, Gemma 3, ToolACE", `[read_file(path="notes.md")]`},
	{FormatGLM, "GLM", "GLM-4.5, 4.6, 4.7", "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>notes.md</arg_value>\n</tool_call>"},
	{FormatKimi, "Kimi", "Kimi K2", "<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"notes.md\"}<|tool_call_end|><|tool_calls_section_end|>"},
	{FormatInvoke, "Invoke XML", "MiniMax-M2, Claude-style fine-tunes", "<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">notes.md</parameter>\n</invoke>\n</minimax:tool_call>"},
	{FormatGemma, "Gemma", "Gemma 4, FunctionGemma", `<|tool_call>call:read_file{path:<|"|>notes.md<|"|>}<tool_call|>`},
	{FormatHarmony, "Harmony", "gpt-oss", `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"notes.md"}<|call|>`},
	{FormatGranite, "Granite", "IBM Granite 3.x", `<|tool_call|>[{"name": "read_file", "arguments": {"path": "notes.md"}}]`},
	{FormatPhi4, "Phi-4", "Phi-4-mini", `functools[{"name": "read_file", "arguments": {"path": "notes.md"}}]`},
	{FormatInternLM, "InternLM", "InternLM 2/2.5", "<|action_start|><|plugin|>\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"notes.md\"}}<|action_end|>"},
	{FormatCommandR, "Command R", "Cohere Command R7B, Command A", `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "read_file", "parameters": {"path": "notes.md"}}]<|END_ACTION|>`},
}
