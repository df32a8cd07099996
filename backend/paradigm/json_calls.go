package paradigm

import "strings"

// JSON call objects written as they are: Airlock's JSON paradigm
// ({"tool_calls":[…]} in a ```json fence), Llama 3.x ({"name", "parameters"}
// alone on a line, or after <|python_tag|>, several separated by ';'),
// xLAM and others (a bare array of calls), models imitating the OpenAI API,
// and TGI's grammar output. The shapes are read in callobj.go.

const (
	FormatJSON   = "json"        // Airlock's JSON paradigm
	FormatLlama  = "llama_json"  // {"name": …, "parameters": …} and other bare call objects
	FormatOpenAI = "openai_json" // {"type": "function", "function": {…}}
	FormatTGI    = "tgi"         // {"function": {"_name": …}}
)

var jsonCallsParser = &parser{
	families: []Family{
		{ID: FormatJSON, Name: "Airlock JSON", Models: "any (JSON paradigm)",
			Markers: []string{"```json", `{"tool_calls":`},
			Source:  "Airlock's own paradigm (paradigm/json_paradigm.go)",
			Example: "```json\n{\"tool_calls\":[{\"id\":\"call_1\",\"name\":\"read_file\",\"arguments\":{\"path\":\"notes.md\"}}]}\n```"},
		{ID: FormatLlama, Name: "Llama JSON", Models: "Llama 3.1/3.2/3.3, xLAM, generic JSON calls",
			Markers: []string{"<|python_tag|>", `{"name":`},
			Source:  "meta-llama/llama-models prompt format docs; vLLM llama3_json and xlam tool parsers",
			Example: `{"name": "read_file", "parameters": {"path": "notes.md"}}`},
		{ID: FormatOpenAI, Name: "OpenAI-style JSON", Models: "models imitating the API",
			Markers: []string{`{"type": "function"`},
			Source:  "OpenAI chat completions API (tool_calls)",
			Example: `{"type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \"notes.md\"}"}}`},
		{ID: FormatTGI, Name: "TGI grammar", Models: "Hugging Face text-generation-inference guided tool output",
			Markers: []string{`{"function": {"_name":`},
			Source:  "huggingface/text-generation-inference tool grammar",
			Example: `{"function": {"_name": "read_file", "path": "notes.md"}}`},
	},
	openers: []opener{{tag: "|python_tag|"}, {any: '{'}, {any: '['}},
	read: func(s *scanner, r readAt) int {
		switch {
		case r.g.name == "|python_tag|":
			return s.pythonTag(r.j, r.g, r.hi)
		case s.text[r.j] == '{':
			return s.braceCall(r.j, r.hi)
		}
		return s.bracketCall(r.j, r.hi)
	},
}

// braceCall reads a call object found in prose. At the start of a line (or
// after ':', ';' or a tag) call-shaped JSON is a call; after other prose on
// the same line it must also end its line. An object that is an element of
// code the model pasted without a fence (after '[', '(', '=' or ',' on the
// previous line) is code, not a call.
func (s *scanner) braceCall(j, hi int) int {
	t := s.text
	k := s.skipSpace(j+1, hi)
	if k >= hi || !(t[k] == '"' || t[k] == '\'' || t[k] >= 'a' && t[k] <= 'z' || t[k] >= 'A' && t[k] <= 'Z') {
		return -1
	}
	window := t[j:min(hi, j+2048)]
	if !looksLikeCall(window) && !strings.Contains(window, `"function"`) {
		return -1
	}
	lineStart := false
	switch s.prevSig(j, 0) {
	case 0:
		lineStart = true
		if s.codeBefore(j) {
			return s.skipCode(j, hi)
		}
	case ';', ':', '>':
		lineStart = true
	case '[', '(', '=', ',', '{', '"', '\'', '`':
		return -1
	}
	r := s.readJSON(j, hi, "", true)
	if !r.ok() {
		if lineStart && looksLikeCall(t[j:max(j, r.end)]) && strings.Contains(t[j:min(hi, j+64)], `"`) {
			s.problem(r.msg, FormatLlama, j, max(r.end, j+1))
			return max(r.end, j+1)
		}
		return -1
	}
	if lineStart && s.codeAfter(r.end, hi) {
		return s.skipCode(j, hi)
	}
	if !lineStart && !s.endsLine(r.end, hi) {
		return -1
	}
	s.jsonCalls(r, "", j, r.end, false, false)
	return r.end
}

// bracketCall reads a bare array of call objects ([{"name": …}, …]) at the
// start of a line or after ':' or a tag.
func (s *scanner) bracketCall(j, hi int) int {
	t := s.text
	switch s.prevSig(j, 0) {
	case 0, ':', '>':
	default:
		return -1
	}
	k := s.skipSpace(j+1, hi)
	if k >= hi || t[k] != '{' || !looksLikeCall(t[j:min(hi, j+2048)]) {
		return -1
	}
	if s.prevSig(j, 0) == 0 && s.codeBefore(j) {
		return s.skipCode(j, hi)
	}
	r := s.readJSON(j, hi, "", false)
	if !r.ok() {
		if strings.Contains(t[j:min(hi, j+64)], `"`) {
			s.problem(r.msg, FormatLlama, j, max(r.end, j+1))
			return max(r.end, j+1)
		}
		return -1
	}
	if s.codeAfter(r.end, hi) {
		return s.skipCode(j, hi)
	}
	s.jsonCalls(r, "", j, r.end, false, false)
	return r.end
}

