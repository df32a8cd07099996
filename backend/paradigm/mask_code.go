package paradigm

import "strings"

// Code shown to the user is not a call. A fenced block in a language that
// can hold calls (json, xml, tool_code, none, …) is scanned; any other
// language (python, bash, go, …) makes the block inert, and so does an
// inline `code span`. A block marked as plain text (text, plaintext, txt)
// is text the answer quotes: a call format in it is shown, not made.

// callFenceLangs are the fence languages that may hold calls.
var callFenceLangs = map[string]bool{
	"": true, "json": true, "json5": true, "jsonc": true, "jsonl": true, "xml": true,
	"tool_code": true, "tool_call": true, "tool_calls": true, "tool": true, "tools": true,
	"function_call": true, "function_calls": true, "toolcall": true, "tool_use": true, "vcp": true,
}

func (s *scanner) fenceOrCode(j, hi int) int {
	t := s.text
	c := t[j]
	n := 0
	for j+n < hi && t[j+n] == c {
		n++
	}
	if n < 3 || !s.atLineStart(j, 0) && !s.quotedLineStart(j) {
		if c == '`' {
			return s.inlineCode(j, n, hi)
		}
		return j + n
	}
	// Info string: the rest of the opening line.
	eol := s.findIn("\n", j+n, hi)
	if eol < 0 {
		eol = hi
	}
	info := strings.TrimSpace(t[j+n : eol])
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		return s.inlineCode(j, n, hi) // ``` inline ``` span, not a fence
	}
	lang := strings.ToLower(info)
	if sp := strings.IndexAny(lang, " \t{"); sp >= 0 {
		lang = lang[:sp]
	}
	contentStart := min(eol+1, hi)
	fence := t[j : j+n]
	if !callFenceLangs[lang] {
		end := s.fenceClose(fence, contentStart, hi)
		s.ignore(j, end, "code")
		return end
	}
	if s.exampleBefore(j) {
		end := s.fenceClose(fence, contentStart, hi)
		s.ignore(j, end, "example")
		return end
	}
	n0 := len(s.items)
	end := s.fenceContent(lang, fence, contentStart, hi)
	if len(s.items) > n0 && s.exampleAfter(end) {
		s.items = s.items[:n0]
		s.ignore(j, end, "example")
	}
	return end
}

// fenceClose finds the end of a fence: after the closing line, or hi.
// It returns the position after the closer and where the content ends.
func (s *scanner) fenceClose(fence string, from, hi int) int {
	_, end := s.fenceCloseAt(fence, from, hi)
	return end
}

func (s *scanner) fenceCloseAt(fence string, from, hi int) (contentEnd, end int) {
	t := s.text
	for k := from; k < hi; {
		at := s.findIn(fence, k, hi)
		if at < 0 {
			return hi, hi
		}
		if s.atLineStart(at, from) || s.quotedLineStart(at) {
			e := at
			for e < hi && t[e] == fence[0] {
				e++
			}
			for e < hi && (t[e] == ' ' || t[e] == '\t' || t[e] == '\r') {
				e++
			}
			if e >= hi || t[e] == '\n' {
				if e < hi {
					e++
				}
				return at, e
			}
		}
		k = at + len(fence)
		for k < hi && t[k] == fence[0] {
			k++
		}
	}
	return hi, hi
}

// fenceContent scans a fence that may hold calls and returns the position
// after its closing line.
func (s *scanner) fenceContent(lang, fence string, from, hi int) int {
	n := len(s.items)
	end := s.fenceItems(lang, fence, from, hi)
	if hi == len(s.text) && len(s.items) > n {
		// The message ended before the closing fence: the last call in
		// it lacks a closer (endrule.go decides).
		if _, e := s.fenceCloseAt(fence, s.items[len(s.items)-1].end, hi); e == hi && !strings.HasSuffix(strings.TrimRight(s.text[:hi], " \t\r\n"), fence) {
			s.items[len(s.items)-1].unclosed = true
			s.items[len(s.items)-1].open = true
		}
	}
	return end
}

func (s *scanner) fenceItems(lang, fence string, from, hi int) int {
	k := s.skipSpace(from, hi)
	if !s.pythonicListAt(k, hi) {
		// A list of calls, [name(…)], is not JSON, whatever repairs it.
		if end := s.fencedJSON(k, fence, hi); end >= 0 {
			return end
		}
	}
	contentEnd, end := s.fenceCloseAt(fence, from, hi)
	if (lang == "tool_code" || lang == "tool_call" || lang == "") && s.pythonicBlock(k, contentEnd, lang != "") {
		return end
	}
	s.run(from, contentEnd, ctxFence)
	return end
}

// inlineCode skips a `code span` on one line. Without a closing run of the
// same length before the line ends, the backticks are literal.
func (s *scanner) inlineCode(j, n, hi int) int {
	t := s.text
	if n >= len(s.noCloseFrom) {
		return j + n
	}
	if f := s.noCloseFrom[n]; f >= 0 && j >= f {
		eol := s.findIn("\n", f, hi)
		if eol < 0 || j < eol {
			return j + n
		}
	}
	for k := j + n; k < hi; {
		c := t[k]
		if c == '\n' {
			break
		}
		if c == '`' {
			m := 0
			for k+m < hi && t[k+m] == '`' {
				m++
			}
			if m == n {
				return k + m
			}
			k += m
			continue
		}
		k++
	}
	s.noCloseFrom[n] = j
	return j + n
}

// quotedLine says j's line is a Markdown blockquote ("> …").
func (s *scanner) quotedLine(j int) bool {
	t := s.text
	k := j
	for k > 0 && j-k < 512 && t[k-1] != '\n' {
		k--
	}
	for k < j && (t[k] == ' ' || t[k] == '\t') {
		k++
	}
	return k < j && t[k] == '>' && k+1 < len(t) && (t[k+1] == ' ' || t[k+1] == '>')
}

// quotedLineStart says only a Markdown blockquote's markers ("> ", "> > ")
// precede i on its line: a fence inside a quote is still a fence.
func (s *scanner) quotedLineStart(i int) bool {
	t := s.text
	seen := false
	for k := i - 1; k >= 0 && k >= i-32; k-- {
		switch t[k] {
		case ' ', '\t':
		case '>':
			seen = true
		case '\n':
			return seen
		default:
			return false
		}
	}
	return seen && i <= 32
}

// pythonicListAt says a list of pythonic calls opens at k: '[', a name, '('.
func (s *scanner) pythonicListAt(k, hi int) bool {
	t := s.text
	if k >= hi || t[k] != '[' {
		return false
	}
	name, p := s.ident(s.skipSpace(k+1, hi), hi)
	return name != "" && p < hi && t[p] == '('
}
