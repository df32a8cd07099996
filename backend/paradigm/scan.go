package paradigm

import (
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"strconv"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// Options says what Scan looks for.
type Options struct {
	// Paradigm is the chat's paradigm: "json" (the default when empty),
	// "xml", "vcp", or "auto" for every format the scanner knows.
	Paradigm string
	// RecognizeOthers also accepts the formats model families are trained
	// to emit (Hermes/Qwen, Qwen3-Coder, Llama, Mistral, DeepSeek, ...)
	// beside the paradigm's own. On by default in chats.
	RecognizeOthers bool
	// Registry, when set, repairs names and validates and coerces
	// arguments; unknown tools and bad arguments become problems. Nil keeps
	// names and argument values as the model wrote them.
	Registry *tools.Registry
	// IDSeed is mixed into generated call ids (the message id, say), so the
	// same call in two messages gets two ids. Re-scanning the same message
	// with the same seed yields the same ids.
	IDSeed string
}

// DefaultOptions is what a new chat uses.
func DefaultOptions() Options { return Options{Paradigm: "json", RecognizeOthers: true} }

// Result is what a scan found, in order of appearance.
type Result struct {
	Calls    []chat.ToolCall `json:"calls"`
	Problems []chat.Problem  `json:"problems"`
	// Ignored lists regions that were deliberately not scanned for calls:
	// reasoning, code blocks in other languages, labelled examples. For
	// people debugging a model ("why wasn't my call seen?").
	Ignored []Ignored `json:"ignored,omitempty"`
}

// Ignored is a region the scanner skipped, and why.
type Ignored struct {
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Reason string `json:"reason"` // "reasoning", "example", "code"
}

// Call formats: the syntax a call was found in (chat.ToolCall.Format).
const (
	FormatJSON       = "json"       // Airlock JSON paradigm: {"tool_calls":[...]} (fenced or not)
	FormatXML        = "xml"        // Airlock XML paradigm: <tool_code>{...}</tool_code>
	FormatVCP        = "vcp"        // <<<[TOOL_REQUEST]>>> ... <<<[END_TOOL_REQUEST]>>>
	FormatHermes     = "hermes"     // <tool_call>{"name":...,"arguments":...}</tool_call> (Hermes, Qwen 2.5/3)
	FormatQwenCoder  = "qwen3coder" // <function=name><parameter=p>v</parameter></function> (Qwen3-Coder, Seed-OSS)
	FormatLlama      = "llama"      // {"name":...,"parameters":...}, <|python_tag|>, <function=name>{...}</function>
	FormatOpenAI     = "openai"     // {"type":"function","function":{"name":...,"arguments":"..."}}
	FormatMistral    = "mistral"    // [TOOL_CALLS][{...}] and [TOOL_CALLS]name[ARGS]{...}
	FormatDeepSeek   = "deepseek"   // <｜tool▁calls▁begin｜>... (V3, R1, V3.1) and DSML (V3.2, V4)
	FormatPythonic   = "pythonic"   // [get_weather(city="Paris")] (Llama 3.2/4, Gemma 3 tool_code)
	FormatGLM        = "glm"        // <tool_call>name<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>
	FormatKimi       = "kimi"       // <|tool_calls_section_begin|>... (Kimi K2)
	FormatInvoke     = "invoke"     // <invoke name="x"><parameter name="p">v</parameter></invoke> (MiniMax-M2, Claude-style)
	FormatGemma      = "gemma"      // <|tool_call>call:name{k:<|"|>v<|"|>}<tool_call|> (Gemma 4, FunctionGemma)
	FormatHarmony    = "harmony"    // <|channel|>commentary to=functions.x<|message|>{...}<|call|> (gpt-oss)
	FormatGranite    = "granite"    // <|tool_call|>[{...}]
	FormatPhi4       = "phi4"       // functools[{...}]
	FormatInternLM   = "internlm"   // <|action_start|><|plugin|>{...}<|action_end|>
	FormatCommandR   = "commandr"   // <|START_ACTION|>[{"tool_name":...,"parameters":...}]<|END_ACTION|>
	FormatFunctionry = "functionary"
)

// fmtSet is a set of recognisers.
type fmtSet uint32

const (
	fJSON fmtSet = 1 << iota
	fXML
	fHermes
	fVCP
	fQwenCoder
	fLlama
	fMistral
	fDeepSeek
	fPythonic
	fGLM
	fKimi
	fInvoke
	fGemma
	fHarmony
	fMisc

	fAll    = fJSON | fXML | fHermes | fVCP | fOthers
	fOthers = fHermes | fQwenCoder | fLlama | fMistral | fDeepSeek | fPythonic | fGLM | fKimi | fInvoke | fGemma | fHarmony | fMisc
)

func (f fmtSet) has(x fmtSet) bool { return f&x != 0 }

func formatsFor(o Options) fmtSet {
	var f fmtSet
	switch strings.ToLower(strings.TrimSpace(o.Paradigm)) {
	case "auto", "all":
		return fAll
	case "xml":
		f = fXML | fHermes
	case "vcp":
		f = fVCP
	default:
		f = fJSON
	}
	if o.RecognizeOthers {
		// Every other syntax, the other paradigms' included: a chat switched
		// from JSON to XML still has JSON calls in its history to imitate.
		f = fAll
	}
	return f
}

// maxProblems bounds the problems one message can produce.
const maxProblems = 100

// Scan finds the tool calls in a complete assistant message. It never
// panics, and its time grows linearly with the length of text. Pass only
// the message content: a provider's separate reasoning field must never be
// scanned. Inline reasoning (<think>…</think> and its relatives) is masked.
func Scan(text string, opts Options) (res Result) {
	s := newScanner(text, formatsFor(opts))
	func() {
		defer func() {
			if r := recover(); r != nil {
				// A bug in a recogniser must not take the app down: report
				// what we have and say the rest could not be read.
				s.items = append(s.items, item{msg: "Airlock could not read the rest of this message (internal error: " + strconv.Quote(toString(r)) + ").", start: 0, end: len(text)})
			}
		}()
		s.run(0, len(text), ctxTop)
	}()
	return s.finish(opts)
}

func toString(v any) string {
	switch t := v.(type) {
	case error:
		return t.Error()
	case string:
		return t
	}
	return "panic"
}

// item is a call or a problem, before ids and the registry are applied.
type item struct {
	id, name string
	args     ojson.Object
	msg      string // non-empty: a problem
	format   string
	start    int
	end      int
}

func (s *scanner) finish(opts Options) Result {
	res := Result{Calls: []chat.ToolCall{}, Problems: []chat.Problem{}, Ignored: s.ignored}
	used := map[string]bool{}
	nprob := 0
	for idx, it := range s.items {
		raw := s.text[it.start:it.end]
		id := strings.TrimSpace(it.id)
		if id == "" || used[id] || len(id) > 128 {
			id = genID(opts.IDSeed, raw, idx)
		}
		used[id] = true
		name := strings.TrimSpace(it.name)
		if it.msg == "" && name == "" {
			it.msg = "The tool call has no tool name, so it was not run."
		}
		if it.msg == "" && opts.Registry != nil {
			canon, args, err := opts.Registry.Check(name, it.args)
			if err != nil {
				it.msg = err.Error()
				if canon != "" {
					name = canon
				}
			} else {
				name, it.args = canon, args
			}
		}
		if it.msg != "" {
			nprob++
			if nprob > maxProblems {
				continue
			}
			res.Problems = append(res.Problems, chat.Problem{Message: it.msg, Raw: raw, Name: name, ID: id, Format: it.format, Start: it.start, End: it.end})
			continue
		}
		args := it.args
		if args == nil {
			args = ojson.Object{}
		}
		res.Calls = append(res.Calls, chat.ToolCall{ID: id, Name: name, Arguments: ojson.Encode(args), Raw: raw, Format: it.format, Start: it.start, End: it.end})
	}
	if nprob > maxProblems {
		res.Problems = append(res.Problems, chat.Problem{Message: strconv.Itoa(nprob-maxProblems) + " more problems were found in this message and not listed.", Start: len(s.text), End: len(s.text)})
	}
	return res
}

// genID is stable: the same seed, raw text and position give the same id.
func genID(seed, raw string, idx int) string {
	h := fnv.New64a()
	h.Write([]byte(seed))
	h.Write([]byte{0})
	h.Write([]byte(raw))
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(idx))
	h.Write(b[:])
	return "call_" + hex.EncodeToString(h.Sum(nil))[:10]
}
