package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// gpt-oss's harmony: a message whose header names a recipient is a call,
// whatever its channel, and the recipient may stand before or after the
// channel:
//
//	<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{…}<|call|>
//	<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{…}<|call|>
//	 to=functions.f<|channel|>analysis<|message|>{…}       (the prompt ended with <|start|>assistant)
//	<|channel|>commentary to=browser.search code<|message|>{…}<|call|>   (a built-in tool)
//
// A message to=assistant is a tool's result, not a call. The analysis
// channel without a recipient is reasoning and is masked (mask.go).

const FormatHarmony = "harmony"

var harmonyParser = &parser{
	families: []Family{{ID: FormatHarmony, Name: "Harmony", Models: "gpt-oss-20b, gpt-oss-120b",
		Markers: []string{"<|channel|>commentary to=functions.", "<|constrain|>json", "<|call|>"},
		Source:  "openai/harmony docs (the response format); vLLM openai tool parser; llama.cpp chat tests",
		Example: `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"notes.md"}<|call|>`}},
	openers: []opener{{tag: "|channel|"}, {any: '{'}},
	read: func(s *scanner, r readAt) int {
		if r.opener.any == '{' {
			return s.harmonyStripped(r.j, r.lo, r.hi)
		}
		return s.harmony(r.j, r.hi)
	},
}

// harmonyHeader reads the header of the message whose <|channel|> token is
// at j: its start (after the previous message, or the text's start), the
// recipient (after "to="), and where <|message|> begins the body (-1 when
// there is no body in reach).
func (s *scanner) harmonyHeader(j, hi int) (start int, recipient string, msg int) {
	t := s.text
	start = j
	for k := j - 1; k >= 0 && k >= j-256; k-- {
		if t[k] == '>' && k >= 6 {
			if strings.HasSuffix(t[:k+1], "<|start|>") {
				start = k - 8
				break
			}
			if strings.HasSuffix(t[:k+1], "<|end|>") || strings.HasSuffix(t[:k+1], "<|call|>") || strings.HasSuffix(t[:k+1], "<|return|>") {
				start = k + 1
				break
			}
		}
		if k == 0 {
			start = 0
		}
	}
	msg = s.findIn("<|message|>", j, min(hi, j+400))
	if msg < 0 {
		return start, "", -1
	}
	header := t[start:msg]
	if k := strings.Index(header, "to="); k >= 0 {
		rest := header[k+3:]
		e := strings.IndexAny(rest, " <\t\n")
		if e < 0 {
			e = len(rest)
		}
		recipient = rest[:e]
		if e < len(rest) && rest[e] == ' ' && strings.HasPrefix(recipient, "functions.") {
			recipient = s.spacedRecipient(rest, recipient)
		}
	}
	if recipient == "assistant" || recipient == "user" {
		recipient = "" // a tool's result coming back
	}
	return start, recipient, msg
}

func (s *scanner) harmony(j, hi int) int {
	t := s.text
	start, recipient, msg := s.harmonyHeader(j, hi)
	if recipient == "" || msg < 0 {
		return -1
	}
	name := strings.TrimPrefix(recipient, "functions.")
	p := s.skipSpace(msg+len("<|message|>"), hi)
	if p >= hi {
		s.problem(msgCutOff, FormatHarmony, start, hi)
		return hi
	}
	if t[p] != '{' {
		end := s.findIn("<|call|>", p, hi)
		if end < 0 {
			end = hi
		}
		s.problem("The arguments of "+strconv.Quote(name)+" are not a JSON object, so the call was not run.", FormatHarmony, start, end)
		return end
	}
	r := s.readJSON(p, hi, "<|call|>", false)
	end := s.afterCloser(max(r.end, p), "<|call|>", hi)
	if !r.ok() {
		s.problem(r.msg, FormatHarmony, start, end)
		return end
	}
	obj, _ := r.vals[0].(ojson.Object)
	it := item{name: name, args: obj, format: FormatHarmony, start: start, end: end}
	if obj == nil {
		it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
	}
	s.add(it)
	return end
}

// harmonyStripped reads a call whose special tokens a server stripped
// (Rapid-MLX issue 480), at the '{' that opens its arguments:
//
//	commentary to=functions.get_weather json{"city":"Paris"}
//
// On the same line before it stand "to=functions.NAME", then nothing but
// the words the tokens framed (json, code, commentary, analysis) and any
// tokens left; the channel, commentary or analysis, is named before "to="
// or among those words.
func (s *scanner) harmonyStripped(j, lo, hi int) int {
	t := s.text
	from := max(lo, j-200)
	if at := s.find("to=functions.", from); at < 0 || at >= j {
		return -1 // the common case, at the cost of one search per scan
	}
	if nl := strings.LastIndexByte(t[from:j], '\n'); nl >= 0 {
		from += nl + 1
	}
	line := t[from:j]
	k := strings.LastIndex(line, "to=functions.")
	if k < 0 {
		return -1
	}
	rest := line[k+len("to="):]
	e := strings.IndexAny(rest, " <\t")
	if e < 0 {
		e = len(rest)
	}
	name := strings.TrimPrefix(rest[:e], "functions.")
	// The call starts at the word before "to=" ("commentary",
	// "assistantcommentary", "assistant").
	pre := strings.TrimRight(line[:k], " \t")
	start := from + strings.LastIndexAny(pre, " \t") + 1
	channel := strings.HasSuffix(pre, "commentary") || strings.HasSuffix(pre, "analysis")
	words := strings.NewReplacer("<|constrain|>", " ", "<|message|>", " ", "<|channel|>", " ").Replace(rest[e:])
	for _, w := range strings.Fields(words) {
		switch w {
		case "commentary", "analysis":
			channel = true
		case "json", "code":
		default:
			return -1
		}
	}
	if !channel || !validName(name, false) {
		return -1
	}
	r := s.readJSON(j, hi, "", false)
	end := max(r.end, j+1)
	if !r.ok() {
		s.problem(r.msg, FormatHarmony, start, end)
		return end
	}
	obj, _ := r.vals[0].(ojson.Object)
	it := item{name: name, args: obj, format: FormatHarmony, start: start, end: r.end}
	if obj == nil {
		it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
	}
	s.add(it)
	return r.end
}

// spacedRecipient reads a tool name with spaces ("Web Search", an LM
// Studio plugin's, LM Studio issue 876) from the header after "to=": the
// longest run of words before the first token, the content type (json,
// code) or a channel name, that is a tool of the chat's. Without one, or when no longer run is, the recipient stays the
// first word.
func (s *scanner) spacedRecipient(rest, first string) string {
	if s.known == nil {
		return first
	}
	if k := strings.Index(rest, "<|"); k >= 0 {
		rest = rest[:k]
	}
	if k := strings.IndexAny(rest, "\t\n"); k >= 0 {
		rest = rest[:k]
	}
	words := strings.Fields(rest)
	for i, w := range words {
		if i > 0 && harmonyHeaderWord[w] {
			words = words[:i] // the content type or the channel: not the name
			break
		}
	}
	for n := min(len(words), 8); n > 1; n-- {
		cand := strings.Join(words[:n], " ")
		if strings.Contains(rest, cand) && s.known(strings.TrimPrefix(cand, "functions.")) {
			return cand
		}
	}
	return first
}

var harmonyHeaderWord = map[string]bool{"json": true, "code": true, "commentary": true, "analysis": true, "final": true}