// codeBefore says the previous non-blank line ends the way an element of a
// literal in code does: with '[', '(', '{', '=' or ','.
func (s *scanner) codeBefore(j int) bool {
	t := s.text
	for k := j - 1; k >= 0 && k >= j-256; k-- {
		switch c := t[k]; c {
		case ' ', '\t', '\n', '\r':
			continue
		case '[', '(', '{', '=', ',':
			return true
		default:
			return false
		}
	}
	return false
}

// codeAfter says the value at end is followed by ',' and a line break, as an
// element of a list in code is (a call followed by another call on the same
// line is not).
func (s *scanner) codeAfter(end, hi int) bool {
	t := s.text
	p := end
	for p < hi && (t[p] == ' ' || t[p] == '\t') {
		p++
	}
	if p < hi && t[p] == ')' {
		return true
	}
	if p >= hi || t[p] != ',' {
		return false
	}
	p++
	for p < hi && (t[p] == ' ' || t[p] == '\t' || t[p] == '\r') {
		p++
	}
	return p >= hi || t[p] == '\n'
}

// skipCode consumes the JSON-like value at j as code.
func (s *scanner) skipCode(j, hi int) int {
	ext := s.scanExtent(j, hi, "")
	end := max(ext.end, j+1)
	s.ignore(j, end, "code")
	return end
}

// midSentence says the span [j, end) sits inside a sentence: prose before
// it on its line that doesn't end a sentence, and prose after it.
func (s *scanner) midSentence(j, end, hi int) bool {
	switch s.prevSig(j, 0) {
	case 0, '.', '!', '?', '>':
		return false
	}
	return !s.endsLine(end, hi)
}

// endsLine says only blanks, sentence punctuation or an end-of-turn token
// follow end on its line.
func (s *scanner) endsLine(end, hi int) bool {
	t := s.text
	for p := end; p < hi; p++ {
		switch t[p] {
		case ' ', '\t', '\r', '.', '!', ';':
			continue
		case '\n':
			return true
		case '<':
			return true // <|eot_id|>, </s>, a closing tag
		}
		return false
	}
	return true
}

// fencedJSON reads JSON that opens a fence at k; its extent decides where
// the fence ends, so a ``` inside a string (raw newlines and all) can't cut
// it short. JSON that holds no calls is just a block shown to the user.
// It returns -1 when no JSON opens the fence.
func (s *scanner) fencedJSON(k int, fence string, hi int) int {
	t := s.text
	if k >= hi || (t[k] != '{' && t[k] != '[') {
		return -1
	}
	r := s.readJSON(k, hi, fence, true)
	contentEnd, end := s.fenceCloseAt(fence, max(r.end, k), hi)
	if r.ok() {
		s.jsonCalls(r, "", k, contentEnd, false, true)
		return end
	}
	if looksLikeCall(t[k:contentEnd]) {
		s.problem(r.msg, FormatJSON, k, contentEnd)
	}
	return end
}

// pythonTag reads what follows Llama 3.x's <|python_tag|>: JSON calls
// ({"name":...,"parameters":...}; several separated by ';') or a built-in
// tool call (brave_search.call(query="...")).
func (s *scanner) pythonTag(j int, g tag, hi int) int {
	t := s.text
	p := s.skipSpace(g.end, hi)
	if p >= hi {
		return g.end
	}
	if t[p] == '{' || t[p] == '[' {
		r := s.readJSON(p, hi, "", true)
		if !r.ok() {
			s.problem(r.msg, FormatLlama, j, max(r.end, p+1))
			return max(r.end, p+1)
		}
		s.jsonCalls(r, FormatLlama, j, r.end, true, false)
		return r.end
	}
	if isIdentByte(t[p]) {
		if end := s.pythonicCalls(j, p, hi, "", true); end > 0 {
			return end
		}
	}
	return g.end
}

// jsonAfter reads explicit JSON calls after a marker (<|tool_call|>,
// functools, <|START_ACTION|>), up to an optional closer.
func (s *scanner) jsonAfter(j, k int, closer, format string, hi int) int {
	t := s.text
	p := s.skipSpace(k, hi)
	if p >= hi {
		s.problem(msgCutOff, format, j, hi)
		return hi
	}
	if t[p] != '{' && t[p] != '[' {
		if c := s.findIn(closer, p, min(hi, p+4096)); closer != "" && c >= 0 {
			s.problem("The tool call after this marker is not JSON, so it was not run. Write the call as a JSON object with \"name\" and \"arguments\".", format, j, c+len(closer))
			return c + len(closer)
		}
		return -1
	}
	r := s.readJSON(p, hi, closer, true)
	end := s.afterCloser(max(r.end, p), closer, hi)
	if !r.ok() {
		s.problem(r.msg, format, j, end)
		return end
	}
	s.jsonCalls(r, format, j, end, true, false)
	return end
}
