package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// gpt-oss's harmony: a message whose recipient is a function is a call,
//
//	<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{…}<|call|>
//	<|channel|>commentary to=functions.f <|constrain|>json<|message|>{…}<|call|>
//	<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{…}<|call|>
//
// The analysis channel is reasoning and is masked (mask.go); a final or
// commentary message without a recipient is prose.

const FormatHarmony = "harmony"

var harmonyParser = &parser{
	families: []Family{{ID: FormatHarmony, Name: "Harmony", Models: "gpt-oss-20b, gpt-oss-120b",
		Markers: []string{"<|channel|>commentary to=functions.", "<|call|>"},
		Source:  "openai/harmony docs (the response format); vLLM openai tool parser",
		Example: `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"notes.md"}<|call|>`}},
	openers: []opener{{tag: "|channel|"}, {tag: "|start|"}},
	read: func(s *scanner, r readAt) int {
		return s.harmony(r.j, r.g, r.hi)
	},
}

func (s *scanner) harmony(j int, g tag, hi int) int {
	t := s.text
	msg := s.findIn("<|message|>", g.end, min(hi, g.end+400))
	if msg < 0 {
		return -1
	}
	header := t[g.end:msg]
	recipient := ""
	if k := strings.Index(header, "to="); k >= 0 {
		rest := header[k+3:]
		e := strings.IndexAny(rest, " <\t\n")
		if e < 0 {
			e = len(rest)
		}
		recipient = rest[:e]
	}
	if recipient == "" {
		return -1
	}
	body := msg + len("<|message|>")
	name := strings.TrimPrefix(recipient, "functions.")
	p := s.skipSpace(body, hi)
	if p >= hi {
		s.problem(msgCutOff, FormatHarmony, j, hi)
		return hi
	}
	if t[p] != '{' {
		end := s.findIn("<|call|>", p, hi)
		if end < 0 {
			end = hi
		}
		s.problem("The arguments of "+strconv.Quote(name)+" are not a JSON object, so the call was not run.", FormatHarmony, j, end)
		return end
	}
	r := s.readJSON(p, hi, "<|call|>", false)
	end := s.afterCloser(max(r.end, p), "<|call|>", hi)
	if !r.ok() {
		s.problem(r.msg, FormatHarmony, j, end)
		return end
	}
	obj, _ := r.vals[0].(ojson.Object)
	it := item{name: name, args: obj, format: FormatHarmony, start: j, end: end}
	if obj == nil {
		it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
	}
	s.add(it)
	return end
}
