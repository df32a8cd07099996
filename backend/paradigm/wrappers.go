package paradigm

import "strings"

// Generic wrapper tags: many families wrap a call in a tag and differ only
// in what they put inside. <tool_call> holds JSON for Hermes and Qwen,
// <function=…> for Qwen3-Coder, name<arg_key>… for GLM, pythonic calls for
// some fine-tunes; <function_calls> holds Claude-style invokes or OLMo's
// pythonic calls. The wrapper finds its extent and asks each family's
// payload reader in turn (families.go); a wrapper that holds nothing
// readable is a problem, not silence.

var wrapperParser = &parser{
	openers: []opener{
		{tag: "tool_call"}, {tag: "tool_code"}, {tag: "function_call"}, {tag: "functioncall"},
		{tag: "toolcall"}, {tag: "tool_calls"}, {tag: "function_calls"}, {tag: "tool_use"},
		{tag: "seed:tool_call"}, {tag: "minimax:tool_call"}, {tag: "longcat_tool_call"},
		{tag: "|tool_call"}, {tag: "start_function_call"}, {tag: "|tool_call_start|"}, {tag: "|tools_prefix|"},
		{tag: "tools"}, {tag: "dots_function_call"}, {tag: "toolcall_begin"},
	},
	read: func(s *scanner, r readAt) int {
		return s.wrapped(wrapperFor(r.j, r.g), r.hi)
	},
}

// wrapper is a wrapper tag: where it starts, the tag, its closer as
// spelled, and the family its JSON payload and its problems are labelled
// with.
type wrapper struct {
	j      int
	g      tag
	closer string
	label  string
}

func wrapperFor(j int, g tag) wrapper {
	w := wrapper{j: j, g: g, closer: g.closer(), label: FormatHermes}
	switch g.name {
	case "tool_code":
		w.label = FormatXML
	case "|tool_call":
		w.closer, w.label = "<tool_call|>", FormatGemma4
	case "start_function_call":
		w.closer, w.label = "<end_function_call>", FormatFunctionGemma
	case "|tool_call_start|":
		w.closer, w.label = swapWord(g.rawName, "start", "end")+">", FormatPythonic
	case "|tools_prefix|":
		w.closer = swapWord(g.rawName, "prefix", "suffix") + ">"
	case "tool_use":
		w.label = FormatToolUse
	}
	return w
}

// wrapped reads a wrapper tag and what it holds.
func (s *scanner) wrapped(w wrapper, hi int) int {
	t := s.text
	j, g, closer := w.j, w.g, w.closer
	k := s.skipSpace(g.end, hi)
	if k < hi && strings.HasPrefix(t[k:], "```") {
		// A fence inside the tag: skip its opening line.
		if e := s.findIn("\n", k, hi); e >= 0 {
			k = s.skipSpace(e+1, hi)
		}
	}
	if k >= hi {
		if s.prevSig(j, 0) == 0 || w.label != FormatHermes {
			s.problem(msgCutOff, w.label, j, hi)
			return hi
		}
		return -1
	}
	if end := s.nestedWrappers(w, k, hi); end > k {
		return end
	}
	for _, p := range payloadReaders {
		if end := p.payload(s, w, k); end > k {
			if q := s.skipSpace(end, hi); !strings.HasPrefix(s.text[q:hi], closer) {
				s.closerAtEnd(end, closer, hi) // the wrapper's closer never came
			}
			return end
		}
	}
	// Nothing recognisable inside.
	if s.prevSig(j, 0) != 0 {
		if c := s.findIn(closer, k, hi); c >= 0 && c-k < 200 && !strings.ContainsAny(t[k:c], "{<(=\n") {
			return -1 // <tool_call>example</tool_call> mentioned in a sentence
		}
	}
	msg := "This " + strings.TrimPrefix(g.rawName, "<") + " block holds no tool call Airlock can read, so nothing was run. Write the call in the format the system prompt describes."
	if c := s.findIn(closer, k, hi); c >= 0 {
		end := c + len(closer)
		if next := s.findIn(g.rawName, k, hi); next < 0 || next > c {
			s.problem(msg, w.label, j, end)
			return end
		}
	}
	if s.prevSig(j, 0) != 0 {
		return -1 // a tag mentioned in prose
	}
	end := hi
	if next := s.findIn(g.rawName, k, hi); next >= 0 {
		end = next
	}
	s.problem(msg, w.label, j, end)
	return end
}

// nestedWrappers reads wrappers inside a wrapper (Hunyuan's
// <tool_calls><tool_call>…</tool_call><tool_call>…</tool_call></tool_calls>)
// up to the outer closer. It returns -1 when k holds no wrapper tag.
func (s *scanner) nestedWrappers(w wrapper, k, hi int) int {
	p := k
	read := false
	for p < hi && s.text[p] == '<' {
		g, ok := s.parseTag(p, hi)
		if !ok || g.closing || !isWrapperTag(g) {
			break
		}
		end := s.wrapped(wrapperFor(p, g), hi)
		if end <= p {
			break
		}
		read = true
		p = s.skipSpace(end, hi)
	}
	if !read {
		return -1
	}
	if strings.HasPrefix(s.text[p:], w.closer) {
		return p + len(w.closer)
	}
	return p
}

func isWrapperTag(g tag) bool {
	return wrapperTags[g.name] || (g.alias != "" && wrapperTags[g.alias])
}

var wrapperTags = map[string]bool{}

func init() {
	for _, o := range wrapperParser.openers {
		wrapperTags[o.tag] = true
	}
}
